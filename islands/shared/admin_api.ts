/**
 * The back office's API client (spec sections 4 and 7): JSON calls that carry the stored access
 * token as a Bearer header; a 401 answer refreshes the tokens once and repeats that request once.
 *
 * Refreshing is shared: every request that meets a 401 while a refresh is under way waits for that
 * one refresh (a page loading both lists at once must not spend the refresh token twice, which
 * the server treats as theft and answers by revoking the session). Across tabs the same holds
 * through a Web Lock, and a tab that finds the stored access token already replaced uses the new
 * one instead of refreshing again.
 *
 * A refresh the server refuses ends the session: the three stored items are cleared and
 * `onSignedOut` runs (the dashboard sends the admin to `/{lang}/login`). A refresh that fails for
 * the network or a server error keeps the session (the refresh token may still be good) and
 * reports that error instead.
 *
 * @module
 */
import { ApiError, apiErrorOf as errorOf } from "./api_error.ts";
import { clearSession, readSession, saveTokens, type SessionStorage } from "./admin_session.ts";

export { ApiError, type ApiErrorBody } from "./api_error.ts";

export interface ApiClientOptions {
  fetch?: typeof fetch;
  storage?: SessionStorage | null;
  /** Runs when the session ends because the server refused it (not on `signOut`). */
  onSignedOut?: () => void;
  /** Web Locks, to share a refresh across tabs; null to skip. */
  locks?: Pick<LockManager, "request"> | null;
}

/** The client; see the module doc. */
export interface ApiClient {
  /** A JSON call with the session's token; answers the parsed body (null for 204). */
  request<T>(path: string, init?: RequestInit): Promise<T>;
  /** The same, answering the successful `Response` itself (e.g. to read a file). */
  response(path: string, init?: RequestInit): Promise<Response>;
  /** Revokes the refresh token on the server (best effort) and clears the stored session. */
  signOut(): Promise<void>;
}

const REFRESH_LOCK = "admin-session-refresh";

/**
 * Makes the client.
 *
 * @example
 * ```ts
 * const api = createApiClient({ onSignedOut: () => location.replace(`/${lang}/login`) });
 * const page = await api.request<ListPage>("/api/transaction/get-all-success-transactions?page=1&limit=10");
 * ```
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const storage = options.storage === undefined ? undefined : options.storage;
  const locks = options.locks === undefined ? (globalThis.navigator?.locks ?? null) : options.locks;
  let refreshing: Promise<string> | null = null;

  async function send(path: string, init: RequestInit, token: string | null): Promise<Response> {
    const headers = new Headers(init.headers);
    if (token) headers.set("authorization", `Bearer ${token}`);
    // A form's body (a file upload) sets its own multipart type and boundary.
    if (init.body !== undefined && !(init.body instanceof FormData) && !headers.has("content-type")) {
      headers.set("content-type", "application/json");
    }
    try {
      return await fetcher(path, { ...init, headers });
    } catch {
      throw new ApiError("network");
    }
  }

  function endSession(): never {
    clearSession(storage);
    options.onSignedOut?.();
    throw new ApiError("http", 401);
  }

  /** One refresh; `used` is the access token the server refused. */
  async function refreshOnce(used: string): Promise<string> {
    const current = readSession(storage);
    if (!current) return endSession();
    // Another request or tab has refreshed since `used` was sent: its token is the new one.
    if (current.accessToken !== used) return current.accessToken;
    const res = await send("/api/auth/admin/refresh", {
      method: "POST",
      body: JSON.stringify({ refreshToken: current.refreshToken }),
    }, null);
    if (res.status >= 500) throw await errorOf(res);
    if (!res.ok) return endSession();
    const data = ((await res.json().catch(() => null)) as { data?: Record<string, unknown> } | null)?.data;
    if (typeof data?.accessToken !== "string" || typeof data?.refreshToken !== "string") {
      throw new ApiError("format");
    }
    saveTokens({ accessToken: data.accessToken, refreshToken: data.refreshToken }, storage);
    return data.accessToken;
  }

  function freshToken(used: string): Promise<string> {
    refreshing ??= (locks ? locks.request(REFRESH_LOCK, () => refreshOnce(used)) : refreshOnce(used))
      .finally(() => (refreshing = null));
    return refreshing;
  }

  async function response(path: string, init: RequestInit = {}): Promise<Response> {
    const session = readSession(storage);
    if (!session) return endSession();
    let res = await send(path, init, session.accessToken);
    if (res.status === 401) {
      const token = await freshToken(session.accessToken);
      res = await send(path, init, token);
    }
    if (!res.ok) throw await errorOf(res);
    return res;
  }

  return {
    response,
    async request<T>(path: string, init?: RequestInit): Promise<T> {
      const res = await response(path, init);
      if (res.status === 204) return null as T;
      try {
        return await res.json() as T;
      } catch {
        throw new ApiError("format");
      }
    },
    async signOut() {
      const session = readSession(storage);
      clearSession(storage);
      if (!session) return;
      // Best effort: the tokens are gone from this browser either way. `keepalive` lets the call
      // finish if the page goes away first; reading the answer to its end means that, when the
      // caller navigates next, the request is over instead of cut off after its headers.
      await send("/api/auth/admin/logout", {
        method: "POST",
        keepalive: true,
        body: JSON.stringify({ refreshToken: session.refreshToken }),
      }, null).then((res) => res.arrayBuffer()).catch(() => undefined);
    },
  };
}
