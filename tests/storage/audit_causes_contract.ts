/**
 * The storage contract for the staff actions that write their audit entry in their own atomic step
 * (issue 16): a sign-in's refresh token, a receipt resent (an outbox message), a kiosk pairing code
 * and a revocation, an owner's flag switch. Each entry is stored exactly when its action is: once
 * with it, never when the action did not happen (a key already queued, a revoked or unknown
 * device, a flag no longer at the value the owner saw).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuditInput, Store } from "@/lib/storage/types.ts";
import { deviceFixture } from "./kiosk_devices_contract.ts";
import { at, tokenFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore } from "./support.ts";

const entry = (action: AuditInput["action"], actorId: string, target: string | null = null): AuditInput => ({
  action,
  actorId,
  actorEmail: "owner@museum.example",
  address: "203.0.113.7",
  target,
  changes: { n: 1 },
});

/** The actor's entries, oldest first, as [action, target, at]. */
async function logOf(store: Store, actorId: string): Promise<[string, string | null, string][]> {
  return (await store.audit.list({ actorId }, 100)).reverse().map((e) => [e.action, e.target, e.at]);
}

/** The contract of the audited causes. */
export async function auditCausesContract(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step(
    "audit causes: a sign-in's entry is stored with its refresh token",
    () =>
      withStore(open, async (store) => {
        const actor = uid("admin");
        const token = tokenFixture({ adminId: actor, createdAt: at(5) });
        await store.refreshTokens.create(token, { audit: [entry("sign-in", actor, actor)] });
        assert.ok(await store.refreshTokens.get(token.hash));
        assert.deepEqual(await logOf(store, actor), [["sign-in", actor, at(5)]]);
        // A token that cannot be stored (its hash exists) writes no entry either.
        await assert.rejects(store.refreshTokens.create(token, { audit: [entry("sign-in", actor, actor)] }));
        assert.equal((await logOf(store, actor)).length, 1);
      }),
  );

  await t.step(
    "audit causes: a message's entry only when the message is new; at most 10 then",
    () =>
      withStore(open, async (store) => {
        const actor = uid("admin");
        const tx = uid("tx");
        const message = {
          key: `receipt:${tx}:resend:1`,
          kind: "receipt" as const,
          to: { donorId: uid("donor") },
          language: "en",
          data: { transactionId: tx },
        };
        const audit = [entry("receipt-resent", actor, tx)];
        assert.equal(await store.outbox.enqueue([message], at(10), { audit }), 1);
        assert.equal(await store.outbox.enqueue([message], at(11), { audit }), 0);
        assert.deepEqual(await logOf(store, actor), [["receipt-resent", tx, at(10)]]);
        const many = Array.from({ length: 11 }, (_, i) => ({ ...message, key: `${message.key}:${i}` }));
        await assert.rejects(store.outbox.enqueue(many, at(12), { audit }), RangeError);
        assert.equal((await logOf(store, actor)).length, 1);
      }),
  );

  await t.step(
    "audit causes: a pairing code's and a revocation's entries, only when they happen",
    () =>
      withStore(open, async (store) => {
        const actor = uid("admin");
        const device = deviceFixture();
        await store.kioskDevices.create(device);
        const code = (audit: AuditInput[], ms: number, id = device.id) =>
          store.kioskDevices.setPairingCode(id, uid("hash"), at(ms + 60_000), { audit, at: at(ms) });
        assert.ok(await code([entry("kiosk-paired", actor, device.id)], 20));
        assert.equal(await code([entry("kiosk-paired", actor, "nobody")], 21, uid("kiosk")), null);
        const revoke = (ms: number) =>
          store.kioskDevices.revoke(device.id, at(ms), { audit: [entry("kiosk-revoked", actor, device.id)] });
        assert.equal((await revoke(30))?.revokedAt, at(30));
        assert.equal((await revoke(31))?.revokedAt, at(30), "revoking again keeps the first time");
        assert.equal(await code([entry("kiosk-paired", actor, device.id)], 32), null, "a revoked device");
        assert.deepEqual(await logOf(store, actor), [
          ["kiosk-paired", device.id, at(20)],
          ["kiosk-revoked", device.id, at(30)],
        ]);
      }),
  );

  await t.step(
    "audit causes: a flag switch lands only from the value seen, with its entry",
    () =>
      withStore(open, async (store) => {
        const actor = uid("admin");
        const flag = `AUDITED_${uid("f").replaceAll("-", "_")}`;
        const audit = [entry("flag-changed", actor, flag)];
        const created = await store.flags.change(flag, true, null, at(40), { audit });
        assert.deepEqual(created, { flag, enabled: true, updatedAt: at(40) });
        assert.equal(await store.flags.change(flag, false, null, at(41), { audit }), null, "it exists now");
        assert.equal(await store.flags.change(flag, false, false, at(42), { audit }), null, "it is on");
        const off = await store.flags.change(flag, false, true, at(43), { audit });
        assert.deepEqual(off, { flag, enabled: false, updatedAt: at(43) });
        assert.deepEqual(await store.flags.get(flag), off);
        // Two switches from the same value at once: one lands, one entry.
        const both = await Promise.all([
          store.flags.change(flag, true, false, at(44), { audit }),
          store.flags.change(flag, true, false, at(45), { audit }),
        ]);
        assert.equal(both.filter((f) => f !== null).length, 1);
        assert.deepEqual(
          (await logOf(store, actor)).map(([action]) => action),
          Array(3).fill("flag-changed"),
        );
      }),
  );
}
