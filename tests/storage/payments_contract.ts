/**
 * The storage contract for payments (`store.payments`): `createOrReuse()` with its idempotency key
 * and window (one payment under a race), get by id or provider reference, `update()` of only the
 * fields given; and what reconciliation reads: `listPending()` in batches, and `updateIfPending()`,
 * which never overwrites a finished payment.
 *
 * @module
 */

import type { Payment } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, paymentFixture, T0, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** The contract of `store.payments`; the reconciliation steps use fresh data of their own. */
export async function paymentsContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "payments: createOrReuse() stores, get() agrees; update() changes only the given fields; unknown is null",
    () =>
      withStore(open, async (store) => {
        // An instant without milliseconds is stored as toISOString writes it.
        const input = paymentFixture({ createdAt: "2025-03-01T10:00:00Z", shopNumber: "7" });
        const { created, payment } = await store.payments.createOrReuse(input, uid("key"), 60_000, T0);
        assert.deepEqual(created, true);
        assert.deepEqual(payment, { ...input, createdAt: at(0) });
        assert.deepEqual(await store.payments.get(input.id), payment);
        assert.deepEqual(await store.payments.get(uid("pay")), null);
        assert.deepEqual(await store.payments.update(uid("pay"), { status: "failed" }), null);
        await assert.rejects(
          () => store.payments.createOrReuse(paymentFixture({ id: input.id }), uid("key"), 60_000, T0),
          "a reused id was accepted",
        );

        const started = await store.payments.update(payment.id, {
          providerRef: "ref-1",
          pageUrl: "http://127.0.0.1/sandbox/pay/ref-1",
          confirmationKey: "ck",
          updatedAt: "2025-03-01T10:00:01Z",
        });
        assert.deepEqual(started, {
          ...payment,
          providerRef: "ref-1",
          pageUrl: "http://127.0.0.1/sandbox/pay/ref-1",
          confirmationKey: "ck",
          updatedAt: at(1000),
        });
        assert.deepEqual(
          await store.payments.update(payment.id, {}),
          started,
          "an empty update changed something",
        );
        const done = await store.payments.update(payment.id, { status: "succeeded", transactionId: "tx-1" });
        assert.deepEqual(done, { ...started, status: "succeeded", transactionId: "tx-1" });
        assert.deepEqual(await store.payments.get(payment.id), done);
        await assert.rejects(() =>
          store.payments.update(payment.id, { status: "lost" as Payment["status"] })
        );
        assert.deepEqual(await store.payments.get(payment.id), done);
      }),
  );

  await t.step(
    "payments: getByProviderRef() follows providerRef as create and update() set it; unknown is null",
    () =>
      withStore(open, async (store) => {
        const ref = uid("ref");
        const { payment } = await store.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0);
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", ref), null);
        const withRef = await store.payments.update(payment.id, { providerRef: ref });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", ref), withRef);
        assert.deepEqual(
          await store.payments.getByProviderRef("pelecard", ref),
          null,
          "the provider is part of it",
        );
        // Moved to another reference: the old one finds nothing.
        const moved = await store.payments.update(payment.id, { providerRef: `${ref}-2` });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", ref), null);
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-2`), moved);
        // Other fields changing keep it findable, with the new values.
        const failed = await store.payments.update(payment.id, { status: "failed" });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-2`), failed);
        await store.payments.update(payment.id, { providerRef: null });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-2`), null);
        // A payment created with a reference is found by it.
        const terminal = paymentFixture({ channel: "terminal", providerRef: `${ref}-3`, shopNumber: "3" });
        await store.payments.createOrReuse(terminal, uid("key"), 60_000, T0);
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-3`), terminal);
      }),
  );

  await t.step(
    "payments: createOrReuse() reuses the key's payment only while younger than the window and pending",
    () =>
      withStore(open, async (store) => {
        const key = uid("key");
        const create = (ms: number, windowMs = 60_000) => {
          const p = paymentFixture({ createdAt: at(ms), updatedAt: at(ms) });
          return store.payments.createOrReuse(p, key, windowMs, T0 + ms).then((r) => ({ ...r, input: p }));
        };
        const first = await create(0);
        assert.deepEqual(first.created, true);
        const repeat = await create(59_999);
        assert.deepEqual(repeat, { created: false, payment: first.payment, input: repeat.input });
        assert.deepEqual(
          await store.payments.get(repeat.input.id),
          null,
          "a reused request stored a payment",
        );
        // Another key is another payment.
        const other = paymentFixture();
        assert.deepEqual(
          (await store.payments.createOrReuse(other, uid("key"), 60_000, T0 + 1)).created,
          true,
        );
        // As old as the window: no longer reused; the new payment takes the key over.
        const second = await create(60_000);
        assert.deepEqual(second.created, true);
        assert.deepEqual((await create(60_001)).payment, second.payment);
        // A smaller window on the same key counts from the key's payment.
        assert.deepEqual((await create(61_000, 1_000)).created, true);
        const third = await create(62_000, 10_000);
        assert.deepEqual(third.created, false);
        // Not pending any more: not reused.
        await store.payments.update(third.payment.id, { status: "failed" });
        const fourth = await create(62_500);
        assert.deepEqual(fourth.created, true);
        await store.payments.update(fourth.payment.id, { status: "succeeded" });
        const fifth = await create(62_600);
        assert.deepEqual(fifth.created, true);
        assert.deepEqual((await create(62_700)).payment, fifth.payment);
        // Every payment created stays readable.
        for (const p of [first, second, fourth, fifth]) assert.ok(await store.payments.get(p.payment.id));
      }),
  );

  await t.step(
    "payments: concurrent createOrReuse() of one key (two instances) make one payment",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const key = uid("key");
        const inputs = Array.from({ length: 10 }, () => paymentFixture());
        const results = await race(a, b, 10, (store, i) =>
          store.payments.createOrReuse(inputs[i], key, 60_000, T0));
        assert.deepEqual(
          results.filter((r) =>
            r.created
          ).length,
          1,
        );
        const winner = results.find((r) =>
          r.created
        )!.payment;
        for (const r of results) assert.deepEqual(r.payment, winner);
        assert.deepEqual(
          (await b.payments.createOrReuse(paymentFixture(), key, 60_000, T0 + 5)).payment,
          winner,
        );
      }),
  );

  // ---- reconciliation ----

  await t.step(
    "payments: listPending() answers pending payments created in a range, oldest first, in batches",
    () =>
      withStore(fresh(), async (store) => {
        const create = async (ms: number, overrides: Partial<Payment> = {}) =>
          (await store.payments.createOrReuse(
            paymentFixture({ createdAt: at(ms), updatedAt: at(ms), ...overrides }),
            uid("key"),
            60_000,
            T0,
          )).payment;
        const p1 = await create(1000);
        // Two at the same instant: ordered by id, in byte order.
        const [p2, p3] = [await create(2000), await create(2000)].sort((a, b) => a.id < b.id ? -1 : 1);
        const p4 = await create(3000);
        const late = await create(5000);
        await create(1500, { status: "succeeded" });
        const range = { from: at(0), to: at(5000) };
        assert.deepEqual(await store.payments.listPending(range, 10), [p1, p2, p3, p4]);
        assert.deepEqual(await store.payments.listPending({ from: at(2000), to: at(5001) }, 10), [
          p2,
          p3,
          p4,
          late,
        ]);
        assert.deepEqual(await store.payments.listPending({ from: at(6000), to: at(9000) }, 10), []);

        // Batches: each after the last of the previous one, ties included.
        const batches: string[][] = [];
        let after: Payment | null = null;
        for (;;) {
          const batch = await store.payments.listPending(range, 2, after);
          if (batch.length === 0) break;
          batches.push(batch.map((p) => p.id));
          after = batch[batch.length - 1];
        }
        assert.deepEqual(batches, [[p1.id, p2.id], [p3.id, p4.id]]);
        assert.deepEqual(await store.payments.listPending(range, 10, p2), [p3, p4]);
        // A cursor before `from` starts at `from`.
        assert.deepEqual(await store.payments.listPending({ from: at(2500), to: at(9000) }, 10, p1), [
          p4,
          late,
        ]);

        // Finishing a payment takes it off the list; a change that keeps it pending does not.
        await store.payments.update(p1.id, { status: "succeeded", transactionId: "tx-1" });
        const touched = await store.payments.updateIfPending(p2.id, { updatedAt: at(9000) });
        assert.deepEqual(touched, { ...p2, updatedAt: at(9000) });
        assert.deepEqual(await store.payments.listPending(range, 10), [touched, p3, p4]);

        for (const limit of [0, 1001, 1.5]) {
          await assert.rejects(() => store.payments.listPending(range, limit), RangeError, `limit ${limit}`);
        }
        await assert.rejects(() => store.payments.listPending({ from: "soon", to: at(0) }, 1), RangeError);
      }),
  );

  await t.step(
    "payments: updateIfPending() changes only a pending payment; unknown is null",
    () =>
      withStore(fresh(), async (store) => {
        const { payment } = await store.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0);
        assert.deepEqual(await store.payments.updateIfPending(uid("pay"), { status: "failed" }), null);
        const done = await store.payments.updateIfPending(payment.id, {
          status: "failed",
          updatedAt: at(10),
        });
        assert.deepEqual(done, { ...payment, status: "failed", updatedAt: at(10) });
        assert.deepEqual(await store.payments.updateIfPending(payment.id, { status: "succeeded" }), null);
        assert.deepEqual(await store.payments.get(payment.id), done);
        assert.deepEqual(await store.payments.listPending({ from: at(-1000), to: at(1000) }, 10), []);
        // An empty change answers the payment while pending, as update() does.
        const other = (await store.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0)).payment;
        assert.deepEqual(await store.payments.updateIfPending(other.id, {}), other);
      }),
  );

  await t.step(
    "payments: updateIfPending() racing a finishing update (two instances) never overwrites it",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) {
          ids.push((await a.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0)).payment.id);
        }
        await Promise.all(ids.flatMap((id, i) => [
          (i % 2 ? a : b).payments.update(id, { status: "succeeded", transactionId: `tx-${i}` }),
          (i % 2 ? b : a).payments.updateIfPending(id, { status: "failed" }),
        ]));
        for (const id of ids) {
          const payment = await b.payments.get(id);
          assert.deepEqual(payment?.status, "succeeded", id);
        }
        assert.deepEqual(await a.payments.listPending({ from: at(-1000), to: at(1000) }, 100), []);
      }),
  );
}
