/**
 * Admin accounts and sessions: registration under the configured policy, login with throttling,
 * refresh-token rotation with reuse detection, logout, approvals, and resolving a Bearer token to
 * the current admin.
 *
 * A session is a short-lived access token (JWT, 15 minutes) plus an opaque refresh token stored
 * only as a hash. Each refresh uses up its token and issues a new one in the same family; using a
 * spent token again means it was stolen, so the whole family is revoked. A family ends
 * {@link REFRESH_FAMILY_MAX_DAYS} days after its sign-in, however often it was refreshed.
 *
 * Passwords are hashed in the app's password pool (workers, off the event loop). A sign-in takes
 * its throttle slot (per email and per client address bucket, `login_throttle.ts`) atomically
 * before it spends a hash, so a burst of parallel guesses gets at most `MAX_FAILED_LOGINS`
 * hashes, and attempts on unknown emails are hashed within a budget an hour across everyone; a
 * registration looks up the email before hashing.
 *
 * Refusals are domain errors (`errors.ts`); the HTTP layer gives them their status.
 *
 * @module
 */
import type { z } from "zod";
import { actorEntry } from "@/lib/audit/mod.ts";
import { newId } from "@/lib/core/ids.ts";
import { FALLBACK_LANG } from "@/lib/shared/languages.ts";
import type { AdminLoginSchema, AdminRegisterSchema } from "./schemas.ts";
import { type Admin, type AdminRole, EmailTakenError, type Store } from "@/lib/storage/types.ts";
import {
  AccessTokenError,
  AccountInactiveError,
  AccountRejectedError,
  AlreadyDecidedError,
  EmailRegisteredError,
  InvalidCredentialsError,
  NoSuchAdminError,
  NotApprovedError,
  OwnDecisionError,
  RefreshTokenError,
  RegistrationClosedError,
  SignInRequiredError,
  WeakPasswordError,
} from "./errors.ts";
import type { Argon2Runner } from "./password_pool.ts";
import { checksUnknownEmail, noteHashTime, reserveLoginSlot, waitAsLongAsAHash } from "./login_throttle.ts";
import { createPendingToken } from "./second_factor_token.ts";
import { hashPassword, passwordProblem, verifyAgainstDummy, verifyPassword } from "./passwords.ts";
import {
  createAccessToken,
  hashRefreshToken,
  newRefreshToken,
  REFRESH_FAMILY_MAX_DAYS,
  REFRESH_TOKEN_TTL_DAYS,
  TokenError,
  verifyAccessToken,
} from "./tokens.ts";

/** What the account functions need. */
export interface AccountsContext {
  store: Store;
  /** Key for access tokens, derived from APP_SECRET. */
  accessKey: Uint8Array;
  policy: "approval" | "open" | "closed";
  /** Where passwords are hashed: the app's password pool. */
  passwords: Argon2Runner;
  /** The app secret: the two-factor keys derive from it (`two_factor_secrets.ts`). */
  appSecret: string;
  now?: () => Date;
}

/** What {@link accountsContext} reads of the app's services (`Services` of `lib/app/state.ts` has it). */
export interface AccountServices {
  store: Store;
  accessKey: Uint8Array;
  passwords: Argon2Runner;
  config: { adminRegistration: AccountsContext["policy"]; appSecret: string };
}

/**
 * The accounts context of the app's services.
 *
 * @example
 * ```ts
 * const session = await login(accountsContext(ctx.state.services), body, address);
 * ```
 */
export function accountsContext(services: AccountServices): AccountsContext {
  return {
    store: services.store,
    accessKey: services.accessKey,
    policy: services.config.adminRegistration,
    passwords: services.passwords,
    appSecret: services.config.appSecret,
  };
}

/** The admin profile the API answers (never the password hash). */
export interface AdminProfile {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  status: Admin["status"];
  /** What the admin may do (`roles.ts`); null while pending or rejected. */
  role: Admin["role"];
}

/**
 * A profile plus the two tokens, as login and register answer. `twoFactorEnrolmentDue`: two-factor
 * is required and this account has none yet, so the session opens only its enrolment.
 */
export type Session = AdminProfile & {
  accessToken: string;
  refreshToken: string;
  twoFactorEnrolmentDue?: true;
};

