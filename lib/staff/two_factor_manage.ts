/**
 * A staff member managing their own two-factor sign-in (issue 16): new recovery codes (the old
 * ones stop working), and turning two-factor off while the museum does not require it.
 *
 * Both ask for a current code from the authenticator app, not only the session: a session left
 * open on a shared computer, or a stolen token, must not be enough to weaken the account or to
 * read fresh recovery codes. The code's time step is spent in the same write as the change
 * (`store.twoFactor.replaceRecoveryCodes` / `disable`), so one code does one thing once. A wrong
 * code counts toward the login throttle as a wrong password does (per email and client address),
 * so the code cannot be guessed through these calls either. Recovery codes are not taken here:
 * they are for signing in without the phone, and someone without the phone asks an owner for a
 * reset (`resetTwoFactor`).
 *
 * @module
 */

import type { AccountsContext } from "./accounts.ts";
import { reserveLoginSlot } from "./login_throttle.ts";
import type { Actor } from "./staff.ts";
import {
  NotEnrolledError,
  SecretUnreadableError,
  TwoFactorRequiredError,
  WrongCurrentCodeError,
} from "./two_factor_errors.ts";
import {
  isTotpCode,
  matchingStep,
  newRecoveryCodes,
  openSecret,
  recoveryHash,
  twoFactorKeys,
} from "./two_factor_secrets.ts";

const clock = (ctx: AccountsContext) => ctx.now?.() ?? new Date();

/**
 * Checks `code` against the admin's secret under the login throttle, then runs `change` with the
 * code's time step (it spends the step, and answers false when it was spent meanwhile).
 */
async function withCurrentCode(
  ctx: AccountsContext,
  actor: Actor,
  code: string,
  change: (step: number, at: string) => Promise<boolean>,
): Promise<void> {
  const { admin } = actor;
  const record = await ctx.store.twoFactor.get(admin.id);
  if (record?.enrolledAt == null) throw new NotEnrolledError();
  const now = clock(ctx);
  const slot = await reserveLoginSlot(ctx.store, admin.email, actor.address, now.getTime());
  let done = false;
  try {
    const secret = await openSecret(await twoFactorKeys(ctx.appSecret), admin.id, record.sealedSecret);
    if (secret === null) throw new SecretUnreadableError();
    const step = isTotpCode(code) ? matchingStep(secret, code, now.getTime()) : null;
    done = step !== null && await change(step, now.toISOString());
  } catch (e) {
    // No code was compared: not a failed guess. Best effort; the error that stopped it wins.
    await slot.release().catch(() => {});
    throw e;
  }
  if (!done) throw new WrongCurrentCodeError(); // its throttle slot is kept: a failed guess
  await slot.release();
}

const entry = (
  actor: Actor,
  action: "two-factor-recovery-codes" | "two-factor-disabled",
  changes: object,
) => ({
  action,
  actorId: actor.admin.id,
  actorEmail: actor.admin.email,
  address: actor.address,
  target: actor.admin.id,
  changes: { ...changes },
});

/**
 * Replaces the admin's recovery codes with 10 new ones, shown once (only their keyed hashes are
 * kept); the old ones stop working. Audited `two-factor-recovery-codes` in the same write.
 *
 * @example
 * ```ts
 * const { recoveryCodes } = await replaceRecoveryCodes(ctx, { admin, address }, "123456");
 * ```
 */
export async function replaceRecoveryCodes(
  ctx: AccountsContext,
  actor: Actor,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const keys = await twoFactorKeys(ctx.appSecret);
  const recoveryCodes = newRecoveryCodes();
  const hashes = await Promise.all(recoveryCodes.map(async (c) => (await recoveryHash(keys, c))!));
  const before = (await ctx.store.twoFactor.get(actor.admin.id))?.recoveryHashes.length ?? 0;
  await withCurrentCode(
    ctx,
    actor,
    code,
    (step, at) =>
      ctx.store.twoFactor.replaceRecoveryCodes(actor.admin.id, step, hashes, at, {
        audit: [
          entry(actor, "two-factor-recovery-codes", { recoveryCodes: { from: before, to: hashes.length } }),
        ],
      }),
  );
  return { recoveryCodes };
}

/**
 * Turns the admin's two-factor sign-in off (the password alone signs in again); refused while the
 * museum requires it for everyone. Audited `two-factor-disabled` in the same write.
 *
 * @example
 * ```ts
 * await turnOffTwoFactor(ctx, { admin, address }, "123456");
 * ```
 */
export async function turnOffTwoFactor(ctx: AccountsContext, actor: Actor, code: string): Promise<void> {
  if (await ctx.store.twoFactor.required()) throw new TwoFactorRequiredError();
  await withCurrentCode(
    ctx,
    actor,
    code,
    (step, at) =>
      ctx.store.twoFactor.disable(actor.admin.id, step, at, {
        audit: [entry(actor, "two-factor-disabled", { twoFactor: { from: "set up", to: "none" } })],
      }),
  );
}
