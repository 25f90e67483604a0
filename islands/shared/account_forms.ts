/**
 * The messages a failed API call shows in the back office (spec section 8): pure, shared by every
 * back-office island and their tests; answers locale keys, which the page translates. The sign-in
 * and register forms' own rules and messages are in `sign_in_forms.ts`, which only their page loads.
 *
 * @module
 */

/** A message to show: a locale key with its values, or the server's own words. */
export interface Message {
  key?: string;
  params?: Record<string, string | number>;
  /** The server's message, when no catalogue entry fits. */
  text?: string;
  /** A second line, a locale key. */
  hint?: string;
}

/** What the API client throws (`islands/shared/admin_api.ts`), as far as messages care. */
export interface FailedCall {
  kind: "network" | "format" | "http";
  status: number | null;
  body: { message?: string; errors?: { path: string; message: string }[] } | null;
  retryAfter: number | null;
}

/** Whether `error` is a failed call of the API client (anything else is unexpected). */
export function isFailedCall(error: unknown): error is FailedCall {
  return typeof error === "object" && error !== null && "kind" in error && "status" in error;
}

/** The server's own message, when it sent one, else the unexpected error's. */
export function serverWords(call: FailedCall): Message {
  const text = call.body?.message;
  return typeof text === "string" && text.trim() ? { text } : { key: "apiErrors.unexpected" };
}

/**
 * The message of a failed back-office call (section 8, transaction list).
 *
 * @example
 * ```ts
 * listFailure({ kind: "http", status: 403, body: null, retryAfter: null }); // { key: "apiErrors.forbidden" }
 * ```
 */
export function listFailure(error: unknown): Message {
  if (!isFailedCall(error)) return { key: "apiErrors.unexpected" };
  if (error.kind === "network") return { key: "apiErrors.network" };
  if (error.kind === "format") return { key: "apiErrors.invalidResponse" };
  const status = error.status ?? 0;
  if (status === 401) return { key: "apiErrors.unauthorized" };
  if (status === 403) return { key: "apiErrors.forbidden" };
  if (status >= 500) return { key: "apiErrors.server" };
  return serverWords(error);
}
