import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { SignJWT } from "jose";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUDIENCE,
  createAccessToken,
  deriveKey,
  hashRefreshToken,
  ISSUER,
  newRefreshToken,
  REFRESH_TOKEN_TTL_DAYS,
  TOKEN_TYPE,
  TokenError,
  verifyAccessToken,
} from "./tokens.ts";

const SECRET = "test-secret-0123456789abcdef0123456789abcdef";
const NOW = new Date("2030-01-01T12:00:00Z");
const key = await deriveKey(SECRET, "admin-access-token/v1");

function b64url(text: string): string {
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function payload(token: string): Record<string, unknown> {
  const part = token.split(".")[1].replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(atob(part));
}

/** A token like ours, signed by `signKey`, with one thing changed by `change`. */
function forge(change: (jwt: SignJWT) => SignJWT, alg = "HS256", typ = TOKEN_TYPE, signKey = key) {
  const iat = Math.floor(NOW.getTime() / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg, typ })
    .setSubject("adm_1")
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 900)
    .setJti("j1");
  return change(jwt).sign(signKey);
}

async function assertRefused(token: string, reason: "expired" | "invalid", now = NOW) {
  await assert.rejects(verifyAccessToken(token, key, now), (e: unknown) => {
    assert.ok(e instanceof TokenError, String(e));
    assert.equal(e.reason, reason);
    // Nothing of jose's message reaches the caller.
    assert.equal(e.message, reason === "expired" ? "Access token expired" : "Access token invalid");
    assert.equal(e.cause, undefined);
    return true;
  });
}

Deno.test("constants", () => {
  assert.equal(ACCESS_TOKEN_TTL_SECONDS, 900);
  assert.equal(REFRESH_TOKEN_TTL_DAYS, 14);
  assert.equal(ISSUER, "museum-donations");
  assert.equal(AUDIENCE, "museum-donations/admin-api");
  assert.equal(TOKEN_TYPE, "at+jwt");
});

Deno.test("deriveKey is HMAC-SHA256(secret, purpose), one independent key per purpose", async () => {
  const expected = createHmac("sha256", SECRET).update("admin-access-token/v1").digest();
  assert.deepEqual(key, new Uint8Array(expected));
  assert.equal(key.length, 32);
  assert.deepEqual(await deriveKey(SECRET, "admin-access-token/v1"), key);
  assert.notDeepEqual(await deriveKey(SECRET, "request-signing/v1"), key);
  assert.notDeepEqual(await deriveKey(SECRET + "x", "admin-access-token/v1"), key);
  await assert.rejects(deriveKey("", "p"));
  await assert.rejects(deriveKey(SECRET, ""));
});

Deno.test("access token round-trip", async () => {
  const token = await createAccessToken(key, { adminId: "adm_42" }, NOW);
  const [header] = token.split(".");
  assert.deepEqual(JSON.parse(atob(header.replaceAll("-", "+").replaceAll("_", "/"))), {
    alg: "HS256",
    typ: "at+jwt",
  });
  const claims = payload(token);
  const iat = NOW.getTime() / 1000;
  assert.equal(claims.sub, "adm_42");
  assert.equal(claims.iss, ISSUER);
  assert.equal(claims.aud, AUDIENCE);
  assert.equal(claims.iat, iat);
  assert.equal(claims.exp, iat + 900);
  assert.equal(typeof claims.jti, "string");
  const verified = await verifyAccessToken(token, key, NOW);
  assert.deepEqual(verified, { adminId: "adm_42", expiresAt: new Date(NOW.getTime() + 900_000) });
  // Still good near the end, within the clock tolerance.
  await verifyAccessToken(token, key, new Date(NOW.getTime() + 904_000));
  const other = await createAccessToken(key, { adminId: "adm_42" }, NOW);
  assert.notEqual(payload(other).jti, claims.jti);
});

Deno.test("an expired token is refused as expired", async () => {
  const token = await createAccessToken(key, { adminId: "adm_1" }, NOW);
  await assertRefused(token, "expired", new Date(NOW.getTime() + 906_000));
  await assertRefused(token, "expired", new Date(NOW.getTime() + 86_400_000));
});

