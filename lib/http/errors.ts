/**
 * API errors: every error under `/api` answers `{ message, statusCode, errors? }` with the right
 * status, whatever went wrong.
 *
 * @module
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FieldError } from "@/lib/core/errors.ts";

/** The body of every API error. */
export interface ErrorBody {
  message: string;
  statusCode: number;
  errors?: FieldError[];
}

/**
 * Builds an error body.
 *
 * @example
 * ```ts
 * errorBody(404, "No donor with this id"); // { message: "No donor with this id", statusCode: 404 }
 * ```
 */
export function errorBody(statusCode: number, message: string, errors?: FieldError[]): ErrorBody {
  return errors && errors.length > 0 ? { message, statusCode, errors } : { message, statusCode };
}

/**
 * Answers an API error.
 *
 * @example
 * ```ts
 * return jsonError(c, 409, "This email is already registered");
 * ```
 */
export function jsonError(
  c: Context,
  statusCode: ContentfulStatusCode,
  message: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
): Response {
  return c.json(errorBody(statusCode, message, errors), statusCode, headers);
}