/** What the password step answers an admin with two-factor: no session yet, a code is due. */
export interface SecondFactorChallenge {
  secondFactor: "totp";
  /** Trade it, with a code, at `POST /api/auth/admin/two-factor/verify`. */
  pendingToken: string;
  /** ISO 8601: when the pending token expires. */
  expiresAt: string;
}

/** The profile of an admin. */
export function profile(admin: Admin): AdminProfile {
  return {
    id: admin.id,
    email: admin.email,
    name: admin.name,
    createdAt: admin.createdAt,
    status: admin.status,
    role: admin.role,
  };
}

const clock = (ctx: AccountsContext) => ctx.now?.() ?? new Date();
/** The language of messages to the museum's staff: the back office's own (`FALLBACK_LANG`). */
const ADMIN_MESSAGE_LANGUAGE = FALLBACK_LANG;

const DAY_MS = 86_400_000;

/** When a family started at `startedAt` (ISO) ends: {@link REFRESH_FAMILY_MAX_DAYS} later (ms). */
const familyEnd = (startedAt: string) => new Date(startedAt).getTime() + REFRESH_FAMILY_MAX_DAYS * DAY_MS;

/** Starts a session (a new refresh-token family, or the next token of `family`) for `admin`. */
export async function startSession(
  ctx: AccountsContext,
  admin: Admin,
  family?: { id: string; startedAt: string },
  signInFrom?: string,
): Promise<Session> {
  const now = clock(ctx);
  const startedAt = family?.startedAt ?? now.toISOString();
  const refresh = await newRefreshToken();
  await ctx.store.refreshTokens.create({
    hash: refresh.hash,
    adminId: admin.id,
    familyId: family?.id ?? newId(),
    familyStartedAt: startedAt,
    createdAt: now.toISOString(),
    // Never past the family's end: the token's own expiry then tells (and retention sweeps it).
    expiresAt: new Date(Math.min(now.getTime() + REFRESH_TOKEN_TTL_DAYS * DAY_MS, familyEnd(startedAt)))
      .toISOString(),
    usedAt: null,
  }, {
    // A sign-in (not a refresh) is audited with its token, in the same atomic step.
    audit: signInFrom === undefined ? [] : [actorEntry({ admin, address: signInFrom }, "sign-in", admin.id)],
  });
  const accessToken = await createAccessToken(ctx.accessKey, { adminId: admin.id }, now);
  return { ...profile(admin), accessToken, refreshToken: refresh.token };
}

/**
 * Registers an admin and starts a session. Under `approval`, the first admin is approved at once
 * as the owner and later ones wait as `pending`; under `open` everyone is approved (the first as
 * the owner, later ones as `admin`); under `closed` nobody may register.
 *
 * @example
 * ```ts
 * const session = await register(ctx, { email: "ana@museum.org", password: "long-enough-pass", name: "Ana" });
 * ```
 */
export async function register(
  ctx: AccountsContext,
  input: z.output<typeof AdminRegisterSchema>,
): Promise<Session> {
  if (ctx.policy === "closed") throw new RegistrationClosedError();
  const problem = passwordProblem(input.password);
  if (problem) throw new WeakPasswordError(problem);
  // Before the hash: a taken email costs a look-up, not a hash. (`create` still refuses a taken
  // email atomically, for two registrations of one address at once.)
  if (await ctx.store.admins.getByEmail(input.email)) throw new EmailRegisteredError();
  const admin: Admin = {
    id: newId(),
    email: input.email,
    name: input.name ?? input.email.split("@")[0],
    passwordHash: await hashPassword(input.password, ctx.passwords),
    // Under `open`, everyone may do everything but manage roles; the first is the owner either way.
    status: ctx.policy === "open" ? "approved" : "pending",
    role: ctx.policy === "open" ? "admin" : null,
    createdAt: clock(ctx).toISOString(),
    decidedBy: null,
    decidedAt: null,
  };
  let stored: Admin;
  try {
    stored = await ctx.store.admins.create(admin, {
      approveIfFirst: true,
      // Stored only if the admin waits for approval: the approved admins are told.
      messages: [{
        key: `admin-pending:${admin.id}`,
        kind: "admin-pending",
        to: { admins: true },
        language: ADMIN_MESSAGE_LANGUAGE,
        data: { adminId: admin.id },
      }],
    });
  } catch (e) {
    throw e instanceof EmailTakenError ? new EmailRegisteredError() : e;
  }
  return await startSession(ctx, stored);
}