Deno.test("a token signed with another key is invalid, even when also expired", async () => {
  const otherKey = await deriveKey("another-secret-0123456789abcdef0123456789", "admin-access-token/v1");
  const token = await createAccessToken(otherKey, { adminId: "adm_1" }, NOW);
  await assertRefused(token, "invalid");
  await assertRefused(token, "invalid", new Date(NOW.getTime() + 86_400_000));
  // A key for another purpose of the same secret does not verify access tokens.
  const sibling = await deriveKey(SECRET, "request-signing/v1");
  await assertRefused(await createAccessToken(sibling, { adminId: "adm_1" }, NOW), "invalid");
});

Deno.test("alg none is refused", async () => {
  const iat = NOW.getTime() / 1000;
  const header = b64url(JSON.stringify({ alg: "none", typ: "at+jwt" }));
  const body = b64url(
    JSON.stringify({ sub: "adm_1", iss: ISSUER, aud: AUDIENCE, iat, exp: iat + 900, jti: "j" }),
  );
  await assertRefused(`${header}.${body}.`, "invalid");
  // Same with the signature of a real token pasted on.
  const real = await createAccessToken(key, { adminId: "adm_1" }, NOW);
  await assertRefused(`${header}.${body}.${real.split(".")[2]}`, "invalid");
});

Deno.test("another algorithm with the same key is refused", async () => {
  await assertRefused(await forge((j) => j, "HS512"), "invalid");
  await assertRefused(await forge((j) => j, "HS384"), "invalid");
  // The forge helper itself makes an acceptable token when nothing is changed.
  assert.equal((await verifyAccessToken(await forge((j) => j), key, NOW)).adminId, "adm_1");
});

Deno.test("wrong issuer, audience or type is refused", async () => {
  await assertRefused(await forge((j) => j.setIssuer("someone-else")), "invalid");
  await assertRefused(await forge((j) => j.setAudience("museum-donations/other-api")), "invalid");
  await assertRefused(await forge((j) => j, "HS256", "JWT"), "invalid");
  await assertRefused(await forge((j) => j, "HS256", "refresh+jwt"), "invalid");
});

Deno.test("a correctly signed token without sub, or with an empty one, is refused", async () => {
  const iat = Math.floor(NOW.getTime() / 1000);
  const noSub = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: TOKEN_TYPE })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 900)
    .setJti("j1")
    .sign(key);
  await assertRefused(noSub, "invalid");
  await assertRefused(await forge((j) => j.setSubject("")), "invalid");
});

Deno.test("a token issued in the future or living longer than 15 minutes is refused", async () => {
  const future = await createAccessToken(key, { adminId: "adm_1" }, new Date(NOW.getTime() + 3_600_000));
  await assertRefused(future, "invalid");
  const iat = Math.floor(NOW.getTime() / 1000);
  const longLived = await forge((j) => j.setExpirationTime(iat + 86_400));
  await verifyAccessToken(longLived, key, NOW);
  await assertRefused(longLived, "expired", new Date(NOW.getTime() + 3_600_000));
});

Deno.test("garbage is refused as invalid", async () => {
  const real = await createAccessToken(key, { adminId: "adm_1" }, NOW);
  const [h, p, s] = real.split(".");
  for (
    const garbage of [
      "",
      "abc",
      "a.b.c",
      "...",
      "Bearer " + real,
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}.${p}.${s.slice(0, -2)}`,
      `${h}.${b64url('{"sub":"adm_2"}')}.${s}`,
      "x".repeat(10_000),
    ]
  ) {
    await assertRefused(garbage, "invalid");
  }
});

Deno.test("refresh tokens: 43 base64url characters, unique, hashed to 64 hex consistently", async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const { token, hash } = await newRefreshToken();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(await hashRefreshToken(token), hash);
    assert.equal(seen.has(token), false);
    seen.add(token);
  }
  const expected = Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("abc"))),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  assert.equal(await hashRefreshToken("abc"), expected);
  assert.equal(
    await hashRefreshToken("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
});
