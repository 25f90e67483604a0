/**
 * The admin's session in the browser, as spec section 3 and 4 keep it: three local-storage items,
 * `accessToken`, `refreshToken` and `admin` (the profile as JSON). The session exists only when
 * all three do and the profile parses; anything less counts as signed out. A nested folder of
 * `islands/` is not an island itself.
 *
 * @module
 */

/** The local-storage item names (spec section 3). */
export const SESSION_KEYS = ["accessToken", "refreshToken", "admin"] as const;

/** The profile the API answers for an admin (`AdminSchema`). */
export interface AdminProfile {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  status: "approved" | "pending" | "rejected" | "deactivated";
  /** What the admin may do (`lib/staff/roles.ts`); null while pending. Absent in profiles stored before roles. */
  role?: "owner" | "admin" | "finance" | "viewer" | null;
  /** Two-factor is required and not set up: the session opens only its enrolment. */
  twoFactorEnrolmentDue?: boolean;
}

/** A signed-in admin: both tokens and the profile. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  admin: AdminProfile;
}

/** Local storage, or a stand-in with the same three methods (tests). */
export type SessionStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function browserStorage(): SessionStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be disabled (private modes, blocked cookies): then nobody is signed in.
    return null;
  }
}

function isProfile(value: unknown): value is AdminProfile {
  const p = value as AdminProfile;
  return typeof p === "object" && p !== null && typeof p.email === "string" &&
    typeof p.name === "string" && typeof p.id === "string";
}

/**
 * The stored session, or null unless both tokens and a readable profile are there.
 *
 * @example
 * ```ts
 * const session = readSession();
 * if (!session) location.replace(`/${lang}/login`);
 * ```
 */
export function readSession(storage: SessionStorage | null = browserStorage()): Session | null {
  if (!storage) return null;
  const accessToken = storage.getItem("accessToken");
  const refreshToken = storage.getItem("refreshToken");
  const raw = storage.getItem("admin");
  if (!accessToken || !refreshToken || !raw) return null;
  try {
    const admin: unknown = JSON.parse(raw);
    return isProfile(admin) ? { accessToken, refreshToken, admin } : null;
  } catch {
    return null;
  }
}

/**
 * Stores a whole session (after sign-in or registration).
 *
 * @example
 * ```ts
 * saveSession({ accessToken, refreshToken, admin: { id, email, name, createdAt, status } });
 * ```
 */
export function saveSession(session: Session, storage: SessionStorage | null = browserStorage()): void {
  storage?.setItem("accessToken", session.accessToken);
  storage?.setItem("refreshToken", session.refreshToken);
  storage?.setItem("admin", JSON.stringify(session.admin));
}

/**
 * Stores a refreshed token pair, keeping the profile.
 *
 * @example
 * ```ts
 * saveTokens({ accessToken: "eyJ…", refreshToken: "r1…" });
 * ```
 */
export function saveTokens(
  tokens: { accessToken: string; refreshToken: string },
  storage: SessionStorage | null = browserStorage(),
): void {
  storage?.setItem("accessToken", tokens.accessToken);
  storage?.setItem("refreshToken", tokens.refreshToken);
}

/**
 * Stores a newer profile (e.g. the admin was approved since signing in).
 *
 * @example
 * ```ts
 * saveProfile(await api.request("/api/auth/admin/me"));
 * ```
 */
export function saveProfile(admin: AdminProfile, storage: SessionStorage | null = browserStorage()): void {
  storage?.setItem("admin", JSON.stringify(admin));
}

/**
 * Forgets the session: all three items (spec section 4, logout and failed refresh).
 *
 * @example
 * ```ts
 * clearSession();
 * ```
 */
export function clearSession(storage: SessionStorage | null = browserStorage()): void {
  for (const key of SESSION_KEYS) storage?.removeItem(key);
}
