import assert from "node:assert/strict";
import type { DailyTotal, Store } from "@/lib/storage/types.ts";
import { keptTotals } from "./totals_cache.ts";

/** A store whose `dailyTotals` answers its `answers` in turn (an Error rejects), counting reads. */
function fakeStore(answers: (number | Error)[]) {
  const reads: string[][] = [];
  const store = {
    transactions: {
      dailyTotals(bounds: readonly string[]): Promise<DailyTotal[]> {
        reads.push([...bounds]);
        const next = answers.shift() ?? 0;
        return next instanceof Error
          ? Promise.reject(next)
          : Promise.resolve([{ period: 0, currency: 1, amount: next, count: 1 }]);
      },
    },
  } as unknown as Store;
  return { store, reads };
}

const B = ["2026-11-28T22:00:00.000Z", "2026-11-29T22:00:00.000Z"];
const amount = async (p: Promise<DailyTotal[]>) => (await p)[0].amount;

Deno.test("keptTotals: memory while fresh; the kept sum at once while one read refreshes it", async () => {
  const { store, reads } = fakeStore([1, 2, 3]);
  let clock = 0;
  const now = () => clock;
  assert.equal(await amount(keptTotals(store, B, 100, now)), 1);
  clock = 99;
  assert.equal(await amount(keptTotals(store, B, 100, now)), 1);
  assert.equal(reads.length, 1);
  // Old: answered as kept, refreshed once however many ask meanwhile.
  clock = 100;
  const asked = [keptTotals(store, B, 100, now), keptTotals(store, B, 100, now)];
  assert.deepEqual(await Promise.all(asked.map(amount)), [1, 1]);
  assert.equal(reads.length, 2);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(await amount(keptTotals(store, B, 100, now)), 2);
  assert.equal(reads.length, 2);
  // Other periods (the next museum day) are read for themselves.
  assert.equal(await amount(keptTotals(store, [B[1], "2026-11-30T22:00:00.000Z"], 100, now)), 3);
});

Deno.test("keptTotals: a failed read is not kept, and a failed refresh keeps the old sum", async () => {
  const { store, reads } = fakeStore([new Error("storage went away"), 5, new Error("again"), 6]);
  let clock = 0;
  const now = () => clock;
  await assert.rejects(() => keptTotals(store, B, 100, now), /storage went away/);
  assert.equal(await amount(keptTotals(store, B, 100, now)), 5);
  clock = 200;
  assert.equal(await amount(keptTotals(store, B, 100, now)), 5);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(await amount(keptTotals(store, B, 100, now)), 5);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(await amount(keptTotals(store, B, 100, now)), 6);
  assert.equal(reads.length, 4);
});
