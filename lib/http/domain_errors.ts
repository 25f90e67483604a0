/**
 * The one place where errors become HTTP answers: the domain's errors, which say what kind of
 * failure they are (`kind` of `lib/core/errors.ts`) but not how to answer, get the status of their kind
 * here; so do this layer's own {@link HttpError} (bad requests, with their status) and a refused
 * request signature. `routes/api/_middleware.ts` answers them as JSON `{ message, statusCode,
 * errors? }`; pages that catch them (the donation form) read the status to choose theirs.
 *
 * @module
 */
import { DomainError, type ErrorKind, type FieldError } from "@/lib/core/errors.ts";
import { SignatureError } from "@/lib/signing/signature_check.ts";
import { errorBody } from "./errors.ts";
import { HttpError } from "./validation.ts";

/** How an error is answered: status, message, the fields at fault and extra headers. */
export interface ErrorAnswer {
  status: number;
  message: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

/** The status of each kind of domain error: the one place a status is chosen for the domain's failures. */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

/**
 * How a known error is answered, or `null` for any other error (a bug or an outage: the app's 500
 * and 503 handlers take those).
 *
 * @example
 * ```ts
 * errorAnswer(new UnknownDonorError()); // { status: 404, message: "No donor with this userId" }
 * errorAnswer(new TypeError("x")); // null
 * ```
 */
export function errorAnswer(e: unknown): ErrorAnswer | null {
  if (e instanceof HttpError) {
    return { status: e.status, message: e.message, errors: e.errors, headers: e.headers };
  }
  if (e instanceof SignatureError) return { status: 401, message: e.message };
  if (!(e instanceof DomainError) || e.kind === undefined) return null;
  // A refusal that says when to come back (throttled sign-ins, rate limits, busy pools) says it in Retry-After.
  const retryAfter = (e as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  const headers = typeof retryAfter === "number" ? { "retry-after": String(retryAfter) } : undefined;
  return { status: STATUS[e.kind], message: e.message, errors: e.errors, headers };
}

/**
 * The API's JSON answer to a known error: `{ message, statusCode, errors? }` with its status and
 * headers (e.g. `Retry-After`).
 *
 * @example
 * ```ts
 * const answer = errorAnswer(e);
 * if (answer) return errorResponse(answer);
 * ```
 */
export function errorResponse(answer: ErrorAnswer): Response {
  return Response.json(errorBody(answer.status, answer.message, answer.errors), {
    status: answer.status,
    headers: answer.headers,
  });
}
