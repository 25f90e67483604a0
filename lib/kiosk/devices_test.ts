/** Pairing codes as staff type them, and the refusals of a sale without a usable device. */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import { authoriseKioskSale, hashSecret, normalizePairingCode } from "./devices.ts";
import { KioskDeviceRequiredError } from "./errors.ts";

Deno.test("normalizePairingCode: case, spaces and dashes do not matter; O, I and L read as 0 and 1", () => {
  assert.equal(normalizePairingCode("abcd-efgh-jk01"), "ABCDEFGHJK01");
  assert.equal(normalizePairingCode(" ABCD EFGH JKOl "), "ABCDEFGHJK01");
  assert.equal(normalizePairingCode("ABCD-EFGH-JK0"), null, "too short");
  assert.equal(normalizePairingCode("ABCD-EFGH-JK0U"), null, "U is not in the alphabet");
  assert.equal(normalizePairingCode("x".repeat(65)), null);
});

Deno.test("authoriseKioskSale: not paired, revoked, another shop; a good one is touched", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const credential = "cd".repeat(32);
    const base = {
      id: "device-0000000000000000",
      name: "Hall",
      shopNumber: "12",
      terminalId: "sim-12",
      createdBy: "admin",
      createdAt: "2026-01-01T00:00:00.000Z",
      pairingCodeHash: null,
      pairingExpiresAt: null,
      credentialHash: await hashSecret(credential),
      pairedAt: "2026-01-01T00:00:00.000Z",
      lastUsedAt: null,
      revokedAt: null,
    };
    await store.kioskDevices.create(base);
    const reason = (p: Promise<unknown>) =>
      p.then(() => "ok", (e) => e instanceof KioskDeviceRequiredError ? e.reason : `other: ${e}`);
    assert.equal(await reason(authoriseKioskSale(store, null, "12")), "not-paired");
    assert.equal(await reason(authoriseKioskSale(store, "not-hex", "12")), "not-paired");
    assert.equal(await reason(authoriseKioskSale(store, "ef".repeat(32), "12")), "not-paired");
    assert.equal(await reason(authoriseKioskSale(store, credential, "13")), "wrong-shop");
    const now = new Date("2026-02-01T00:00:00.000Z");
    assert.equal((await authoriseKioskSale(store, credential, "12", now)).id, base.id);
    assert.equal((await store.kioskDevices.get(base.id))?.lastUsedAt, now.toISOString());
    await store.kioskDevices.revoke(base.id, now.toISOString());
    assert.equal(await reason(authoriseKioskSale(store, credential, "12")), "revoked");
  } finally {
    await store.close();
  }
});
