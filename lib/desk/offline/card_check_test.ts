/**
 * The desk's offline card check against tokens signed by the server's own code
 * (`lib/memberships/card_token.ts`, `jose`): genuine, in grace, expired, tampered, another key.
 */
import assert from "node:assert/strict";
import { memberCardKey, signMemberCardToken } from "@/lib/memberships/card_token.ts";
import { canCheckCardsOffline, checkCardOffline } from "./card_check.ts";

const SECRET = "test-app-secret-for-the-desk-offline-check-0123";
const CLAIMS = {
  number: "7K3M-Q9TD",
  levelId: 2,
  validUntil: "2027-11-29T10:00:00.000Z",
  holder: 1,
  name: "דנה לוי",
};
const SIGNED_AT = new Date("2026-11-29T10:00:00.000Z");

async function signed() {
  const key = await memberCardKey(SECRET);
  // The public key as the browser keeps it: the JSON of the well-known document.
  const jwk = JSON.parse(JSON.stringify(key.publicJwk));
  return { key, jwk, token: await signMemberCardToken(key, CLAIMS, 30, SIGNED_AT) };
}

const CARD = {
  number: "7K3M-Q9TD",
  levelId: 2,
  validUntil: "2027-11-29",
  holder: 1,
  name: "דנה לוי",
  expiresAt: "2027-12-29T10:00:00.000Z",
};

Deno.test("a genuine card is valid through the day it prints, with its level, name and dates", async () => {
  const { jwk, token } = await signed();
  assert.equal(await canCheckCardsOffline(), true);
  assert.deepEqual(await checkCardOffline(token, jwk, SIGNED_AT), { status: "valid", card: CARD });
  // The printed day itself, after the hour the membership ended: still what the card says.
  const lastDay = await checkCardOffline(token, jwk, new Date("2027-11-29T20:00:00.000Z"));
  assert.equal(lastDay.status, "valid");
});

Deno.test("a card past its date and within the grace days is in grace; past them, expired", async () => {
  const { jwk, token } = await signed();
  assert.deepEqual(await checkCardOffline(token, jwk, new Date("2027-11-30T08:00:00.000Z")), {
    status: "grace",
    card: CARD,
  });
  assert.deepEqual(await checkCardOffline(token, jwk, new Date("2027-12-29T09:59:59.000Z")), {
    status: "grace",
    card: CARD,
  });
  assert.deepEqual(await checkCardOffline(token, jwk, new Date("2027-12-29T10:00:00.000Z")), {
    status: "expired",
    card: CARD,
  });
});

Deno.test("a tampered token, a token of another key, or not a card's token, is invalid", async () => {
  const { jwk, token } = await signed();
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(
    new TextDecoder().decode(Uint8Array.fromBase64(payload, { alphabet: "base64url" })),
  );
  const forge = (value: unknown) =>
    new TextEncoder().encode(JSON.stringify(value)).toBase64({ alphabet: "base64url", omitPadding: true });
  const invalid = { status: "invalid" };
  // A later date written into a genuine token.
  assert.deepEqual(
    await checkCardOffline(
      `${header}.${forge({ ...claims, until: "2099-01-01" })}.${signature}`,
      jwk,
      SIGNED_AT,
    ),
    invalid,
  );
  // One character of the signature changed.
  const flipped = signature.slice(0, -2) + (signature.at(-2) === "A" ? "B" : "A") + signature.at(-1);
  assert.deepEqual(await checkCardOffline(`${header}.${payload}.${flipped}`, jwk, SIGNED_AT), invalid);
  // Signed by another museum's (another secret's) key.
  const other = await memberCardKey("another-secret-another-key-0123456789");
  const foreign = await signMemberCardToken(other, CLAIMS, 30, SIGNED_AT);
  assert.deepEqual(await checkCardOffline(foreign, jwk, SIGNED_AT), invalid);
  // Another kind of token in the same key: the typ is not a card's.
  const retyped = forge({ ...JSON.parse(atob(header)), typ: "JWT" });
  assert.deepEqual(await checkCardOffline(`${retyped}.${payload}.${signature}`, jwk, SIGNED_AT), invalid);
  // Not a token at all, and a key that is not one.
  for (const text of ["", "not a token", "a.b.c", "7K3M-Q9TD", `${header}.${payload}`]) {
    assert.deepEqual(await checkCardOffline(text, jwk, SIGNED_AT), invalid, text);
  }
  assert.deepEqual(await checkCardOffline(token, { ...jwk, x: "AAAA" }, SIGNED_AT), invalid);
});

Deno.test("without WebCrypto (a page not on HTTPS) the check says unsupported, not invalid", async () => {
  const { jwk, token } = await signed();
  const subtle = Object.getOwnPropertyDescriptor(Crypto.prototype, "subtle")!;
  Object.defineProperty(Crypto.prototype, "subtle", { configurable: true, get: () => undefined });
  try {
    assert.equal(await canCheckCardsOffline(), false);
    assert.deepEqual(await checkCardOffline(token, jwk, SIGNED_AT), { status: "unsupported" });
  } finally {
    Object.defineProperty(Crypto.prototype, "subtle", subtle);
  }
});