/**
 * Logs an admin in. An admin with two-factor gets a {@link SecondFactorChallenge} instead of a
 * session (the code step is `two_factor.ts` `verifySecondFactor`). Failed attempts are counted per
 * email and per client address bucket in storage; past `MAX_FAILED_LOGINS` (5) within 15
 * minutes, even the right password gets a `LoginThrottledError` (which says when to try again).
 *
 * The attempt is counted first, in one atomic step with the check (`login_throttle.ts`), and only
 * then is the password hashed: of any number of parallel guesses, at most
 * `MAX_FAILED_LOGINS` are hashed and the rest are refused without one. A failure keeps its
 * slot; a success clears the email's failures and gives the address's slot back; an attempt that
 * never compared a password (the pool was busy, storage failed) gives both back. An unknown email
 * is checked against a dummy hash within the hour's budget, and answered alike without a hash
 * beyond it; it is audited with the others of its hour, not on its own.
 *
 * @example
 * ```ts
 * const session = await login(ctx, { email, password }, "203.0.113.7");
 * ```
 */
export async function login(
  ctx: AccountsContext,
  input: z.output<typeof AdminLoginSchema>,
  clientAddress: string,
): Promise<Session | SecondFactorChallenge> {
  const now = clock(ctx).getTime();
  const slot = await reserveLoginSlot(ctx.store, input.email, clientAddress, now);
  let admin: Admin | null;
  let ok = false;
  try {
    admin = await ctx.store.admins.getByEmail(input.email);
    if (admin || await checksUnknownEmail(ctx.store, now)) {
      const started = performance.now();
      ok = admin
        ? await verifyPassword(input.password, admin.passwordHash, ctx.passwords)
        : await verifyAgainstDummy(input.password, ctx.passwords);
      noteHashTime(performance.now() - started);
    } else await waitAsLongAsAHash(); // beyond the hour's budget: no hash, the same wait
  } catch (e) {
    // No password was compared: not a failed guess. Best effort; the error that stopped it wins.
    await slot.release().catch(() => {});
    throw e;
  }
  // An unknown email is counted for its hour's summary (`login_throttle.ts`), not logged alone.
  if (!admin) throw new InvalidCredentialsError();
  // A failure has no write of its own (its throttle slot was taken before the check): appended.
  // Only attempts that compared a password are logged, so the throttle bounds the log's growth.
  const failed = (reason: string) =>
    ctx.store.audit.append([{
      action: "sign-in-failed",
      actorId: admin.id,
      actorEmail: input.email,
      address: clientAddress,
      target: admin.id,
      changes: { reason },
    }], clock(ctx).toISOString());
  if (!ok) {
    await failed("wrong-password");
    throw new InvalidCredentialsError();
  }
  if (admin.status === "rejected" || admin.status === "deactivated") {
    // The right password: not a failed guess, yet no session.
    await Promise.all([slot.release(), failed(admin.status)]);
    throw admin.status === "rejected" ? new AccountRejectedError() : new AccountInactiveError();
  }
  const twoFactor = await ctx.store.twoFactor.state(admin.id);
  if (twoFactor.enrolled) {
    // The right password, not a failed guess; but the email's failures stay until the code is right,
    // so wrong codes and passwords share one count (`two_factor.ts` verifySecondFactor).
    await slot.release();
    const pending = await createPendingToken(ctx.appSecret, admin.id, clock(ctx));
    return { secondFactor: "totp", pendingToken: pending.token, expiresAt: pending.expiresAt };
  }
  await slot.succeeded();
  const session = await startSession(ctx, admin, undefined, clientAddress);
  return twoFactor.required && admin.status === "approved"
    ? { ...session, twoFactorEnrolmentDue: true }
    : session;
}

/**
 * Exchanges a refresh token for a new pair. A spent token used again revokes its whole family.
 *
 * @example
 * ```ts
 * const { accessToken, refreshToken } = await refresh(ctx, oldRefreshToken);
 * ```
 */
