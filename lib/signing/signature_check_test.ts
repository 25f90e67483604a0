import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import {
  BROWSER_KEY_TTL_MS,
  issueBrowserKey,
  parseSigningKeys,
  SignatureError,
  verifySignedPayload,
} from "./signature_check.ts";
import { canonicalString, signPayload } from "@/lib/shared/signing.ts";

const SECRET = "app-secret-for-tests-0123456789abcdef";
const SERVER_KEY = "ab".repeat(32);

Deno.test("canonicalString sorts keys, drops the signature, writes values with String()", () => {
  assert.equal(
    canonicalString({
      userId: "u1",
      amount: 12.5,
      isMonthly: true,
      currency: "nis",
      signature: "x",
      n: null,
    }),
    "amount=12.5&currency=nis&isMonthly=true&n=null&userId=u1",
  );
  assert.equal(canonicalString({ b: 100, a: false }), "a=false&b=100");
});

Deno.test("signed requests: accepted once; every kind of bad request refused with its reason", async (t) => {
  const store = await openStore({ kvPath: ":memory:" });
  const serverKeys = parseSigningKeys(`kiosk-1:${SERVER_KEY}`);
  const options = { appSecret: SECRET, serverKeys, nonces: store.nonces };
  const browserKey = await issueBrowserKey(SECRET);
  const payload = { amount: 100, currency: "nis", userId: "donor-1", isMonthly: false, language: "he" };
  const refused = async (body: unknown, reason: RegExp, opts = options) => {
    await assert.rejects(
      () => verifySignedPayload(body, opts),
      (e) => e instanceof SignatureError && reason.test(e.message),
    );
  };
  try {
    await t.step("a browser key signature is accepted, and a replay refused", async () => {
      const body = await signPayload(payload, browserKey);
      assert.match(browserKey.keyId, /^v1\.\d{13}\.[0-9a-f]{32}$/);
      assert.deepEqual(await verifySignedPayload(body, options), { keyId: browserKey.keyId });
      await refused(body, /already received/);
    });
    await t.step("a server-to-server key works the same way", async () => {
      const body = await signPayload(payload, { keyId: "kiosk-1", key: SERVER_KEY });
      assert.deepEqual(await verifySignedPayload(body, options), { keyId: "kiosk-1" });
    });
    await t.step("a tampered field, a wrong key, an unknown key id", async () => {
      const body = await signPayload(payload, browserKey);
      await refused({ ...body, amount: 1 }, /does not match/);
      await refused({ ...body, extra: "x" }, /does not match/);
      const other = await issueBrowserKey("another-app-secret-0123456789abcdef");
      await refused(
        await signPayload(payload, { keyId: browserKey.keyId, key: other.key }),
        /does not match/,
      );
      await refused(await signPayload(payload, { keyId: "kiosk-2", key: SERVER_KEY }), /unknown/);
      const forgedId = browserKey.keyId.replace(/\.(\d{13})\./, (_, e) => `.${Number(e) - 1}.`);
      await refused(await signPayload(payload, { keyId: forgedId, key: browserKey.key }), /does not match/);
    });
    await t.step("missing and malformed parts", async () => {
      const body = await signPayload(payload, browserKey);
      const without = (key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
      await refused(without("signature"), /signature is missing/);
      await refused({ ...body, signature: "zz" }, /not a hex/);
      await refused(without("keyId"), /keyId is missing/);
      await refused(without("timestamp"), /timestamp is missing/);
      await refused({ ...body, timestamp: "1" }, /timestamp is missing/);
      await refused(without("nonce"), /nonce/);
      await refused({ ...body, nonce: "short" }, /nonce/);
      await refused({ ...body, nested: { a: 1 } }, /not a plain value/);
      await refused("text", /not signed/);
      await refused(null, /not signed/);
      await refused([1], /not signed/);
    });
    await t.step("an expired key and a timestamp more than 5 minutes off", async () => {
      const old = await issueBrowserKey(SECRET, Date.now() - BROWSER_KEY_TTL_MS - 1000);
      await refused(await signPayload(payload, old), /expired/);
      await refused(await signPayload(payload, browserKey, Date.now() - 5 * 60_000 - 1000), /5 minutes/);
      await refused(await signPayload(payload, browserKey, Date.now() + 5 * 60_000 + 1000), /5 minutes/);
      const farFuture = await issueBrowserKey(SECRET, Date.now() + 24 * 3600_000);
      await refused(await signPayload(payload, farFuture), /not valid|does not match/);
    });
  } finally {
    await store.close();
  }
});

Deno.test("parseSigningKeys reads id:hex pairs and refuses bad ones", () => {
  assert.deepEqual(parseSigningKeys(""), new Map());
  assert.deepEqual(parseSigningKeys(undefined), new Map());
  assert.equal(parseSigningKeys(`a:${SERVER_KEY}, b-2:${SERVER_KEY}`).size, 2);
  assert.throws(() => parseSigningKeys("nocolon"), /entry 1 is not id:secret/);
  assert.throws(() => parseSigningKeys("a:short"), /hex of 32 bytes/);
  assert.throws(() => parseSigningKeys(`v1x:${SERVER_KEY}`), /id:secret/);
  assert.throws(() => parseSigningKeys(`a:${SERVER_KEY},a:${SERVER_KEY}`), /twice/);
});
