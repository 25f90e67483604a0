/**
 * The two-factor cryptography (`two_factor_secrets.ts`, `second_factor_token.ts`), with codes
 * computed here by `otpauth` as an authenticator app would: the time step a code belongs to (the
 * neighbours too, nothing further), the sealed secret bound to its account and key, recovery codes
 * and their keyed hashes, and the pending token that no other token passes for.
 *
 * @module
 */
import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import { createAccessToken, deriveKey } from "./tokens.ts";
import { createPendingToken, PENDING_TOKEN_TTL_SECONDS, readPendingToken } from "./second_factor_token.ts";
import {
  canonicalRecoveryCode,
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

const SECRET_A = "app-secret-a-that-is-long-enough-0123456789";
const SECRET_B = "app-secret-b-that-is-long-enough-0123456789";
const NOW = Date.parse("2026-11-24T12:00:10Z");
const STEP = Math.floor(NOW / 30_000);
const code = (secret: string, at: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at });

Deno.test("TOTP: a code matches its own time step and its neighbours, nothing further", () => {
  const secret = newTotpSecret();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.equal(matchingStep(secret, code(secret, NOW), NOW), STEP);
  assert.equal(matchingStep(secret, code(secret, NOW - 30_000), NOW), STEP - 1);
  assert.equal(matchingStep(secret, code(secret, NOW + 30_000), NOW), STEP + 1);
  const far = code(secret, NOW + 5 * 60_000);
  const near = [-1, 0, 1].map((d) => code(secret, NOW + d * 30_000));
  if (!near.includes(far)) assert.equal(matchingStep(secret, far, NOW), null);
  // Another secret's code (a one-in-a-million coincidence aside) is not this one's.
  assert.notEqual(matchingStep(newTotpSecret(), code(secret, NOW), NOW), STEP);
  const spaced = code(secret, NOW).replace(/^(\d{3})/, "$1 ");
  assert.equal(matchingStep(secret, spaced, NOW), STEP, "a space in the middle is fine");
  for (const bad of ["", "12345", "1234567", "abcdef", "12-456"]) {
    assert.equal(matchingStep(secret, bad, NOW), null);
  }
  assert.ok(isTotpCode("123 456") && !isTotpCode("7K2QM-ZP4XA"));
  const uri = totpOf(secret, "donate.museum.org", "ana@museum.org").toString();
  assert.match(uri, /^otpauth:\/\/totp\/donate\.museum\.org:ana%40museum\.org\?/);
  assert.equal(new URL(uri).searchParams.get("secret"), secret);
});

Deno.test("the sealed secret opens only for its account under its APP_SECRET, and hides it", async () => {
  const [a, b] = [await twoFactorKeys(SECRET_A), await twoFactorKeys(SECRET_B)];
  const secret = newTotpSecret();
  const sealed = await sealSecret(a, "adm_1", secret);
  assert.ok(!sealed.includes(secret));
  assert.notEqual(await sealSecret(a, "adm_1", secret), sealed, "a new IV each time");
  assert.equal(await openSecret(a, "adm_1", sealed), secret);
  assert.equal(await openSecret(a, "adm_2", sealed), null, "moved onto another account");
  assert.equal(await openSecret(b, "adm_1", sealed), null, "another APP_SECRET");
  assert.equal(await openSecret(a, "adm_1", sealed.slice(0, -4) + "AAAA"), null, "changed");
  assert.equal(await openSecret(a, "adm_1", "v2.x.y"), null);
});

Deno.test("recovery codes: 10 distinct, typed in any case with or without the dash, hashed with a key", async () => {
  const codes = newRecoveryCodes();
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  for (const c of codes) assert.match(c, /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  const keys = await twoFactorKeys(SECRET_A);
  const hash = await recoveryHash(keys, codes[0]);
  assert.match(hash!, /^[0-9a-f]{64}$/);
  assert.equal(await recoveryHash(keys, ` ${codes[0].toLowerCase().replace("-", "")} `), hash);
  assert.notEqual(await recoveryHash(await twoFactorKeys(SECRET_B), codes[0]), hash, "keyed by APP_SECRET");
  assert.notEqual(await recoveryHash(keys, codes[1]), hash);
  for (const bad of ["", "7K2QM", "7K2QM-ZP4XAA", "OOOOO-IIIII", "123456"]) {
    assert.equal(canonicalRecoveryCode(bad), null, bad);
    assert.equal(await recoveryHash(keys, bad), null);
  }
});

Deno.test("pending token: good for its admin for 5 minutes, under its own key and type only", async () => {
  const at = new Date(NOW);
  const { token, expiresAt } = await createPendingToken(SECRET_A, "adm_1", at);
  assert.equal(expiresAt, new Date(NOW + PENDING_TOKEN_TTL_SECONDS * 1000).toISOString());
  assert.equal(await readPendingToken(SECRET_A, token, at), "adm_1");
  assert.equal(await readPendingToken(SECRET_A, token, new Date(NOW + 299_000)), "adm_1");
  assert.equal(await readPendingToken(SECRET_A, token, new Date(NOW + 301_000)), null, "expired");
  assert.equal(await readPendingToken(SECRET_B, token, at), null, "another APP_SECRET");
  assert.equal(await readPendingToken(SECRET_A, token.slice(0, -2) + "xx", at), null, "changed");
  assert.equal(await readPendingToken(SECRET_A, "not.a.token", at), null);
  const access = await createAccessToken(await deriveKey(SECRET_A, "admin-access-token/v1"), {
    adminId: "adm_1",
  }, at);
  assert.equal(await readPendingToken(SECRET_A, access, at), null, "an access token is no pending token");
});
