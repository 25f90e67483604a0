/**
 * The staff's two-factor sign-in (issue 16): enrolment with a TOTP app (a QR code, then a first
 * code confirms it and answers 10 recovery codes, shown once), the code step of a sign-in, the
 * museum-wide requirement an owner sets, an owner's reset of another admin's second factor, and
 * the check every admin request passes while enrolment is due.
 *
 * Sign-in with two-factor: the password step (`accounts.ts` `login`) answers a short-lived pending
 * token instead of a session; {@link verifySecondFactor} trades it, with a TOTP code or a recovery
 * code, for the session. Each code attempt takes a slot of the login throttle (the same keys as a
 * password attempt, per email and per client address) before it is checked, and a wrong one keeps
 * it: at most {@link MAX_FAILED_LOGINS} wrong codes and passwords together per 15 minutes. A TOTP
 * code's time step is accepted once (`store.twoFactor.useStep`): the same code again in its 30 s
 * window is refused; a recovery code is removed as it is used.
 *
 * When an owner requires two-factor, an account without it signs in with a session that opens
 * only its enrolment (and `me`): `two_factor_gate.ts` refuses everything else.
 *
 * @module
 */

import QRCode from "qrcode";
import type { Admin } from "@/lib/storage/types.ts";
import { type AccountsContext, type Session, startSession } from "./accounts.ts";
import { AccountInactiveError, NoSuchAdminError } from "./errors.ts";
import { reserveLoginSlot } from "./login_throttle.ts";
import { OWNERS, requireRole } from "./roles.ts";
import { readPendingToken } from "./second_factor_token.ts";
import type { Actor } from "./staff.ts";
import {
  AlreadyEnrolledError,
  NoEnrolmentError,
  NoTwoFactorError,
  SecondFactorTokenError,
  SecretUnreadableError,
  WrongEnrolmentCodeError,
  WrongSecondFactorCodeError,
} from "./two_factor_errors.ts";
import {
  isTotpCode,
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  openSecret,
  recoveryHash,
  sealSecret,
  totpOf,
  twoFactorKeys,
} from "./two_factor_secrets.ts";

const clock = (ctx: AccountsContext) => ctx.now?.() ?? new Date();

/** An admin's two-factor state, as `GET /api/auth/admin/two-factor` answers it. */
export interface TwoFactorStatus {
  enrolled: boolean;
  /** Whether an owner requires two-factor for everyone. */
  required: boolean;
  /** Required and not enrolled: the account's session opens only its enrolment. */
  enrolmentDue: boolean;
  /** Recovery codes not used yet (0 when not enrolled). */
  recoveryCodesLeft: number;
}

/** What enrolment shows: the secret as a QR code (SVG) and as text, and the `otpauth://` URI. */
export interface Enrolment {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}

/**
 * The admin's two-factor state.
 *
 * @example
 * ```ts
 * const { enrolled, enrolmentDue } = await twoFactorStatus(ctx, admin);
 * ```
 */
export async function twoFactorStatus(ctx: AccountsContext, admin: Admin): Promise<TwoFactorStatus> {
  const [record, required] = await Promise.all([
    ctx.store.twoFactor.get(admin.id),
    ctx.store.twoFactor.required(),
  ]);
  const enrolled = record?.enrolledAt != null;
  return {
    enrolled,
    required,
    enrolmentDue: required && !enrolled && admin.status === "approved",
    recoveryCodesLeft: enrolled ? record!.recoveryHashes.length : 0,
  };
}

/**
 * Starts (or starts again) the admin's enrolment: a new secret, sealed in storage unconfirmed, and
 * what the admin's app needs. `issuer` names the account in the app (e.g. the site's host).
 *
 * @example
 * ```ts
 * const { qrSvg, secret } = await beginEnrolment(ctx, admin, "donate.museum.org");
 * ```
 */
export async function beginEnrolment(ctx: AccountsContext, admin: Admin, issuer: string): Promise<Enrolment> {
  const secret = newTotpSecret();
  const sealed = await sealSecret(await twoFactorKeys(ctx.appSecret), admin.id, secret);
  if (!await ctx.store.twoFactor.begin(admin.id, sealed, clock(ctx).toISOString())) {
    throw new AlreadyEnrolledError();
  }
  const otpauthUri = totpOf(secret, issuer, admin.email).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return { secret, otpauthUri, qrSvg };
}

/**
 * Confirms the enrolment begun with a first code from the app; answers the recovery codes (shown
 * once: only their keyed hashes are kept). Audited `two-factor-enrolled` in the same write.
 *
 * @example
 * ```ts
 * const { recoveryCodes } = await confirmEnrolment(ctx, { admin, address }, "123456");
 * ```
 */
