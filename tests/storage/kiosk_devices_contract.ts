/**
 * The storage contract for kiosk devices (`store.kioskDevices`): created and listed, given a
 * pairing code that works once and only until it expires, found by their credential, touched at
 * most once per interval, revoked for good; of concurrent uses of one code exactly one pairs.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { KioskDevice } from "@/lib/storage/types.ts";
import { at, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** A new device, unpaired, with no code. */
export function deviceFixture(overrides: Partial<KioskDevice> = {}): KioskDevice {
  return {
    id: uid("kiosk"),
    name: "Entrance hall",
    shopNumber: "12",
    terminalId: "sim-12",
    createdBy: uid("admin"),
    createdAt: at(0),
    pairingCodeHash: null,
    pairingExpiresAt: null,
    credentialHash: null,
    pairedAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** The contract of `store.kioskDevices`. */
export async function kioskDevicesContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "kioskDevices: create, get, list newest first; a duplicate id is refused",
    () =>
      withStore(open, async (store) => {
        const first = deviceFixture({ createdAt: at(1000) });
        const second = deviceFixture({ createdAt: at(2000), name: "Shop" });
        await store.kioskDevices.create(first);
        await store.kioskDevices.create(second);
        assert.deepEqual(await store.kioskDevices.get(first.id), first);
        assert.deepEqual(await store.kioskDevices.get(uid("nobody")), null);
        const listed = (await store.kioskDevices.list()).filter((d) =>
          d.id === first.id || d.id === second.id
        );
        assert.deepEqual(listed, [second, first]);
        await assert.rejects(() => store.kioskDevices.create({ ...first, name: "again" }));
        assert.deepEqual((await store.kioskDevices.get(first.id))?.name, "Entrance hall");
      }),
  );

  await t.step(
    "kioskDevices: a pairing code pairs once, before it expires; a new code replaces it",
    () =>
      withStore(open, async (store) => {
        const device = deviceFixture();
        await store.kioskDevices.create(device);
        const code = uid("code"), credential = uid("cred");
        const withCode = await store.kioskDevices.setPairingCode(device.id, code, at(15 * 60_000));
        assert.deepEqual(withCode?.pairingCodeHash, code);
        assert.deepEqual(await store.kioskDevices.setPairingCode(uid("nobody"), uid("code"), at(1)), null);
        // Expired (expiresAt <= now) does not pair, and leaves the code as it was.
        assert.deepEqual(await store.kioskDevices.pair(code, credential, at(15 * 60_000)), null);
        // A code replaced by a newer one no longer pairs.
        const newer = uid("code");
        await store.kioskDevices.setPairingCode(device.id, newer, at(20 * 60_000));
        assert.deepEqual(await store.kioskDevices.pair(code, credential, at(1000)), null);
        const paired = await store.kioskDevices.pair(newer, credential, at(1000));
        assert.deepEqual(paired, {
          ...device,
          credentialHash: credential,
          pairedAt: at(1000),
          lastUsedAt: at(1000),
        });
        assert.deepEqual(await store.kioskDevices.get(device.id), paired);
        // Single use.
        assert.deepEqual(await store.kioskDevices.pair(newer, uid("cred"), at(2000)), null);
        assert.deepEqual(await store.kioskDevices.byCredential(credential), paired);
        assert.deepEqual(await store.kioskDevices.byCredential(uid("cred")), null);
        // Re-pairing replaces the credential: the old one finds nothing.
        const again = uid("code"), next = uid("cred");
        await store.kioskDevices.setPairingCode(device.id, again, at(30 * 60_000));
        assert.deepEqual((await store.kioskDevices.pair(again, next, at(3000)))?.credentialHash, next);
        assert.deepEqual(await store.kioskDevices.byCredential(credential), null);
        assert.deepEqual((await store.kioskDevices.byCredential(next))?.id, device.id);
      }),
  );

  await t.step(
    "kioskDevices: touch() writes at most once per interval",
    () =>
      withStore(open, async (store) => {
        const device = deviceFixture();
        await store.kioskDevices.create(device);
        await store.kioskDevices.touch(device.id, at(10_000), 60_000);
        assert.deepEqual((await store.kioskDevices.get(device.id))?.lastUsedAt, at(10_000));
        await store.kioskDevices.touch(device.id, at(69_999), 60_000);
        assert.deepEqual((await store.kioskDevices.get(device.id))?.lastUsedAt, at(10_000));
        await store.kioskDevices.touch(device.id, at(70_000), 60_000);
        assert.deepEqual((await store.kioskDevices.get(device.id))?.lastUsedAt, at(70_000));
        await store.kioskDevices.touch(uid("nobody"), at(70_000), 60_000);
      }),
  );

  await t.step(
    "kioskDevices: revoke() keeps the first time, ends the code, and forbids a new one",
    () =>
      withStore(open, async (store) => {
        const credential = uid("cred"), code = uid("code");
        const device = deviceFixture({ credentialHash: credential, pairedAt: at(0) });
        await store.kioskDevices.create(device);
        await store.kioskDevices.setPairingCode(device.id, code, at(60_000));
        const revoked = await store.kioskDevices.revoke(device.id, at(1000));
        assert.deepEqual(revoked, { ...device, revokedAt: at(1000) });
        assert.deepEqual((await store.kioskDevices.revoke(device.id, at(2000)))?.revokedAt, at(1000));
        assert.deepEqual(await store.kioskDevices.revoke(uid("nobody"), at(2000)), null);
        assert.deepEqual(await store.kioskDevices.pair(code, uid("cred"), at(1500)), null);
        assert.deepEqual(await store.kioskDevices.setPairingCode(device.id, uid("code"), at(60_000)), null);
        // Still found by its credential, so the caller can say it was revoked.
        assert.deepEqual((await store.kioskDevices.byCredential(credential))?.revokedAt, at(1000));
      }),
  );

  await t.step(
    "kioskDevices: 10 concurrent uses of one code (two instances): exactly one pairs",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const device = deviceFixture();
        const code = uid("code");
        await a.kioskDevices.create(device);
        await a.kioskDevices.setPairingCode(device.id, code, at(60_000));
        const results = await race(
          a,
          b,
          10,
          (store, i) => store.kioskDevices.pair(code, `cred-${i}`, at(1000)),
        );
        const winners = results.filter((r) => r !== null);
        assert.deepEqual(winners.length, 1);
        assert.deepEqual((await b.kioskDevices.get(device.id))?.credentialHash, winners[0]!.credentialHash);
      }),
  );
}
