/**
 * The member card's token: verified with only the public key (as served), the same key on every
 * instance, a tampered or expired token refused.
 */
import assert from "node:assert/strict";
import {
  memberCardKey,
  MemberCardTokenError,
  signMemberCardToken,
  verifyMemberCardToken,
} from "./card_token.ts";

const SECRET = "test-app-secret-for-member-cards-0123456789";
const CLAIMS = {
  number: "M7K2Q9",
  levelId: 2,
  validUntil: "2027-11-29T10:00:00.000Z",
  holder: 1,
  name: "דנה לוי",
};
const NOW = new Date("2026-11-29T10:00:00.000Z");
const isReason = (reason: string) => (e: unknown) => e instanceof MemberCardTokenError && e.reason === reason;

Deno.test("a card's token verifies with only the public key, as JSON from the well-known URL", async () => {
  const key = await memberCardKey(SECRET);
  const token = await signMemberCardToken(key, CLAIMS, 30, NOW);
  // Only what the public document says: no private part, and a round trip through JSON.
  const publicJwk = JSON.parse(JSON.stringify(key.publicJwk));
  assert.deepEqual(Object.keys(publicJwk).sort(), ["alg", "crv", "kid", "kty", "use", "x"]);
  const card = await verifyMemberCardToken(token, publicJwk, NOW);
  assert.deepEqual(
    { ...card, expiresAt: card.expiresAt.toISOString() },
    { ...CLAIMS, validUntil: "2027-11-29", expiresAt: "2027-12-29T10:00:00.000Z" },
  );
});

Deno.test("every instance derives the same card key; another secret another key", async () => {
  const a = await memberCardKey(SECRET);
  const token = await signMemberCardToken(a, CLAIMS, 30, NOW);
  // A second instance: a fresh derivation (not the cached promise) of the same secret.
  const b = await memberCardKey(SECRET + "");
  assert.deepEqual(b.publicJwk, a.publicJwk);
  const other = await memberCardKey("another-secret-another-key-0123456789");
  await assert.rejects(() => verifyMemberCardToken(token, other.publicJwk, NOW), isReason("invalid"));
});

Deno.test("a tampered token is refused", async () => {
  const key = await memberCardKey(SECRET);
  const token = await signMemberCardToken(key, CLAIMS, 30, NOW);
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(
    new TextDecoder().decode(Uint8Array.fromBase64(payload, { alphabet: "base64url" })),
  );
  const forged = new TextEncoder().encode(JSON.stringify({ ...claims, until: "2099-01-01" }))
    .toBase64({ alphabet: "base64url", omitPadding: true });
  await assert.rejects(
    () => verifyMemberCardToken(`${header}.${forged}.${signature}`, key.publicJwk, NOW),
    isReason("invalid"),
  );
  // One character of the signature changed.
  const flipped = signature.slice(0, -2) + (signature.at(-2) === "A" ? "B" : "A") + signature.at(-1);
  await assert.rejects(
    () => verifyMemberCardToken(`${header}.${payload}.${flipped}`, key.publicJwk, NOW),
    isReason("invalid"),
  );
  await assert.rejects(() => verifyMemberCardToken("not a token", key.publicJwk, NOW), isReason("invalid"));
});

Deno.test("an expired token is refused (past the end and its grace), a token in grace is not", async () => {
  const key = await memberCardKey(SECRET);
  const token = await signMemberCardToken(key, CLAIMS, 30, NOW);
  const inGrace = new Date("2027-12-20T10:00:00.000Z");
  assert.deepEqual((await verifyMemberCardToken(token, key.publicJwk, inGrace)).number, "M7K2Q9");
  await assert.rejects(
    () => verifyMemberCardToken(token, key.publicJwk, new Date("2027-12-30T10:00:00.000Z")),
    isReason("expired"),
  );
});
