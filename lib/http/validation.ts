/**
 * Reading requests safely: JSON bodies and query strings checked against zod schemas, with every
 * problem turned into an {@link HttpError} that the API answers as
 * `{ message, statusCode, errors? }`, never a 5xx. `HttpError` is the HTTP layer's own (routes and
 * this parsing); the domain throws its own errors, which `domain_errors.ts` maps to a status.
 *
 * @module
 */
import type { z } from "zod";
import type { FieldError } from "@/lib/core/errors.ts";

/** An error the API answers with its status and message. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * Turns zod issues into field errors and a one-line summary naming the first field.
 *
 * @example
 * ```ts
 * toFieldErrors(result.error); // [{ path: "email", message: "Invalid email address" }]
 * ```
 */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

function invalid(what: string, error: z.ZodError): HttpError {
  const errors = toFieldErrors(error);
  const first = errors[0];
  const summary = first.path === "(body)" ? first.message : `${first.path}: ${first.message}`;
  return new HttpError(400, `Invalid ${what}: ${summary}`, errors);
}

/**
 * Reads a JSON body without validating it: 415 when the body is not declared JSON, 400 when it is
 * empty or not valid JSON. For signed bodies, whose signature covers the raw values.
 *
 * @example
 * ```ts
 * const raw = await readJsonValue(req);
 * ```
 */
export async function readJsonValue(req: Request): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, "The request body must be JSON (Content-Type: application/json)");
  }
  let raw: unknown;
  try {
    const text = await req.text();
    raw = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON");
  }
  if (raw === undefined) throw new HttpError(400, "The request body is empty; a JSON object is expected");
  return raw;
}

/**
 * Validates a parsed value against a schema; 400 naming the first problem.
 *
 * @example
 * ```ts
 * const body = validate(CreatePaymentSchema, raw);
 * ```
 */
export function validate<S extends z.ZodType>(schema: S, raw: unknown, what = "request body"): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw invalid(what, result.error);
  return result.data;
}

/**
 * Reads a JSON body and validates it. 415 when the body is not declared JSON, 400 when it is not
 * valid JSON or does not match the schema.
 *
 * @example
 * ```ts
 * const body = await readJson(req, CreateDonorSchema); // typed
 * ```
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  return validate(schema, await readJsonValue(req));
}

/**
 * Validates a request's query parameters (each a string; repeated parameters are refused).
 *
 * @example
 * ```ts
 * const query = readQuery(ctx.url, ListQuerySchema);
 * ```
 */
export function readQuery<S extends z.ZodType>(url: URL, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key in raw) {
      throw new HttpError(400, `Invalid query: ${key}: given more than once`, [{
        path: key,
        message: "given more than once",
      }]);
    }
    raw[key] = value;
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw invalid("query", result.error);
  return result.data;
}

/**
 * Validates a path parameter, answering 404 (not 400) when it cannot be an id: for a caller, an
 * id that cannot exist and one that does not exist are the same thing.
 *
 * @example
 * ```ts
 * const id = readId(ctx.params.id, "donor");
 * ```
 */
export function readId(value: string | undefined, what: string): string {
  if (!value || !/^[A-Za-z0-9_-]{16,64}$/.test(value)) throw new HttpError(404, `No ${what} with this id`);
  return value;
}
