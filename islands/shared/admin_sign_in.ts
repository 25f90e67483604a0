/**
 * The calls that start a staff session (spec sections 4 and 5): sign in, the two-factor code step,
 * register. Each stores the session it answers (`admin_session.ts`); a failed one throws an
 * {@link ApiError}. Apart from the API client (`admin_api.ts`), which only the back office's pages
 * need, so that neither ships the other's code.
 *
 * @module
 */
import { ApiError, apiErrorOf } from "./api_error.ts";
import { type AdminProfile, saveSession, type Session, type SessionStorage } from "./admin_session.ts";

/** The password step's answer for an admin with two-factor: a code is due. */
export interface SecondFactorChallenge {
  secondFactor: "totp";
  pendingToken: string;
}

/** The calls; see the module doc. */
export interface SignInCalls {
  /**
   * `POST /api/auth/admin/login`; stores and answers the session, or answers the code step's
   * challenge (nothing stored) for an admin with two-factor.
   */
  signIn(email: string, password: string): Promise<Session | SecondFactorChallenge>;
  /** `POST /api/auth/admin/two-factor/verify`: the code step; stores and answers the session. */
  verifySecondFactor(pendingToken: string, code: string): Promise<Session>;
  /** `POST /api/auth/admin/register`; stores and answers the session. */
  register(name: string, email: string, password: string): Promise<Session>;
}

/** The session in a login or register answer; a missing token is an 'Invalid response format'. */
function sessionOf(body: unknown): Session {
  const { accessToken, refreshToken, ...admin } = (body ?? {}) as Record<string, unknown>;
  if (typeof accessToken !== "string" || !accessToken || typeof refreshToken !== "string" || !refreshToken) {
    throw new ApiError("format");
  }
  if (typeof admin.email !== "string" || typeof admin.name !== "string" || typeof admin.id !== "string") {
    throw new ApiError("format");
  }
  return { accessToken, refreshToken, admin: admin as unknown as AdminProfile };
}

/**
 * Makes the calls (`fetch` and `storage` for tests; local storage by default).
 *
 * @example
 * ```ts
 * const answer = await createSignIn().signIn("dana@museum.org", password);
 * if ("pendingToken" in answer) showCodeStep(answer.pendingToken);
 * ```
 */
export function createSignIn(
  options: { fetch?: typeof fetch; storage?: SessionStorage | null } = {},
): SignInCalls {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);

  /** A call that starts a session; the password step may answer the code step's challenge instead. */
  async function begin(
    path: string,
    payload: Record<string, string>,
  ): Promise<Session | SecondFactorChallenge> {
    let res: Response;
    try {
      res = await fetcher(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payload),
      });
    } catch {
      throw new ApiError("network");
    }
    if (!res.ok) throw await apiErrorOf(res);
    const body = await res.json().catch(() => null);
    if (body?.secondFactor === "totp" && typeof body.pendingToken === "string") {
      return { secondFactor: "totp", pendingToken: body.pendingToken };
    }
    const session = sessionOf(body);
    saveSession(session, options.storage);
    return session;
  }

  /** {@link begin} where only a session may come. */
  async function start(path: string, payload: Record<string, string>): Promise<Session> {
    const answer = await begin(path, payload);
    if (!("accessToken" in answer)) throw new ApiError("format");
    return answer;
  }

  return {
    signIn: (email, password) => begin("/api/auth/admin/login", { email, password }),
    verifySecondFactor: (pendingToken, code) =>
      start("/api/auth/admin/two-factor/verify", { pendingToken, code }),
    // The spec's client collected the name without sending it; the API takes it, and the
    // back office's header needs it.
    register: (name, email, password) => start("/api/auth/admin/register", { name, email, password }),
  };
}
