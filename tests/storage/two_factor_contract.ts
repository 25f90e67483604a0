/**
 * The storage contract for the staff's two-factor sign-in (`store.twoFactor`): an enrolment begun,
 * confirmed once with its own secret (with its audit entry in the same step), each time step and
 * each recovery code accepted once even when used at once from two instances, new recovery codes
 * and turning off on the admin's own request (each spending a fresh time step, once, audited), a
 * reset that removes everything (audited), the museum-wide requirement (audited only when it changes), bad input refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuditInput } from "@/lib/storage/types.ts";
import { at, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

const hex = (n: number) => n.toString(16).padStart(64, "0");
const HASHES = Array.from({ length: 10 }, (_, i) => hex(i + 1));

const entry = (action: AuditInput["action"], target: string): AuditInput => ({
  action,
  actorId: target,
  actorEmail: "staff@museum.example",
  address: "203.0.113.7",
  target,
});

/** The contract of `store.twoFactor`. */
export async function twoFactorContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "twoFactor: begin, confirm once with its own secret and its audit entry",
    () =>
      withStore(open, async (store) => {
        const id = uid("admin");
        assert.equal(await store.twoFactor.get(id), null);
        assert.deepEqual(await store.twoFactor.state(id), { required: false, enrolled: false });
        assert.equal(await store.twoFactor.begin(id, "sealed-1", at(0)), true);
        assert.equal(
          await store.twoFactor.begin(id, "sealed-2", at(1)),
          true,
          "a new start replaces one unconfirmed",
        );
        assert.deepEqual(await store.twoFactor.get(id), {
          adminId: id,
          sealedSecret: "sealed-2",
          enrolledAt: null,
          recoveryHashes: [],
          lastStep: 0,
          updatedAt: at(1),
        });
        assert.equal(
          await store.twoFactor.confirm(id, "sealed-1", HASHES, 100, at(2), {
            audit: [entry("two-factor-enrolled", id)],
          }),
          null,
          "the secret of an earlier start does not confirm",
        );
        assert.equal((await store.audit.list({ actorId: id }, 10)).length, 0, "no entry without the change");
        const confirmed = await store.twoFactor.confirm(id, "sealed-2", HASHES, 100, at(3), {
          audit: [entry("two-factor-enrolled", id)],
        });
        assert.deepEqual(confirmed, {
          adminId: id,
          sealedSecret: "sealed-2",
          enrolledAt: at(3),
          recoveryHashes: HASHES,
          lastStep: 100,
          updatedAt: at(3),
        });
        assert.deepEqual(await store.twoFactor.get(id), confirmed);
        assert.deepEqual(await store.twoFactor.state(id), { required: false, enrolled: true });
        const entries = await store.audit.list({ actorId: id }, 10);
        assert.deepEqual(entries.map((e) => [e.action, e.at, e.target]), [[
          "two-factor-enrolled",
          at(3),
          id,
        ]]);
        assert.equal(
          await store.twoFactor.confirm(id, "sealed-2", HASHES, 101, at(4), {
            audit: [entry("two-factor-enrolled", id)],
          }),
          null,
          "confirmed once",
        );
        assert.equal(
          await store.twoFactor.begin(id, "sealed-3", at(5)),
          false,
          "an enrolled admin is not restarted",
        );
        assert.equal((await store.twoFactor.get(id))?.sealedSecret, "sealed-2");
        assert.equal((await store.audit.list({ actorId: id }, 10)).length, 1);
      }),
  );

  await t.step(
    "twoFactor: a time step and a recovery code are good once, even at once on two instances",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const id = uid("admin");
        assert.equal(await a.twoFactor.useStep(id, 5, at(0)), false, "no record");
        await a.twoFactor.begin(id, "sealed", at(0));
        assert.equal(await a.twoFactor.useStep(id, 5, at(0)), false, "not confirmed yet");
        assert.equal(await a.twoFactor.useRecoveryCode(id, HASHES[0], at(0)), false, "not confirmed yet");
        await a.twoFactor.confirm(id, "sealed", HASHES, 100, at(1));
        assert.equal(await a.twoFactor.useStep(id, 100, at(2)), false, "the confirming step is spent");
        assert.equal(await a.twoFactor.useStep(id, 99, at(2)), false, "an earlier step is refused");
        const steps = await race(a, b, 6, (s) => s.twoFactor.useStep(id, 101, at(3)));
        assert.equal(steps.filter(Boolean).length, 1, "one of six uses of one step");
        assert.equal((await b.twoFactor.get(id))?.lastStep, 101);
        assert.equal(await b.twoFactor.useStep(id, 103, at(4)), true);
        assert.equal(await a.twoFactor.useStep(id, 102, at(4)), false, "behind the last accepted");
        const codes = await race(a, b, 6, (s) => s.twoFactor.useRecoveryCode(id, HASHES[3], at(5)));
        assert.equal(codes.filter(Boolean).length, 1, "one of six uses of one code");
        assert.equal(await a.twoFactor.useRecoveryCode(id, hex(999), at(5)), false, "an unknown code");
        const left = (await a.twoFactor.get(id))?.recoveryHashes;
        assert.deepEqual(left, HASHES.filter((h) => h !== HASHES[3]));
        assert.equal(await a.twoFactor.useRecoveryCode(id, HASHES[4], at(6)), true);
        assert.equal((await b.twoFactor.get(id))?.recoveryHashes.length, 8);
      }),
  );

  await t.step(
    "twoFactor: new recovery codes and turning off, each with a fresh time step, once, with its entry",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const id = uid("admin");
        const codes = (action: AuditInput["action"]) => ({ audit: [entry(action, id)] });
        const fresh = HASHES.map((_, i) => hex(100 + i));
        assert.equal(
          await a.twoFactor.replaceRecoveryCodes(id, 5, fresh, at(0), codes("two-factor-recovery-codes")),
          false,
        );
        assert.equal(
          await a.twoFactor.disable(id, 5, at(0), codes("two-factor-disabled")),
          false,
          "no record",
        );
        await a.twoFactor.begin(id, "sealed", at(0));
        assert.equal(await a.twoFactor.disable(id, 5, at(0)), false, "not confirmed yet");
        await a.twoFactor.confirm(id, "sealed", HASHES, 100, at(1));
        assert.equal(
          await a.twoFactor.replaceRecoveryCodes(id, 100, fresh, at(2), codes("two-factor-recovery-codes")),
          false,
          "a spent step",
        );
        // Six presses at once with one code: one set of codes, one entry.
        const replaced = await race(
          a,
          b,
          6,
          (s) => s.twoFactor.replaceRecoveryCodes(id, 101, fresh, at(3), codes("two-factor-recovery-codes")),
        );
        assert.equal(replaced.filter(Boolean).length, 1);
        const after = (await b.twoFactor.get(id))!;
        assert.deepEqual([after.recoveryHashes, after.lastStep], [fresh, 101]);
        assert.equal(
          await a.twoFactor.useRecoveryCode(id, HASHES[0], at(4)),
          false,
          "the old codes are gone",
        );
        assert.equal(
          await a.twoFactor.disable(id, 101, at(5), codes("two-factor-disabled")),
          false,
          "a spent step",
        );
        const off = await race(
          a,
          b,
          6,
          (s) => s.twoFactor.disable(id, 102, at(6), codes("two-factor-disabled")),
        );
        assert.equal(off.filter(Boolean).length, 1);
        assert.equal(await a.twoFactor.get(id), null);
        assert.deepEqual((await a.audit.list({ actorId: id }, 10)).map((e) => e.action), [
          "two-factor-disabled",
          "two-factor-recovery-codes",
        ]);
        await assert.rejects(() => a.twoFactor.replaceRecoveryCodes(id, 103, ["nope"], at(7)), RangeError);
      }),
  );

  await t.step(
    "twoFactor: reset removes everything with its entry; nothing to reset writes nothing",
    () =>
      withStore(open, async (store) => {
        const id = uid("admin");
        assert.equal(
          await store.twoFactor.reset(id, at(0), { audit: [entry("two-factor-reset", id)] }),
          false,
        );
        assert.equal((await store.audit.list({ actorId: id }, 10)).length, 0);
        await store.twoFactor.begin(id, "sealed", at(0));
        await store.twoFactor.confirm(id, "sealed", HASHES, 7, at(1));
        assert.equal(
          await store.twoFactor.reset(id, at(2), { audit: [entry("two-factor-reset", id)] }),
          true,
        );
        assert.equal(await store.twoFactor.get(id), null);
        assert.deepEqual(await store.twoFactor.state(id), { required: false, enrolled: false });
        assert.equal(await store.twoFactor.useRecoveryCode(id, HASHES[0], at(3)), false);
        assert.deepEqual((await store.audit.list({ actorId: id }, 10)).map((e) => e.action), [
          "two-factor-reset",
        ]);
        assert.equal(
          await store.twoFactor.begin(id, "sealed-again", at(4)),
          true,
          "enrols again after a reset",
        );
      }),
  );

  await t.step(
    "twoFactor: the requirement, audited only when it changes, seen by every instance",
    async () => {
      // The setting is the whole store's: fresh data, so no other step sees it switched on.
      await withTwo(fresh(), sharedData, async (a, b) => {
        const id = uid("owner");
        assert.equal(await a.twoFactor.required(), false);
        assert.equal(
          await a.twoFactor.setRequired(false, at(0), { audit: [entry("two-factor-required", id)] }),
          false,
        );
        assert.equal((await a.audit.list({ actorId: id }, 10)).length, 0, "no change, no entry");
        assert.equal(
          await a.twoFactor.setRequired(true, at(1), { audit: [entry("two-factor-required", id)] }),
          false,
        );
        assert.equal(await b.twoFactor.required(), true);
        assert.deepEqual(await b.twoFactor.state(uid("admin")), { required: true, enrolled: false });
        const both = await race(a, b, 4, (s) =>
          s.twoFactor.setRequired(false, at(2), {
            audit: [entry("two-factor-required", id)],
          }));
        assert.equal(both.filter((before) => before === true).length, 1, "one of four switched it");
        assert.equal(await a.twoFactor.required(), false);
        const entries = await b.audit.list({ actorId: id }, 10);
        assert.deepEqual(entries.map((e) => e.at), [at(2), at(1)], "one entry per change");
      });
    },
  );

  await t.step("twoFactor: bad input refused, nothing written", () =>
    withStore(open, async (store) => {
      const id = uid("admin");
      await assert.rejects(() => store.twoFactor.begin("", "sealed", at(0)), RangeError);
      await assert.rejects(() => store.twoFactor.begin(id, "", at(0)), RangeError);
      await assert.rejects(() => store.twoFactor.begin(id, "sealed", "yesterday"), RangeError);
      await store.twoFactor.begin(id, "sealed", at(0));
      await assert.rejects(() => store.twoFactor.confirm(id, "sealed", [], 1, at(1)), RangeError);
      await assert.rejects(() => store.twoFactor.confirm(id, "sealed", ["nothex"], 1, at(1)), RangeError);
      await assert.rejects(
        () => store.twoFactor.confirm(id, "sealed", [HASHES[0], HASHES[0]], 1, at(1)),
        RangeError,
      );
      await assert.rejects(() => store.twoFactor.confirm(id, "sealed", HASHES, -1, at(1)), RangeError);
      await assert.rejects(() => store.twoFactor.confirm(id, "sealed", HASHES, 1.5, at(1)), RangeError);
      await assert.rejects(() => store.twoFactor.useRecoveryCode(id, "x", at(1)), RangeError);
      await assert.rejects(() => store.twoFactor.setRequired("yes" as never, at(1)), RangeError);
      assert.equal((await store.twoFactor.get(id))?.enrolledAt, null, "still waiting for its first code");
    }));
}
