/**
 * Two-factor set-ups for tests that call every route (the auth matrix): an admin with two-factor
 * to reset, a valid code step to sign in with, the code of a set-up begun through the API. Codes
 * are computed with `otpauth`, as an authenticator app would.
 *
 * @module
 */
import * as OTPAuth from "otpauth";
import { newId } from "@/lib/core/ids.ts";
import { createPendingToken } from "@/lib/staff/second_factor_token.ts";
import { newTotpSecret, sealSecret, twoFactorKeys } from "@/lib/staff/two_factor_secrets.ts";
import type { Store } from "@/lib/storage/types.ts";

/** The code an authenticator app with `secret` shows `offsetMs` from now. */
export const totpCode = (secret: string, offsetMs = 0): string =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetMs,
  });

/**
 * The next code an authenticator app with `secret` may give, each call a later time step than the
 * last (the app refuses a step spent before) and one the server accepts for at least 10 s more (its
 * window is one step either side of its clock's): the step before the current one while that
 * lasts, else the current one, or the one after the last given; when that is too far ahead it waits
 * for the clock. Codes computed from one fixed instant failed when a slow test crossed a 30 s
 * boundary before using them.
 *
 * @example
 * ```ts
 * const next = codeSequence(secret);
 * await page.fill("#code", await next()); // sign in
 * await page.fill("#code", await next()); // a later step: new recovery codes
 * ```
 */
export function codeSequence(secret: string): () => Promise<string> {
  let last = -Infinity;
  return async () => {
    for (;;) {
      const now = Date.now();
      const current = Math.floor(now / 30_000);
      // A step is accepted while the server's is within one of it: `step` until the end of step + 1.
      let step = Math.max(last + 1, current - 1);
      if ((step + 2) * 30_000 - now < 10_000) step = Math.max(last + 1, current);
      if (step <= current + 1) {
        last = step;
        // The middle of the step, whatever the milliseconds until it is generated.
        return totpCode(secret, step * 30_000 + 15_000 - Date.now());
      }
      // Three steps spent within one: the next is accepted once the clock reaches the next step.
      await new Promise((r) => setTimeout(r, (current + 1) * 30_000 - now + 50));
    }
  };
}

/** Gives admin `id` a confirmed two-factor (a secret nobody knows); answers `id`. */
export async function twoFactorTarget(store: Store, id: string): Promise<string> {
  const at = new Date().toISOString();
  await store.twoFactor.begin(id, "sealed-for-a-test", at);
  await store.twoFactor.confirm(id, "sealed-for-a-test", ["0".repeat(64)], 0, at);
  return id;
}

let signer: { id: string; secret: string; calls: number } | null = null;

/**
 * A valid `POST /api/auth/admin/two-factor/verify` body: an approved admin with two-factor (made at
 * the first call), a pending token, and a code of a later time step at each call (the codes of 30 s
 * ago, now and in 30 s, then later ones: each accepted once, in increasing order).
 */
export async function twoFactorVerifyBody(
  store: Store,
  appSecret: string,
): Promise<{ pendingToken: string; code: string }> {
  if (!signer) {
    const id = newId();
    const at = new Date().toISOString();
    await store.admins.create({
      id,
      email: `two-factor-${id.toLowerCase()}@museum.org`,
      name: "Two Factor",
      passwordHash: "$argon2id$not-a-real-hash",
      status: "approved",
      role: "admin",
      createdAt: at,
      decidedBy: null,
      decidedAt: null,
    });
    const secret = newTotpSecret();
    const sealed = await sealSecret(await twoFactorKeys(appSecret), id, secret);
    await store.twoFactor.begin(id, sealed, at);
    await store.twoFactor.confirm(id, sealed, ["0".repeat(64)], 0, at);
    signer = { id, secret, calls: 0 };
  }
  const code = totpCode(signer.secret, (signer.calls++ - 1) * 30_000);
  return { pendingToken: (await createPendingToken(appSecret, signer.id)).token, code };
}

/**
 * Gives admin `id` a fresh confirmed two-factor (replacing any; no time step spent yet) and
 * answers its secret, from which a test computes the app's codes ({@link totpCode}).
 */
export async function enrolWithSecret(store: Store, appSecret: string, id: string): Promise<string> {
  const at = new Date().toISOString();
  const secret = newTotpSecret();
  const sealed = await sealSecret(await twoFactorKeys(appSecret), id, secret);
  await store.twoFactor.reset(id, at);
  await store.twoFactor.begin(id, sealed, at);
  await store.twoFactor.confirm(id, sealed, ["0".repeat(64)], 0, at);
  return secret;
}

/**
 * Gives admin `id` a fresh confirmed two-factor and answers the current code of its app: what the
 * calls that manage one's own two-factor ask for.
 */
export async function enrolledCode(store: Store, appSecret: string, id: string): Promise<string> {
  return totpCode(await enrolWithSecret(store, appSecret, id));
}
