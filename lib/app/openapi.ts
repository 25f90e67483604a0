/**
 * The OpenAPI 3.1 document of `/api`, generated from the same zod schemas that validate requests.
 * Each API route file exports `docs` next to its handlers, written by its concept
 * (`lib/<concept>/api_docs.ts`, typed by `lib/core/route_docs.ts`); the document is built from the
 * route modules (`api_docs.ts` loads them from the app's manifest), so a route cannot exist
 * undocumented (a test checks both directions).
 *
 * @module
 */
import { z } from "zod";
import { pathToPattern } from "@/lib/framework/router.ts";
import type { Manifest, Method } from "@/lib/framework/types.ts";
import { ErrorSchema } from "@/lib/http/schemas.ts";
import type { OperationDoc, RouteDocs } from "@/lib/core/route_docs.ts";

const STANDARD_ERRORS: Record<number, string> = {
  400: "Invalid input; `errors` lists each field's problem",
  401: "Not signed in, or a bad or expired token or signature",
  403: "Signed in but not allowed",
  404: "Unknown id",
  409: "Conflict with the current state",
  413: "Body larger than 64 KiB",
  415: "Body is not JSON",
  429: "Too many attempts; see Retry-After",
};

type JsonSchema = Record<string, unknown>;

/**
 * Builds the OpenAPI document from the API route modules (`api/…` keys) of a manifest's routes.
 *
 * @example
 * ```ts
 * const doc = buildOpenApi(manifest); // doc.paths["/api/user/{id}"].get.summary
 * ```
 */
export function buildOpenApi(manifest: Pick<Manifest, "routes">): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const text = JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/');
    const { $defs, $schema: _, ...rest } = JSON.parse(text) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    Object.assign(components, $defs ?? {});
    return rest;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [file, mod] of Object.entries(manifest.routes).sort(([a], [b]) => a.localeCompare(b))) {
    if (!file.startsWith("api/")) continue;
    const docs = (mod as { docs?: RouteDocs }).docs;
    if (!docs) continue;
    const path = pathToPattern(file).replace(/:(\w+)\??/g, "{$1}");
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    for (const [method, op] of Object.entries(docs) as [Method, OperationDoc][]) {
      const query = op.query ? toSchema(op.query, "input") : null;
      const queryParams = query
        ? Object.entries((query.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
          name,
          in: "query",
          required: ((query.required ?? []) as string[]).includes(name),
          schema,
        }))
        : [];
      const responses: Record<string, unknown> = {};
      for (const [status, r] of Object.entries(op.responses)) {
        responses[status] = {
          description: r.description,
          ...(r.headers
            ? {
              headers: Object.fromEntries(
                Object.entries(r.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: "string" } },
                ]),
              ),
            }
            : {}),
          ...(r.schema
            ? { content: { [r.mediaType ?? "application/json"]: { schema: toSchema(r.schema, "output") } } }
            : {}),
        };
      }
      const errorStatuses = [
        ...(op.body ? [400, 413, 415] : op.query ? [400] : []),
        ...(op.auth ? [401] : []),
        ...(params.length > 0 ? [404] : []),
      ];
      for (const status of errorStatuses) {
        responses[status] ??= {
          description: STANDARD_ERRORS[status],
          content: { "application/json": { schema: toSchema(ErrorSchema, "output") } },
        };
      }
      (paths[path] ??= {})[method.toLowerCase()] = {
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        tags: op.tags,
        ...(params.length + queryParams.length > 0 ? { parameters: [...params, ...queryParams] } : {}),
        ...(op.body
          ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: toSchema(op.body, "input") } },
            },
          }
          : {}),
        ...(op.auth === "bearer" ? { security: [{ bearerAuth: [] }] } : {}),
        responses,
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Museum donations API",
      version: "1.0.0",
      description: "The REST contract of the donation site and its back office. Every error answers " +
        "`{ message, statusCode, errors? }`. Signed calls carry keyId, timestamp, nonce and signature " +
        "(hex HMAC-SHA256 of the sorted key=value pairs, signature excluded, joined with &).",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}
