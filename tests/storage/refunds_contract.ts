/**
 * The storage contract for refunds (`store.refunds`): a refund stored canonical and pending; once per
 * idempotency key; never more than paid, also under a race across two instances; settled once, with
 * its audit entry and message in the same step (none when it no longer was pending); failed refunds
 * free their amount; totals per transaction.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Refund, RefundExceedsPaidError } from "@/lib/storage/refund_types.ts";
import type { AuditInput, MessageInput } from "@/lib/storage/types.ts";
import { at, refundFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

const refund = refundFixture;
const DAY_MS = 86_400_000;

const entry = (target: string): AuditInput => ({
  action: "refund",
  actorId: "admin_1",
  actorEmail: "finance@museum.example",
  address: "203.0.113.9",
  target,
  changes: { amount: 1_000 },
});

/** The contract of `store.refunds`. */
export async function refundsContract(
  t: Deno.TestContext,
  { open, fresh, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "refunds: begin() stores a pending refund once per key; bad input refused",
    () =>
      withStore(open, async (store) => {
        const tx = uid("tx");
        const r = refund({ transactionId: tx, state: "succeeded", providerRef: "x" });
        const first = await store.refunds.begin(r, 5_000);
        assert.equal(first.created, true);
        assert.deepEqual(first.refund, { ...r, state: "pending", providerRef: null });
        assert.deepEqual(await store.refunds.get(tx, r.id), first.refund);
        // The same key again (another id, another amount): the first refund, nothing written.
        const again = await store.refunds.begin({ ...r, id: uid("refund"), amount: 4_000 }, 5_000);
        assert.deepEqual(again, { created: false, refund: first.refund });
        assert.deepEqual(await store.refunds.listByTransaction(tx), [first.refund]);
        assert.deepEqual(
          await store.refunds.totals([tx, "tx_none"]),
          new Map([[tx, { refunded: 0, pending: 1_000 }]]),
        );
        for (
          const bad of [{ amount: 0 }, { amount: 1.5 }, { reason: "bored" }, { key: "" }, {
            note: "x".repeat(501),
          }]
        ) {
          await assert.rejects(
            () => store.refunds.begin(refund({ transactionId: tx, ...bad } as Partial<Refund>), 5_000),
            RangeError,
          );
        }
        assert.equal((await store.refunds.listByTransaction(tx)).length, 1);
      }),
  );

  await t.step(
    "refunds: begin() refuses more than what remains; a failed refund frees its amount",
    () =>
      withStore(open, async (store) => {
        const tx = uid("tx");
        const a = (await store.refunds.begin(refund({ transactionId: tx, amount: 3_000 }), 5_000)).refund;
        await assert.rejects(
          () => store.refunds.begin(refund({ transactionId: tx, amount: 2_001 }), 5_000),
          (e: unknown) => e instanceof RefundExceedsPaidError && e.remaining === 2_000,
        );
        assert.equal((await store.refunds.listByTransaction(tx)).length, 1);
        const failed = await store.refunds.settle(tx, a.id, {
          state: "failed",
          error: "declined",
          at: at(1_000),
        });
        assert.equal(failed?.state, "failed");
        assert.equal(failed?.error, "declined");
        assert.equal(failed?.settledAt, at(1_000));
        assert.deepEqual(await store.refunds.totals([tx]), new Map());
        const whole = await store.refunds.begin(refund({ transactionId: tx, amount: 5_000 }), 5_000);
        assert.equal(whole.created, true);
        const done = await store.refunds.settle(tx, whole.refund.id, {
          state: "succeeded",
          providerRef: "ref_9",
          at: at(2_000),
        });
        assert.equal(done?.state, "succeeded");
        assert.equal(done?.providerRef, "ref_9");
        assert.deepEqual(await store.refunds.totals([tx]), new Map([[tx, { refunded: 5_000, pending: 0 }]]));
        await assert.rejects(
          () => store.refunds.begin(refund({ transactionId: tx, amount: 1 }), 5_000),
          RefundExceedsPaidError,
        );
      }),
  );

  await t.step(
    "refunds: settle() once, with its audit entry and message in the same step",
    () =>
      withStore(open, async (store) => {
        const tx = uid("tx");
        const r = (await store.refunds.begin(refund({ transactionId: tx }), 5_000)).refund;
        const message: MessageInput = {
          key: `refund:${r.id}`,
          kind: "receipt",
          to: { donorId: "donor_1" },
          language: "en",
          data: { transactionId: tx },
        };
        const outcome = { state: "succeeded" as const, providerRef: "ref_1", at: at(5_000) };
        const settled = await store.refunds.settle(tx, r.id, outcome, {
          audit: [entry(tx)],
          messages: [message],
        });
        assert.equal(settled?.state, "succeeded");
        // Settled already: nothing more written, neither entry nor message.
        assert.equal(await store.refunds.settle(tx, r.id, outcome, { audit: [entry(tx)] }), null);
        assert.equal(await store.refunds.settle(tx, "nope", outcome, { audit: [entry(tx)] }), null);
        const log = await store.audit.list({ action: "refund" }, 100);
        assert.equal(log.filter((e) => e.target === tx).length, 1);
        assert.equal((await store.outbox.get(`refund:${r.id}`))?.state, "queued");
      }),
  );

  await t.step(
    "refunds: reportFailure() once on a pending refund, with its audit entry; it stays pending",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        // Issue 23: one person's "it did not go through" frees nothing until an owner confirms it.
        const tx = uid("tx");
        const r = (await a.refunds.begin(refund({ transactionId: tx, amount: 3_000 }), 5_000)).refund;
        assert.equal(r.failureReport, null);
        const report = { actorId: "admin_2", actorEmail: "finance2@museum.example", at: at(20 * 60_000) };
        const results = await race(a, b, 6, (store, i) =>
          store.refunds.reportFailure(tx, r.id, { ...report, actorId: `admin_${i}` }, {
            audit: [entry(tx)],
          }));
        const won = results.filter((x) =>
          x !== null
        );
        assert.equal(won.length, 1, "reported once");
        const stored = await b.refunds.get(tx, r.id);
        assert.deepEqual(stored, won[0]);
        assert.equal(stored?.state, "pending");
        assert.equal(stored?.failureReport?.actorEmail, "finance2@museum.example");
        assert.equal(stored?.failureReport?.at, at(20 * 60_000));
        assert.deepEqual(await b.refunds.totals([tx]), new Map([[tx, { refunded: 0, pending: 3_000 }]]));
        const pending = await b.refunds.listPending(at(DAY_MS), 1_000);
        assert.deepEqual(
          pending.filter((x) =>
            x.transactionId === tx
          ).map((x) => x.id),
          [r.id],
        );
        assert.equal(
          (await a.audit.list({ action: "refund" }, 100)).filter((e) => e.target === tx).length,
          1,
        );
        // Confirmed (settled failed): the report stays on record; a settled refund takes no report.
        const failed = await a.refunds.settle(tx, r.id, {
          state: "failed",
          error: "confirmed",
          at: at(DAY_MS),
        });
        assert.deepEqual(failed?.failureReport, stored?.failureReport);
        assert.equal(await a.refunds.reportFailure(tx, r.id, report), null);
        assert.equal(await a.refunds.reportFailure(tx, "nope", report), null);
        await assert.rejects(
          async () => {
            const other = (await a.refunds.begin(refund({ transactionId: tx }), 5_000)).refund;
            await a.refunds.reportFailure(tx, other.id, { ...report, at: "soon" });
          },
          RangeError,
        );
      }),
  );

  await t.step(
    "refunds: racing begin() calls across instances never pass what was paid",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const tx = uid("tx");
        const results = await race(a, b, 10, (store) =>
          store.refunds.begin(refund({ transactionId: tx, amount: 2_000 }), 5_000).then(
            (r) =>
              r.created,
            (e) =>
              e instanceof RefundExceedsPaidError ? false : Promise.reject(e),
          ));
        assert.equal(results.filter(Boolean).length, 2);
        assert.deepEqual(await b.refunds.totals([tx]), new Map([[tx, { refunded: 0, pending: 4_000 }]]));
        // One key pressed on both at once: one refund.
        const key = uid("key");
        const same = await race(a, b, 6, (store) =>
          store.refunds.begin(refund({ transactionId: tx, key, amount: 500 }), 5_000));
        assert.equal(
          same.filter((r) =>
            r.created
          ).length,
          1,
        );
        assert.equal(
          new Set(same.map((r) =>
            r.refund.id
          )).size,
          1,
        );
      }),
  );

  await t.step(
    "refunds: listPending() answers the pending refunds asked before a time, oldest first, up to a limit",
    () =>
      withStore(fresh(), async (store) => {
        const tx = uid("tx");
        const made = [];
        for (const ms of [3_000, 1_000, 2_000, 0, 9_000]) {
          made.push(
            (await store.refunds.begin(refund({ transactionId: tx, createdAt: at(ms) }), 10_000)).refund,
          );
        }
        const [r3, r1, r2, r0] = made;
        await store.refunds.settle(tx, r1.id, { state: "succeeded", providerRef: "credit", at: at(4_000) });
        await store.refunds.settle(tx, r2.id, { state: "failed", error: "declined", at: at(4_000) });
        assert.deepEqual(await store.refunds.listPending(at(5_000), 10), [r0, r3]);
        assert.deepEqual(await store.refunds.listPending(at(5_000), 1), [r0]);
        assert.deepEqual(await store.refunds.listPending(at(3_000), 10), [r0], "asked before, not at");
        assert.deepEqual(await store.refunds.listPending(at(0), 10), []);
        await store.refunds.settle(tx, r0.id, { state: "succeeded", providerRef: "credit", at: at(6_000) });
        assert.deepEqual(await store.refunds.listPending(at(10_000), 10), [r3, made[4]]);
        for (
          const [before, limit] of [["not a time", 10], [at(0), 0], [at(0), 1_001], [at(0), 1.5]] as const
        ) {
          await assert.rejects(() => store.refunds.listPending(before, limit), RangeError);
        }
      }),
  );
}
