/**
 * The storage contract for recording transactions (`store.transactions`): `record()` answers what
 * it stored and is idempotent per provider and provider id (also under a race), `get()` and
 * `getByProviderId()`, and `import()` of a batch, which must equal recording one by one and refuse
 * bad input before writing. Lists, scans and totals are in `transaction_lists_contract.ts`,
 * searches in `transaction_search_contract.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { at, importFixtures, txFixture, uid } from "./fixtures.ts";
import { assertIsoInstant, type ContractOptions, everyList, withStore, withTwo } from "./support.ts";

/** The contract of recording and importing transactions; each step has fresh data of its own. */
export async function transactionsContract(
  t: Deno.TestContext,
  { sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "transactions: record() answers the transaction as stored; get() and getByProviderId() agree",
    () =>
      withStore(fresh(), async (store) => {
        const success = txFixture({ isMonthly: true, amount: 40_000, currency: 2 });
        const recorded = await store.transactions.record(success);
        assert.deepEqual(recorded, { created: true, transaction: success });
        const { transaction } = recorded;
        assertIsoInstant(transaction.createdAt, "createdAt");
        assert.deepEqual(typeof transaction.amount, "number");
        assert.deepEqual(typeof transaction.currency, "number");
        assert.deepEqual(await store.transactions.get(success.id), success);
        assert.deepEqual(
          await store.transactions.getByProviderId("sandbox", success.providerTransactionId!),
          success,
        );

        const error = txFixture({ kind: "error", isMonthly: false });
        assert.deepEqual(await store.transactions.record(error), { created: true, transaction: error });
        assert.deepEqual(await store.transactions.get(error.id), error);
        assert.deepEqual(
          [error.resultData, error.amount, error.currency, error.errorMessage],
          [null, null, null, "Card declined"],
        );

        assert.deepEqual(await store.transactions.get(uid("tx")), null);
        assert.deepEqual(await store.transactions.getByProviderId("sandbox", uid("ptx")), null);
        assert.deepEqual(
          await store.transactions.getByProviderId("pelecard", success.providerTransactionId!),
          null,
        );
        // A reused id (with a new provider id) is refused.
        await assert.rejects(() => store.transactions.record(txFixture({ id: success.id })));
        assert.deepEqual((await store.transactions.listSuccess({ page: 1, limit: 10 })).total, 1);
      }),
  );

  await t.step(
    "transactions: the card token a payment was charged with is kept, by record() and import() alike",
    () =>
      withStore(fresh(), async (store) => {
        // Issue 23: a refund goes back only through the token the payment was charged with.
        const charged = txFixture({ isMonthly: true, cardToken: "tok_first_card" });
        assert.deepEqual(await store.transactions.record(charged), { created: true, transaction: charged });
        assert.equal((await store.transactions.get(charged.id))?.cardToken, "tok_first_card");
        const [imported] = importFixtures(1, 50).map((tx) => ({ ...tx, cardToken: "tok_imported" }));
        assert.equal(await store.transactions.import([imported]), 1);
        assert.equal((await store.transactions.get(imported.id))?.cardToken, "tok_imported");
        // Charged without a token (a one-time page, a terminal sale), or recorded before tokens were
        // kept: none, the same on both backends.
        const plain = txFixture();
        await store.transactions.record({ ...plain, cardToken: undefined });
        assert.deepEqual(await store.transactions.get(plain.id), plain);
        assert.equal("cardToken" in (await store.transactions.get(plain.id))!, false);
        await assert.rejects(() => store.transactions.record(txFixture({ cardToken: "" })), RangeError);
        await assert.rejects(
          () => store.transactions.record(txFixture({ cardToken: "x".repeat(201) })),
          RangeError,
        );
      }),
  );

  await t.step(
    "transactions: record() is idempotent per (provider, providerTransactionId)",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const first = txFixture({ providerTransactionId: "PTX-1" });
        assert.deepEqual((await a.transactions.record(first)).created, true);
        // The same payment reported again (another id, another time): nothing is written.
        const again = await b.transactions.record(
          txFixture({ providerTransactionId: "PTX-1", createdAt: at(5) }),
        );
        assert.deepEqual(again, { created: false, transaction: first });
        const asError = await b.transactions.record(
          txFixture({ kind: "error", providerTransactionId: "PTX-1" }),
        );
        assert.deepEqual(asError, { created: false, transaction: first });

        // The same provider id at another provider is another payment.
        const other = txFixture({ provider: "pelecard", providerTransactionId: "PTX-1" });
        assert.deepEqual(await a.transactions.record(other), { created: true, transaction: other });
        assert.deepEqual(await b.transactions.getByProviderId("sandbox", "PTX-1"), first);
        assert.deepEqual(await b.transactions.getByProviderId("pelecard", "PTX-1"), other);

        // Without a provider id, every record creates.
        const anonymous = [
          txFixture({ providerTransactionId: null }),
          txFixture({ providerTransactionId: null }),
        ];
        for (const tx of anonymous) {
          assert.deepEqual(await a.transactions.record(tx), { created: true, transaction: tx });
        }

        // 10 racing records of one new pair: one is created, all answer it, one row is listed.
        const racing = Array.from(
          { length: 10 },
          (_, i) => txFixture({ providerTransactionId: "PTX-RACE", isMonthly: true, createdAt: at(100 + i) }),
        );
        const results = await Promise.all(racing.map((tx, i) => (i % 2 ? a : b).transactions.record(tx)));
        const created = results.filter((r) => r.created);
        assert.deepEqual(created.length, 1, `${created.length} created`);
        for (const r of results) assert.deepEqual(r.transaction, created[0].transaction);

        const all = await a.transactions.listSuccess({ page: 1, limit: 100 });
        assert.deepEqual(all.total, 5);
        assert.deepEqual(all.data.map((tx) => tx.id), [
          created[0].transaction.id,
          ...anonymous.map((tx) => tx.id).reverse(),
          other.id,
          first.id,
        ]);
        assert.deepEqual(await a.transactions.listSuccess({ page: 1, limit: 100, isMonthly: true }), {
          data: [created[0].transaction],
          total: 1,
        });
        assert.deepEqual(await a.transactions.listErrors({ page: 1, limit: 100 }), { data: [], total: 0 });
      }),
  );

  // ---- import ----

  await t.step(
    "transactions: import() of 250 with duplicates equals record() one by one; record() continues",
    async () => {
      const early = importFixtures(20, 0);
      // A provider re-sends 15 earlier payments (new ids, other times) and repeats 5 of this batch.
      // Some large ones too: on Deno KV the batch then needs several commits (800 KiB each at most).
      const fresh230 = importFixtures(230, 100).map((tx, i) =>
        i % 23 === 5 ? { ...tx, resultData: { ...txFixture().resultData!, Blob: "x".repeat(40_000) } } : tx
      );
      const resent = early.slice(0, 15).map((tx, i) =>
        txFixture({ providerTransactionId: tx.providerTransactionId, createdAt: at((400 + i) * 1000) })
      );
      const repeated = fresh230.slice(40, 45).map((tx) =>
        txFixture({ providerTransactionId: tx.providerTransactionId, kind: "error" })
      );
      const batch = [...fresh230.slice(0, 100), ...resent, ...fresh230.slice(100), ...repeated];
      assert.deepEqual(batch.length, 250);
      const later = importFixtures(3, 900);

      await withStore(fresh(), async (imported) => {
        await withStore(fresh(), async (oneByOne) => {
          for (const tx of early) {
            await imported.transactions.record(tx);
            await oneByOne.transactions.record(tx);
          }
          assert.deepEqual(await imported.transactions.import(batch), 230);
          let created = 0;
          for (const tx of batch) if ((await oneByOne.transactions.record(tx)).created) created++;
          assert.deepEqual(created, 230);

          const lists = await everyList(imported);
          assert.deepEqual(lists, await everyList(oneByOne));
          const successes = [...early, ...fresh230].filter((tx) => tx.kind === "success");
          assert.deepEqual(
            [lists.all.total, lists.monthly.total, lists.oneTime.total, lists.errors.total],
            [
              successes.length,
              successes.filter((tx) => tx.isMonthly).length,
              successes.filter((tx) => !tx.isMonthly).length,
              250 - successes.length,
            ],
          );
          // Whole transactions as recorded, newest first; the resent and repeated ones are not there.
          assert.deepEqual(
            (await imported.transactions.listSuccess({ page: 1, limit: 100 })).data,
            successes.slice(-100).reverse(),
          );
          for (const tx of [...resent, ...repeated]) {
            assert.deepEqual(await imported.transactions.get(tx.id), null);
          }
          assert.deepEqual(
            await imported.transactions.getByProviderId("sandbox", fresh230[200].providerTransactionId!),
            fresh230[200],
          );
          // The same search either way.
          const levi = { page: 2, limit: 10, search: "LEVI" };
          assert.deepEqual(
            await imported.transactions.listSuccess(levi),
            await oneByOne.transactions.listSuccess(levi),
          );

          // Importing again records nothing; record() after import() continues every sequence.
          assert.deepEqual(await imported.transactions.import(batch), 0);
          assert.deepEqual(await imported.transactions.import([]), 0);
          for (const tx of later) {
            assert.deepEqual(await imported.transactions.record(tx), { created: true, transaction: tx });
            await oneByOne.transactions.record(tx);
          }
          const after = await everyList(imported);
          assert.deepEqual(after, await everyList(oneByOne));
          assert.deepEqual(after.all.total, lists.all.total + 2);
          assert.deepEqual(after.errors.total, lists.errors.total + 1);
          assert.deepEqual(after.all.ids.slice(0, 2), [later[1].id, later[0].id]);
          assert.deepEqual(after.errors.ids[0], later[2].id);
        });
      });
    },
  );

  await t.step(
    "transactions: import() refuses bad input before writing; concurrent record() of the same pairs",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const good = importFixtures(10, 0);
        await assert.rejects(() => a.transactions.import(importFixtures(1001, 0)), RangeError);
        await assert.rejects(
          () => a.transactions.import([...good, txFixture({ createdAt: "yesterday" })]),
          RangeError,
        );
        await assert.rejects(
          () => a.transactions.import([...good, txFixture({ id: good[3].id })]),
          RangeError,
          "an id given to two payments",
        );
        assert.deepEqual((await a.transactions.listSuccess({ page: 1, limit: 10 })).total, 0);
        assert.deepEqual(await a.transactions.get(good[0].id), null);
        // An id that is stored already is refused, as by record().
        await a.transactions.record(good[0]);
        await assert.rejects(() => a.transactions.import([txFixture({ id: good[0].id })]));

        // Imports on one instance race records of the same pairs on the other: each pair is
        // recorded once, and every list stays dense.
        const batch = importFixtures(300, 100);
        const results = await Promise.all([
          a.transactions.import(batch.slice(0, 150)),
          ...batch.filter((_, i) => i % 7 === 0).map(async (tx) =>
            (await b.transactions.record(txFixture({ ...tx, id: uid("tx") }))).created ? 1 : 0
          ),
          a.transactions.import(batch.slice(150)),
        ]);
        assert.deepEqual(results.reduce((sum, n) => sum + n, 0), 300);
        const lists = await everyList(b);
        assert.deepEqual(lists.all.total + lists.errors.total, 301);
        assert.deepEqual(lists.monthly.total + lists.oneTime.total, lists.all.total);
        assert.deepEqual(lists.monthlyErrors.total + lists.oneTimeErrors.total, lists.errors.total);
        for (const tx of batch) {
          assert.ok(await a.transactions.getByProviderId("sandbox", tx.providerTransactionId!), tx.id);
        }
      }),
  );
}
