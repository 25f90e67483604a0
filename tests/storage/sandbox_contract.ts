/**
 * The storage contract for the sandbox payment provider's records (`store.sandbox`): create with
 * a unique ref, find by reference, `transition()` from one status only (one winner under a race),
 * a terminal's sales by status; and the retention sweep: `listUpdatedBefore()` and
 * `deleteUnchanged()`, which removes every index of a record and counts each once.
 *
 * @module
 */

import type { SandboxRecord } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, sandboxFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** The contract of `store.sandbox`; the retention steps use fresh data of their own. */
export async function sandboxContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "sandbox: create() (ref unique), get(), findByReference() (the most recent); unknown is null",
    () =>
      withStore(open, async (store) => {
        const record = sandboxFixture({ createdAt: "2025-03-01T10:00:00Z" });
        await store.sandbox.create(record);
        const stored = { ...record, createdAt: at(0) };
        assert.deepEqual(await store.sandbox.get(record.ref), stored);
        await assert.rejects(
          () => store.sandbox.create({ ...record, status: "paid" }),
          "a reused ref was accepted",
        );
        assert.deepEqual(await store.sandbox.get(record.ref), stored);
        assert.deepEqual(await store.sandbox.get(uid("sbx")), null);
        assert.deepEqual(await store.sandbox.findByReference(uid("pay")), null);

        assert.deepEqual(await store.sandbox.findByReference(record.reference), stored);
        const newer = sandboxFixture({
          reference: record.reference,
          kind: "charge",
          createdAt: at(5000),
          data: {},
        });
        const older = sandboxFixture({ reference: record.reference, createdAt: at(-5000) });
        await store.sandbox.create(newer);
        await store.sandbox.create(older);
        assert.deepEqual(await store.sandbox.findByReference(record.reference), newer);
      }),
  );

  await t.step(
    "sandbox: transition() moves from `from` only, merges data shallowly; from == to merges only",
    () =>
      withStore(open, async (store) => {
        const record = sandboxFixture();
        await store.sandbox.create(record);
        assert.deepEqual(
          await store.sandbox.transition(record.ref, "paid", "reversed", { x: 1 }, at(1)),
          false,
        );
        assert.deepEqual(await store.sandbox.transition(uid("sbx"), "open", "paid", {}, at(1)), false);
        assert.deepEqual(await store.sandbox.get(record.ref), record);

        const moved = await store.sandbox.transition(
          record.ref,
          "open",
          "paid",
          { statusCode: "000", nested: { b: 2 }, token: null, dropped: undefined },
          "2025-03-01T10:00:02Z",
        );
        assert.deepEqual(moved, true);
        const paid: SandboxRecord = {
          ...record,
          status: "paid",
          updatedAt: at(2000),
          data: { ...record.data, statusCode: "000", nested: { b: 2 }, token: null },
        };
        assert.deepEqual(await store.sandbox.get(record.ref), paid);
        assert.deepEqual(
          await store.sandbox.transition(record.ref, "open", "declined", { y: 1 }, at(3000)),
          false,
        );
        assert.deepEqual(await store.sandbox.get(record.ref), paid);
        // Same status: data merged, updatedAt set.
        assert.deepEqual(
          await store.sandbox.transition(record.ref, "paid", "paid", { note: "hi" }, at(4000)),
          true,
        );
        assert.deepEqual(await store.sandbox.get(record.ref), {
          ...paid,
          updatedAt: at(4000),
          data: { ...paid.data, note: "hi" },
        });
      }),
  );

  await t.step(
    "sandbox: concurrent transitions of one record (two instances) have exactly one winner",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const record = sandboxFixture({ kind: "terminal", status: "waiting", terminalId: uid("term") });
        await a.sandbox.create(record);
        const results = await race(a, b, 10, (store, i) =>
          store.sandbox.transition(
            record.ref,
            "waiting",
            i % 3 === 0 ? "timeout" : "paid",
            { by: i },
            at(i),
          ));
        assert.deepEqual(results.filter(Boolean).length, 1);
        const winner = results.indexOf(true);
        const after = await b.sandbox.get(record.ref);
        assert.deepEqual(after?.status, winner % 3 === 0 ? "timeout" : "paid");
        assert.deepEqual(after?.data, { ...record.data, by: winner });
        assert.deepEqual(await a.sandbox.listByTerminal(record.terminalId!, "waiting"), []);
        assert.deepEqual(await a.sandbox.listByTerminal(record.terminalId!, after!.status), [after]);
      }),
  );

  await t.step(
    "sandbox: listByTerminal() answers one terminal's sales in a status, oldest first, kept in step",
    () =>
      withStore(open, async (store) => {
        const terminalId = uid("term");
        const sale = (ms: number, overrides: Partial<SandboxRecord> = {}) =>
          sandboxFixture({
            kind: "terminal",
            status: "waiting",
            terminalId,
            createdAt: at(ms),
            data: {},
            ...overrides,
          });
        const s2 = sale(2000);
        const s1 = sale(1000);
        const s3 = sale(3000);
        const elsewhere = sale(500, { terminalId: uid("term") });
        for (const s of [s2, s1, s3, elsewhere]) await store.sandbox.create(s);
        await store.sandbox.create(sandboxFixture({ reference: s1.reference }));
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "waiting"), [s1, s2, s3]);
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "paid"), []);
        assert.deepEqual(await store.sandbox.listByTerminal(uid("term"), "waiting"), []);

        assert.ok(await store.sandbox.transition(s2.ref, "waiting", "paid", { statusCode: "000" }, at(4000)));
        const paid2 = { ...s2, status: "paid", updatedAt: at(4000), data: { statusCode: "000" } };
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "waiting"), [s1, s3]);
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "paid"), [paid2]);
        // A merge-only transition updates the listed copy too.
        assert.ok(await store.sandbox.transition(s3.ref, "waiting", "waiting", { seen: true }, at(5000)));
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "waiting"), [
          s1,
          { ...s3, updatedAt: at(5000), data: { seen: true } },
        ]);
      }),
  );

  // ---- retention ----

  await t.step(
    "sandbox: listUpdatedBefore() answers records by last change, oldest first, in batches",
    () =>
      withStore(fresh(), async (store) => {
        const record = async (ms: number, overrides: Partial<SandboxRecord> = {}) => {
          const r = sandboxFixture({ createdAt: at(ms), updatedAt: at(ms), ...overrides });
          await store.sandbox.create(r);
          return r;
        };
        const r1 = await record(1000);
        const r2 = await record(2000, { kind: "terminal", status: "waiting", terminalId: uid("term") });
        const r3 = await record(3000);
        const r4 = await record(9000);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3000), 10), [r1, r2]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3000), 1), [r1]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3001), 1, r1), [r2]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3001), 5, r2), [r3]);
        // A transition moves the record to its new time.
        assert.ok(await store.sandbox.transition(r1.ref, "open", "paid", { statusCode: "000" }, at(8000)));
        const r1paid = (await store.sandbox.get(r1.ref))!;
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3001), 10), [r2, r3]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(9000), 10), [r2, r3, r1paid]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(9001), 10, r1paid), [r4]);
        await assert.rejects(() => store.sandbox.listUpdatedBefore(at(0), 0), RangeError);
      }),
  );

  await t.step(
    "sandbox: deleteUnchanged() deletes records unchanged since read, with every index; changed ones stay",
    () =>
      withStore(fresh(), async (store) => {
        const terminalId = uid("term");
        const old = sandboxFixture({ updatedAt: at(1000) });
        const sale = sandboxFixture({
          kind: "terminal",
          status: "declined",
          terminalId,
          updatedAt: at(1000),
        });
        const changed = sandboxFixture({ updatedAt: at(1000) });
        for (const r of [old, sale, changed]) await store.sandbox.create(r);
        assert.ok(await store.sandbox.transition(changed.ref, "open", "paid", {}, at(5000)));
        const deleted = await store.sandbox.deleteUnchanged(
          [old, sale, changed, { ref: uid("sbx"), updatedAt: at(0) }].map((r) => ({
            ref: r.ref,
            updatedAt: r.updatedAt,
          })),
        );
        assert.deepEqual(deleted, 2);
        assert.deepEqual(await store.sandbox.get(old.ref), null);
        assert.deepEqual(await store.sandbox.get(sale.ref), null);
        assert.deepEqual(await store.sandbox.findByReference(old.reference), null);
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "declined"), []);
        assert.deepEqual((await store.sandbox.get(changed.ref))?.status, "paid");
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(10_000), 10), [
          (await store.sandbox.get(changed.ref))!,
        ]);
        assert.deepEqual(
          await store.sandbox.deleteUnchanged([{ ref: old.ref, updatedAt: old.updatedAt }]),
          0,
        );
        assert.deepEqual(await store.sandbox.deleteUnchanged([]), 0);
        // The ref can be used again.
        await store.sandbox.create(old);
        assert.deepEqual(await store.sandbox.get(old.ref), old);
        const tooMany = Array.from({ length: 1001 }, () => ({ ref: uid("sbx"), updatedAt: at(0) }));
        await assert.rejects(() => store.sandbox.deleteUnchanged(tooMany), RangeError);
      }),
  );

  await t.step(
    "sandbox: two instances deleting the same records at once delete and count each once",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const records = Array.from({ length: 120 }, (_, i) => sandboxFixture({ updatedAt: at(i) }));
        for (const r of records) await a.sandbox.create(r);
        const keys = records.map((r) => ({ ref: r.ref, updatedAt: r.updatedAt }));
        const [x, y] = await Promise.all([a.sandbox.deleteUnchanged(keys), b.sandbox.deleteUnchanged(keys)]);
        assert.deepEqual(x + y, 120);
        assert.deepEqual(await b.sandbox.listUpdatedBefore(at(1_000_000), 10), []);
      }),
  );
}