export async function refresh(
  ctx: AccountsContext,
  token: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const now = clock(ctx);
  const stored = await ctx.store.refreshTokens.get(await hashRefreshToken(token));
  if (!stored) throw new RefreshTokenError("unknown");
  if (await ctx.store.refreshTokens.isFamilyRevoked(stored.familyId)) throw new RefreshTokenError("revoked");
  if (new Date(stored.expiresAt) <= now) throw new RefreshTokenError("expired");
  // Tokens made before families had an end may expire later than it: the family's end decides.
  if (familyEnd(stored.familyStartedAt) <= now.getTime()) throw new RefreshTokenError("sessionTooOld");
  if (!await ctx.store.refreshTokens.markUsed(stored.hash, now.toISOString())) {
    await ctx.store.refreshTokens.revokeFamily(stored.familyId, now.toISOString());
    throw new RefreshTokenError("reused");
  }
  const admin = await ctx.store.admins.get(stored.adminId);
  if (!admin || admin.status === "rejected" || admin.status === "deactivated") {
    throw new AccountInactiveError();
  }
  const session = await startSession(ctx, admin, { id: stored.familyId, startedAt: stored.familyStartedAt });
  return { accessToken: session.accessToken, refreshToken: session.refreshToken };
}

/**
 * Ends a session: revokes the refresh token's family. Idempotent; an unknown token is fine.
 *
 * @example
 * ```ts
 * await logout(ctx, refreshToken);
 * ```
 */
export async function logout(ctx: AccountsContext, token: string): Promise<void> {
  const stored = await ctx.store.refreshTokens.get(await hashRefreshToken(token));
  if (stored) await ctx.store.refreshTokens.revokeFamily(stored.familyId, clock(ctx).toISOString());
}

/**
 * Resolves an `Authorization: Bearer …` header to the current admin; throws
 * {@link SignInRequiredError}, {@link AccessTokenError} or {@link AccountInactiveError} otherwise.
 *
 * @example
 * ```ts
 * const admin = await authenticate(ctx, req.headers.get("authorization"));
 * ```
 */
export async function authenticate(ctx: AccountsContext, header: string | null): Promise<Admin> {
  const match = header?.match(/^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i);
  if (!match) throw new SignInRequiredError();
  let adminId: string;
  try {
    ({ adminId } = await verifyAccessToken(match[1], ctx.accessKey, clock(ctx)));
  } catch (e) {
    throw e instanceof TokenError ? new AccessTokenError(e.reason) : e;
  }
  const admin = await ctx.store.admins.get(adminId);
  if (!admin || admin.status === "rejected" || admin.status === "deactivated") {
    throw new AccountInactiveError();
  }
  return admin;
}

/**
 * Throws {@link NotApprovedError} unless the admin is approved: a pending admin can sign in but
 * sees no donor data.
 *
 * @example
 * ```ts
 * requireApproved(await authenticate(ctx, header));
 * ```
 */
export function requireApproved(admin: Admin): Admin {
  if (admin.status !== "approved") throw new NotApprovedError();
  return admin;
}

/**
 * Approves (with `role`) or rejects a pending admin (by an owner, from the client at `address`).
 * The write is conditional on the admin still being pending: of two decisions at once, one wins
 * and the other gets {@link AlreadyDecidedError}. The winner's audit entry is written with it.
 *
 * @example
 * ```ts
 * await decide(ctx, owner, pendingId, "approved", "203.0.113.7", "finance");
 * ```
 */
export async function decide(
  ctx: AccountsContext,
  actor: Admin,
  id: string,
  status: "approved" | "rejected",
  address: string,
  role: AdminRole = "viewer",
): Promise<AdminProfile> {
  requireApproved(actor);
  const target = await ctx.store.admins.get(id);
  if (!target) throw new NoSuchAdminError();
  if (target.id === actor.id) throw new OwnDecisionError();
  if (target.status !== "pending") throw new AlreadyDecidedError(target.status);
  const updated = await ctx.store.admins.setStatus(
    id,
    status,
    actor.id,
    clock(ctx).toISOString(),
    "pending",
    {
      role,
      audit: [{
        action: status === "approved" ? "admin-approved" : "admin-rejected",
        actorId: actor.id,
        actorEmail: actor.email,
        address,
        target: id,
        changes: {
          status: { from: "pending", to: status },
          ...(status === "approved" ? { role: { from: null, to: role } } : {}),
        },
      }],
    },
  );
  if (updated) return profile(updated);
  // Someone decided in between (or the admin is gone): say what it is now.
  const now = await ctx.store.admins.get(id);
  if (!now) throw new NoSuchAdminError();
  throw new AlreadyDecidedError(now.status === "pending" ? status : now.status);
}