export async function confirmEnrolment(
  ctx: AccountsContext,
  actor: Actor,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const { admin } = actor;
  const record = await ctx.store.twoFactor.get(admin.id);
  if (record?.enrolledAt != null) throw new AlreadyEnrolledError();
  if (!record) throw new NoEnrolmentError();
  const keys = await twoFactorKeys(ctx.appSecret);
  const secret = await openSecret(keys, admin.id, record.sealedSecret);
  if (secret === null) throw new NoEnrolmentError();
  const now = clock(ctx);
  const step = matchingStep(secret, code, now.getTime());
  if (step === null) throw new WrongEnrolmentCodeError();
  const recoveryCodes = newRecoveryCodes();
  const hashes = await Promise.all(recoveryCodes.map(async (c) => (await recoveryHash(keys, c))!));
  const confirmed = await ctx.store.twoFactor.confirm(
    admin.id,
    record.sealedSecret,
    hashes,
    step,
    now.toISOString(),
    {
      audit: [{
        action: "two-factor-enrolled",
        actorId: admin.id,
        actorEmail: admin.email,
        address: actor.address,
        target: admin.id,
        changes: { enrolled: { from: false, to: true } },
      }],
    },
  );
  // Another confirmation or a new start landed in between.
  if (!confirmed) throw new NoEnrolmentError();
  return { recoveryCodes };
}

/**
 * The code step of a sign-in: the pending token from the password step and a TOTP code (or a
 * recovery code) → the session. Throttled with the password step (see the module's doc).
 *
 * @example
 * ```ts
 * const session = await verifySecondFactor(ctx, { pendingToken, code: "123456" }, "203.0.113.7");
 * ```
 */
export async function verifySecondFactor(
  ctx: AccountsContext,
  input: { pendingToken: string; code: string },
  clientAddress: string,
): Promise<Session> {
  const adminId = await readPendingToken(ctx.appSecret, input.pendingToken, clock(ctx));
  if (adminId === null) throw new SecondFactorTokenError();
  const admin = await ctx.store.admins.get(adminId);
  if (!admin) throw new SecondFactorTokenError();
  if (admin.status === "rejected" || admin.status === "deactivated") throw new AccountInactiveError();
  const now = clock(ctx).getTime();
  const slot = await reserveLoginSlot(ctx.store, admin.email, clientAddress, now);
  let ok: boolean;
  try {
    ok = await codeAccepted(ctx, admin, input.code, new Date(now));
  } catch (e) {
    // No code was compared: not a failed guess. Best effort; the error that stopped it wins.
    await slot.release().catch(() => {});
    throw e;
  }
  if (!ok) {
    // A wrong code is a failed sign-in, as a wrong password is (no write of its own: appended).
    await ctx.store.audit.append([{
      action: "sign-in-failed",
      actorId: admin.id,
      actorEmail: admin.email,
      address: clientAddress,
      target: admin.id,
      changes: { reason: "wrong-code" },
    }], clock(ctx).toISOString());
    throw new WrongSecondFactorCodeError();
  }
  await slot.succeeded();
  // The sign-in is audited here, with its session, for an account with two-factor.
  return await startSession(ctx, admin, undefined, clientAddress);
}

/** Whether `code` is a valid, unused TOTP or recovery code of `admin` (using it up if so). */
async function codeAccepted(ctx: AccountsContext, admin: Admin, code: string, now: Date): Promise<boolean> {
  const record = await ctx.store.twoFactor.get(admin.id);
  if (record?.enrolledAt == null) return false;
  const keys = await twoFactorKeys(ctx.appSecret);
  if (isTotpCode(code)) {
    const secret = await openSecret(keys, admin.id, record.sealedSecret);
    if (secret === null) throw new SecretUnreadableError();
    const step = matchingStep(secret, code, now.getTime());
    return step !== null && await ctx.store.twoFactor.useStep(admin.id, step, now.toISOString());
  }
  const hash = await recoveryHash(keys, code);
  return hash !== null && await ctx.store.twoFactor.useRecoveryCode(admin.id, hash, now.toISOString());
}

/**
 * An owner requires (or stops requiring) two-factor for everyone; audited `two-factor-required`
 * when it changes. Answers the value now.
 *
 * @example
 * ```ts
 * await setTwoFactorRequired(ctx, { admin: owner, address }, true);
 * ```
 */
export async function setTwoFactorRequired(
  ctx: AccountsContext,
  actor: Actor,
  required: boolean,
): Promise<{ required: boolean }> {
  requireRole(actor.admin, OWNERS);
  await ctx.store.twoFactor.setRequired(required, clock(ctx).toISOString(), {
    // Written only when the value changes, so `from` is the other value.
    audit: [{
      action: "two-factor-required",
      actorId: actor.admin.id,
      actorEmail: actor.admin.email,
      address: actor.address,
      target: null,
      changes: { required: { from: !required, to: required } },
    }],
  });
  return { required };
}

/**
 * An owner removes an admin's two-factor (a lost phone and no recovery code left): the admin signs
 * in with the password alone, or enrols again at once when two-factor is required. Audited
 * `two-factor-reset` in the same write.
 *
 * @example
 * ```ts
 * await resetTwoFactor(ctx, { admin: owner, address }, adminId);
 * ```
 */
export async function resetTwoFactor(ctx: AccountsContext, actor: Actor, id: string): Promise<void> {
  requireRole(actor.admin, OWNERS);
  const target = await ctx.store.admins.get(id);
  if (!target) throw new NoSuchAdminError();
  const removed = await ctx.store.twoFactor.reset(id, clock(ctx).toISOString(), {
    audit: [{
      action: "two-factor-reset",
      actorId: actor.admin.id,
      actorEmail: actor.admin.email,
      address: actor.address,
      target: id,
      changes: { twoFactor: { from: "set up", to: "none" } },
    }],
  });
  if (!removed) throw new NoTwoFactorError();
}
