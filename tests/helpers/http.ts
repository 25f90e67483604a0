/**
 * Small HTTP helpers for API tests: JSON requests against a running test app.
 *
 * @module
 */

/** A JSON answer: status, headers and parsed body. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * Sends a request and reads the JSON answer (or `null` for an empty body).
 *
 * @example
 * ```ts
 * const { status, body } = await api(app.url, "POST", "/api/user", { firstName: "Dana", … });
 * ```
 */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
    }
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** An Authorization header for a Bearer token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
