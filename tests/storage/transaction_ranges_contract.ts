/**
 * The storage contract for a time range on the transaction lists (issue 26, the overview's links:
 * "gifts today" opens the list of today's gifts): `range` on `listSuccess`, `listErrors` and `scan`
 * keeps the transactions with `from <= createdAt < to`, on every list, with or without a search,
 * paged newest first with the range's own total.
 *
 * @module
 */

import type { Store, Transaction } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, HOUR, txFixture } from "./fixtures.ts";
import { type ContractOptions, scanAll, withStore } from "./support.ts";

type Kind = Transaction["kind"];

/** Every page of a ranged list (`limit` 4), checking each page's total. */
async function rangedPages(
  store: Store,
  kind: Kind,
  query: { isMonthly?: boolean; search?: string; range: { from: string; to: string } },
): Promise<{ ids: string[]; total: number }> {
  const list = kind === "success"
    ? (q: { page: number; limit: number }) => store.transactions.listSuccess({ ...query, ...q })
    : (q: { page: number; limit: number }) => store.transactions.listErrors({ ...query, ...q });
  const ids: string[] = [];
  const { total } = await list({ page: 1, limit: 1 });
  for (let page = 1; page <= Math.ceil(total / 4) + 1; page++) {
    const answer = await list({ page, limit: 4 });
    assert.equal(answer.total, total, `total on page ${page}`);
    ids.push(...answer.data.map((tx) => tx.id));
  }
  return { ids, total };
}

/** The contract of `range` on the transaction lists. */
export async function transactionRangesContract(
  t: Deno.TestContext,
  { fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "transactions: a range keeps from <= createdAt < to on every list, paged newest first with its total",
    () =>
      withStore(fresh(), async (store) => {
        // One transaction an hour, a third of them failed, every other one monthly; two names.
        const txs: Transaction[] = [];
        for (let i = 0; i < 30; i++) {
          const kind: Kind = i % 3 === 1 ? "error" : "success";
          const tx = txFixture({
            kind,
            isMonthly: i % 2 === 0,
            createdAt: at(i * HOUR),
            user: { firstName: i % 4 === 0 ? "Dana" : "Ada", lastName: "Levi", email: `d${i}@example.org` },
          });
          await store.transactions.record(tx);
          txs.push(tx);
        }
        const expected = (kind: Kind, from: number, to: number, isMonthly?: boolean, name?: string) =>
          txs.filter((tx) =>
            tx.kind === kind && tx.createdAt >= at(from * HOUR) && tx.createdAt < at(to * HOUR) &&
            (isMonthly === undefined || tx.isMonthly === isMonthly) &&
            (name === undefined || tx.user.firstName.toLowerCase().includes(name))
          ).map((tx) => tx.id).reverse();
        const ranges: [number, number][] = [[5, 17], [0, 30], [-10, 3], [28, 100], [7, 8], [7, 7], [40, 50]];
        for (const [from, to] of ranges) {
          const range = { from: at(from * HOUR), to: at(to * HOUR) };
          for (const kind of ["success", "error"] as const) {
            for (const isMonthly of [undefined, true, false]) {
              const want = expected(kind, from, to, isMonthly);
              const got = await rangedPages(store, kind, { isMonthly, range });
              assert.deepEqual(got, { ids: want, total: want.length }, `${kind} ${isMonthly} ${from}..${to}`);
              const scanned = await scanAll(store, { kind, isMonthly, range }, 3);
              assert.deepEqual(scanned.ids, want, `scan ${kind} ${isMonthly} ${from}..${to}`);
              // With a search: the matches inside the range only.
              const searched = await rangedPages(store, kind, { isMonthly, range, search: "dana" });
              const wantSearched = expected(kind, from, to, isMonthly, "dana");
              assert.deepEqual(searched, { ids: wantSearched, total: wantSearched.length });
              const scannedSearch = await scanAll(store, { kind, isMonthly, range, search: "dana" }, 2);
              assert.deepEqual(scannedSearch.ids, wantSearched);
            }
          }
        }
        // An instant written with an offset is the same instant.
        const offset = await store.transactions.listSuccess({
          page: 1,
          limit: 100,
          range: { from: "2025-03-01T15:00:00+03:00", to: at(4 * HOUR) },
        });
        assert.deepEqual(offset.data.map((tx) => tx.id), expected("success", 2, 4));
        // No range: the whole list, as before.
        assert.equal((await store.transactions.listSuccess({ page: 1, limit: 1 })).total, 20);
        // A range that ends before it starts, or that is not made of instants, is refused.
        const bad = [{ from: at(5 * HOUR), to: at(4 * HOUR) }, { from: "yesterday", to: at(0) }];
        for (const range of bad) {
          await assert.rejects(
            () => store.transactions.listSuccess({ page: 1, limit: 10, range }),
            RangeError,
          );
          await assert.rejects(
            () => store.transactions.listErrors({ page: 1, limit: 10, range }),
            RangeError,
          );
          await assert.rejects(
            () => store.transactions.scan({ kind: "success", limit: 10, range }),
            RangeError,
          );
        }
      }),
  );

  await t.step(
    "transactions: a range over an imported list; transactions recorded later are outside an earlier batch",
    () =>
      withStore(fresh(), async (store) => {
        const txs = Array.from({ length: 40 }, (_, i) => txFixture({ createdAt: at(i * 1000) }));
        assert.equal(await store.transactions.import(txs), 40);
        const range = { from: at(10_000), to: at(30_000) };
        const want = txs.slice(10, 30).map((tx) => tx.id).reverse();
        const first = await store.transactions.scan({ kind: "success", range, limit: 5 });
        assert.deepEqual(first.data.map((tx) => tx.id), want.slice(0, 5));
        // A gift recorded meanwhile does not move the walk already started.
        await store.transactions.record(txFixture({ createdAt: at(50_000) }));
        const ids = first.data.map((tx) => tx.id);
        for (let before = first.next; before !== null;) {
          const batch = await store.transactions.scan({ kind: "success", range, limit: 7, before });
          ids.push(...batch.data.map((tx) => tx.id));
          before = batch.next;
        }
        assert.deepEqual(ids, want);
        assert.deepEqual((await scanAll(store, { kind: "success", range }, 7)).ids, want);
        const page = await store.transactions.listSuccess({ page: 2, limit: 8, range });
        assert.deepEqual(page, { data: txs.slice(14, 22).reverse(), total: 20 });
      }),
  );
}
