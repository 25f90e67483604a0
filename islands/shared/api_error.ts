/**
 * A failed call to the API, as the back office's client (`admin_api.ts`) and the sign-in calls
 * (`admin_sign_in.ts`) throw it. A module of its own: the sign-in page needs it without the client.
 *
 * @module
 */

/** What the API answers on an error (`lib/http/errors.ts`). */
export interface ApiErrorBody {
  message?: string;
  statusCode?: number;
  errors?: { path: string; message: string }[];
}

/**
 * A failed call: `network` (no answer), `format` (an answer without what it must hold) or `http`
 * (an error status, with the server's body when it sent JSON).
 */
export class ApiError extends Error {
  constructor(
    readonly kind: "network" | "format" | "http",
    readonly status: number | null = null,
    readonly body: ApiErrorBody | null = null,
    /** Seconds, from a 429's `Retry-After`. */
    readonly retryAfter: number | null = null,
  ) {
    super(body?.message ?? (kind === "http" ? `HTTP ${status}` : kind));
  }
}

/**
 * The error of an answer with an error status: the server's JSON body when it sent one, and a 429's
 * or 503's `Retry-After` in seconds.
 *
 * @example
 * ```ts
 * if (!res.ok) throw await apiErrorOf(res);
 * ```
 */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  let body: ApiErrorBody | null = null;
  try {
    const parsed: unknown = await res.json();
    if (parsed && typeof parsed === "object") body = parsed as ApiErrorBody;
  } catch {
    // Not JSON (a proxy's page): the status alone decides the message.
  }
  const retry = Number(res.headers.get("retry-after"));
  return new ApiError("http", res.status, body, Number.isFinite(retry) && retry > 0 ? retry : null);
}
