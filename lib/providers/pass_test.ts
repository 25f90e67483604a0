/**
 * The reconciliation passes' one shape (`pass.ts`), which payments, card updates and refunds share:
 * each item's outcome counted; a provider that cannot be reached counted as such and logged, the
 * pass going on with the next item; any other error thrown; a pass stopped before an item
 * (a lost lease, a cap) answered incomplete; one summary line with the counts.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { runPass } from "./pass.ts";
import { ProviderError } from "./provider.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: createLogger((line) => lines.push(JSON.parse(line))) };
}

async function* batches(...pages: number[][]) {
  for (const page of pages) yield* page;
}

Deno.test("runPass: counts each item's outcome; an unreachable provider is counted, logged, and the pass goes on", async () => {
  const { lines, log } = capture();
  const seen: number[] = [];
  const result = await runPass({
    name: "things reconciled",
    log,
    outcomes: ["done", "waiting", "unreachable"],
    unreachable: "unreachable",
    items: batches([1, 2], [3, 4]),
    describe: (n) => ({ item: n }),
    each: (n) => {
      seen.push(n);
      if (n === 2) return Promise.reject(new ProviderError("down", "timeout"));
      return Promise.resolve(n % 2 === 1 ? "done" : "waiting");
    },
  });
  assert.deepEqual(seen, [1, 2, 3, 4]);
  assert.deepEqual(result, { counts: { done: 2, waiting: 1, unreachable: 1 }, complete: true });
  const warning = lines.find((l) => l.level === "warn")!;
  assert.match(String(warning.msg), /could not reach the payment provider/);
  assert.deepEqual([warning.item, warning.pass, warning.code], [2, "things reconciled", "timeout"]);
  const summary = lines.filter((l) => l.msg === "things reconciled");
  assert.equal(summary.length, 1);
  assert.deepEqual([summary[0].done, summary[0].waiting, summary[0].unreachable], [2, 1, 1]);
  assert.equal(typeof summary[0].ms, "number");
});

Deno.test("runPass: stops where `proceed` says so (incomplete); other errors are thrown; quiet when empty", async () => {
  const { lines, log } = capture();
  const stopped = await runPass({
    name: "capped",
    log,
    outcomes: ["done"],
    unreachable: "done",
    items: [1, 2, 3],
    describe: () => ({}),
    proceed: (n) => n < 3,
    each: () => Promise.resolve("done"),
    summary: () => ({ holder: "h1" }),
  });
  assert.deepEqual(stopped, { counts: { done: 2 }, complete: false });
  assert.equal(lines.find((l) => l.msg === "capped")?.holder, "h1");
  await assert.rejects(
    () =>
      runPass({
        name: "broken",
        log,
        outcomes: ["done"],
        unreachable: "done",
        items: [1],
        describe: () => ({}),
        each: () => Promise.reject(new TypeError("a bug")),
      }),
    TypeError,
  );
  const before = lines.length;
  await runPass({
    name: "empty",
    log,
    outcomes: ["done"],
    unreachable: "done",
    items: [],
    describe: () => ({}),
    each: () => Promise.resolve("done"),
  });
  assert.equal(lines.length, before, "nothing looked at: no line");
});
