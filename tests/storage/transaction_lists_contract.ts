/**
 * The storage contract for reading transactions back (`store.transactions`): the success and
 * error lists (all, monthly, one-time) paged newest first with their totals, `scan()` in batches
 * as the pages read, and `dailyTotals()` per period of the bounds given (the museum's days) and
 * currency.
 *
 * @module
 */

import type { Transaction, TransactionBatch, TransactionScanQuery } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { addDays, dayStart } from "@/lib/core/zoned_time.ts";
import { MAX_TOTALS_PERIODS } from "@/lib/storage/queries.ts";
import { at, importFixtures, txFixture } from "./fixtures.ts";
import { allPages, type ContractOptions, everyList, scanAll, withStore } from "./support.ts";

/** The contract of the transaction lists, scans and totals; each step has fresh data of its own. */
export async function transactionListsContract(
  t: Deno.TestContext,
  { fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "transactions: listSuccess()/listErrors() page newest first, with totals, per list",
    () =>
      withStore(fresh(), async (store) => {
        const successes: Transaction[] = [];
        const errors: Transaction[] = [];
        for (let i = 0; i < 37; i++) {
          const tx = txFixture({ isMonthly: i % 3 === 0, createdAt: at(i * 1000) });
          await store.transactions.record(tx);
          successes.push(tx);
          if (i % 3 === 1) {
            const error = txFixture({ kind: "error", isMonthly: i % 2 === 0, createdAt: at(i * 1000 + 1) });
            await store.transactions.record(error);
            errors.push(error);
          }
        }
        const newestFirst = (list: Transaction[]) => list.map((tx) => tx.id).reverse();

        const all = await allPages((q) => store.transactions.listSuccess(q), 10, 37);
        assert.deepEqual(all.sizes, [10, 10, 10, 7, 0]);
        assert.deepEqual(all.ids, newestFirst(successes));
        assert.deepEqual(await store.transactions.listSuccess({ page: 5, limit: 10 }), {
          data: [],
          total: 37,
        });
        assert.deepEqual(await store.transactions.listSuccess({ page: 99, limit: 10 }), {
          data: [],
          total: 37,
        });
        // Whole transactions, as recorded.
        assert.deepEqual(
          (await store.transactions.listSuccess({ page: 1, limit: 2 })).data,
          successes.slice(-2).reverse(),
        );

        const monthly = successes.filter((tx) => tx.isMonthly);
        const oneTime = successes.filter((tx) => !tx.isMonthly);
        assert.deepEqual([monthly.length, oneTime.length], [13, 24]);
        const m = await allPages((q) => store.transactions.listSuccess({ ...q, isMonthly: true }), 5, 13);
        assert.deepEqual(m.sizes, [5, 5, 3, 0]);
        assert.deepEqual(m.ids, newestFirst(monthly));
        const o = await allPages((q) => store.transactions.listSuccess({ ...q, isMonthly: false }), 10, 24);
        assert.deepEqual(o.sizes, [10, 10, 4, 0]);
        assert.deepEqual(o.ids, newestFirst(oneTime));

        assert.deepEqual(errors.length, 12);
        const e = await allPages((q) => store.transactions.listErrors(q), 5, 12);
        assert.deepEqual(e.sizes, [5, 5, 2, 0]);
        assert.deepEqual(e.ids, newestFirst(errors));
        // Errors have monthly and one-time lists too.
        const monthlyErrors = errors.filter((tx) => tx.isMonthly);
        const oneTimeErrors = errors.filter((tx) => !tx.isMonthly);
        assert.deepEqual([monthlyErrors.length, oneTimeErrors.length], [6, 6]);
        const em = await allPages((q) => store.transactions.listErrors({ ...q, isMonthly: true }), 4, 6);
        assert.deepEqual(em.sizes, [4, 2, 0]);
        assert.deepEqual(em.ids, newestFirst(monthlyErrors));
        const eo = await allPages((q) => store.transactions.listErrors({ ...q, isMonthly: false }), 4, 6);
        assert.deepEqual(eo.ids, newestFirst(oneTimeErrors));
        assert.deepEqual(
          (await store.transactions.listErrors({ page: 2, limit: 5, isMonthly: true })).data,
          monthlyErrors.slice(0, 1),
        );
        // A page larger than the list.
        assert.deepEqual(
          (await store.transactions.listErrors({ page: 1, limit: 50 })).data,
          [...errors].reverse(),
        );

        for (
          const bad of [{ page: 0, limit: 10 }, { page: 1, limit: 0 }, { page: 1.5, limit: 10 }, {
            page: 1,
            limit: -1,
          }]
        ) {
          await assert.rejects(() => store.transactions.listSuccess(bad), RangeError, JSON.stringify(bad));
        }
      }),
  );

  // ---- scan ----

  await t.step(
    "transactions: scan() reads each list in batches, newest first, as its pages; later records stay out",
    () =>
      withStore(fresh(), async (store) => {
        assert.deepEqual(await store.transactions.scan({ kind: "success", limit: 10 }), {
          data: [],
          next: null,
        });
        const txs = importFixtures(130, 0);
        assert.deepEqual(await store.transactions.import(txs), 130);
        const lists = await everyList(store);
        const cases: [Omit<TransactionScanQuery, "limit">, string[]][] = [
          [{ kind: "success" }, lists.all.ids],
          [{ kind: "success", isMonthly: true }, lists.monthly.ids],
          [{ kind: "success", isMonthly: false }, lists.oneTime.ids],
          [{ kind: "error" }, lists.errors.ids],
          [{ kind: "error", isMonthly: true }, lists.monthlyErrors.ids],
          [{ kind: "error", isMonthly: false }, lists.oneTimeErrors.ids],
        ];
        for (const [query, ids] of cases) {
          for (const limit of [1, 7, ids.length, 1000]) {
            const scanned = await scanAll(store, query, limit);
            assert.deepEqual(scanned.ids, ids, `${JSON.stringify(query)} by ${limit}`);
            assert.ok(scanned.batches <= Math.floor(ids.length / limit) + 1, `${scanned.batches} batches`);
          }
        }
        // Whole transactions, as recorded; the cursor continues exactly below the batch.
        const first = await store.transactions.scan({ kind: "success", limit: 3 });
        const successes = txs.filter((tx) => tx.kind === "success");
        assert.deepEqual(first.data, successes.slice(-3).reverse());
        assert.ok(first.next !== null);
        // Records after the first batch are not in the rest of the walk.
        const late = txFixture({ createdAt: at(999_000) });
        await store.transactions.record(late);
        const rest: string[] = [];
        for (let before: string | null = first.next; before !== null;) {
          const batch: TransactionBatch = await store.transactions.scan({
            kind: "success",
            before,
            limit: 50,
          });
          rest.push(...batch.data.map((tx) => tx.id));
          before = batch.next;
        }
        assert.deepEqual(rest, successes.slice(0, -3).reverse().map((tx) => tx.id));
        assert.deepEqual((await store.transactions.scan({ kind: "success", limit: 1 })).data, [late]);

        for (
          const bad of [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { limit: 5, before: "x" }, {
            limit: 5,
            before: "0",
          }, { limit: 5, before: "-3" }]
        ) {
          await assert.rejects(
            () => store.transactions.scan({ kind: "success", ...bad }),
            RangeError,
            JSON.stringify(bad),
          );
        }
      }),
  );

  // ---- daily totals ----

  await t.step(
    "transactions: dailyTotals() sums successes per period of the bounds given, and currency",
    () =>
      withStore(fresh(), async (store) => {
        const day = (d: number, h = 12) => new Date(Date.UTC(2025, 4, d, h)).toISOString();
        const success = (
          createdAt: string,
          amount: number | null,
          currency: 1 | 2 | null,
          isMonthly = false,
        ) => txFixture({ createdAt, amount, currency, isMonthly });
        const txs = [
          success(day(1, 23), 999, 1), // before the periods
          success(new Date(Date.UTC(2025, 4, 2) - 1).toISOString(), 1, 2), // the last ms before them
          success(day(2, 0), 10_000, 1), // the first period's first instant
          success(day(2, 13), 550, 1, true),
          success(day(2, 14), 2_500, 2),
          txFixture({ kind: "error", createdAt: day(2, 15), amount: 7_000, currency: 1 }),
          success(day(2, 16), null, null), // unknown amount: not summed
          success(day(4, 9), 40_000, 2, true),
          success(day(4, 23), 1_000, 2),
          success(new Date(Date.UTC(2025, 4, 5) - 1).toISOString(), 5, 1), // the last period's last ms
          success(day(5, 0), 123, 1), // the last bound: in no period
          success(day(6), 456, 2),
        ];
        for (const tx of txs) await store.transactions.record(tx);
        const bounds = [day(2, 0), day(3, 0), day(4, 0), day(5, 0)];
        assert.deepEqual(await store.transactions.dailyTotals(bounds), [
          { period: 0, currency: 1, amount: 10_550, count: 2 },
          { period: 0, currency: 2, amount: 2_500, count: 1 },
          { period: 2, currency: 1, amount: 5, count: 1 },
          { period: 2, currency: 2, amount: 41_000, count: 2 },
        ]);
        // Offsets in the input are normalized; periods where nothing happened answer nothing.
        assert.deepEqual(
          await store.transactions.dailyTotals(["2025-05-04T02:00:00+02:00", "2025-05-05T00:00:00Z"]),
          [
            { period: 0, currency: 1, amount: 5, count: 1 },
            { period: 0, currency: 2, amount: 41_000, count: 2 },
          ],
        );
        assert.deepEqual(await store.transactions.dailyTotals([day(3, 0), day(4, 0)]), []);
        assert.deepEqual(await store.transactions.dailyTotals([day(20), day(30)]), []);
        for (
          const bad of [
            [day(5)], // no period
            [day(5), day(4)], // descending
            [day(4), day(4)], // an empty period
            ["soon", day(4)],
            Array.from({ length: MAX_TOTALS_PERIODS + 2 }, (_, i) =>
              new Date(Date.UTC(2025, 0, 1 + i)).toISOString()),
          ]
        ) {
          await assert.rejects(
            () =>
              store.transactions.dailyTotals(bad),
            RangeError,
            JSON.stringify(bad[0]),
          );
        }
      }),
  );

  await t.step(
    "transactions: dailyTotals() over the museum's days: 22:30 UTC is the next day in Jerusalem, across summer time",
    () =>
      withStore(fresh(), async (store) => {
        const zone = "Asia/Jerusalem";
        // Israel's clocks go forward on Friday 2026-03-27 (a 23-hour day) and back on Sunday
        // 2026-10-25 (a 25-hour day). The days' bounds are what the app computes (lib/core/zoned_time.ts).
        const spring = ["2026-03-26", "2026-03-27", "2026-03-28", "2026-03-29"];
        const autumn = ["2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27"];
        const gifts = [
          ["2026-03-26T21:59:59.999Z", 1], // 23:59:59.999 on the 26th (UTC+2)
          ["2026-03-26T22:30:00.000Z", 2], // 00:30 on the 27th, still the 26th in UTC
          ["2026-03-27T20:59:59.999Z", 4], // 23:59:59.999 on the 27th (UTC+3 since 02:00)
          ["2026-03-27T21:00:00.000Z", 8], // midnight starting the 28th
          ["2026-03-27T22:30:00.000Z", 16], // 01:30 on the 28th, the 27th in UTC
          ["2026-10-24T21:30:00.000Z", 32], // 00:30 on the 25th (UTC+3), the 24th in UTC
          ["2026-10-25T21:30:00.000Z", 64], // 23:30 on the 25th (UTC+2 since 02:00)
          ["2026-10-25T22:00:00.000Z", 128], // midnight starting the 26th
          ["2026-10-26T22:30:00.000Z", 256], // 00:30 on the 27th
        ] as const;
        for (const [createdAt, amount] of gifts) {
          await store.transactions.record(txFixture({ createdAt, amount, currency: 1 }));
        }
        const bounds = (days: string[]) =>
          [...days, addDays(days[days.length - 1], 1)].map((d) => dayStart(d, zone));
        assert.deepEqual(bounds(spring).slice(1, 3), [
          "2026-03-26T22:00:00.000Z",
          "2026-03-27T21:00:00.000Z",
        ]);
        assert.deepEqual(bounds(autumn).slice(1, 3), [
          "2026-10-24T21:00:00.000Z",
          "2026-10-25T22:00:00.000Z",
        ]);
        const sums = async (days: string[]) =>
          (await store.transactions.dailyTotals(bounds(days))).map((
            e,
          ) => [days[e.period], e.amount, e.count]);
        assert.deepEqual(await sums(spring), [
          ["2026-03-26", 1, 1],
          ["2026-03-27", 2 + 4, 2],
          ["2026-03-28", 8 + 16, 2],
        ]);
        assert.deepEqual(await sums(autumn), [
          ["2026-10-25", 32 + 64, 2],
          ["2026-10-26", 128, 1],
          ["2026-10-27", 256, 1],
        ]);
      }),
  );
}
