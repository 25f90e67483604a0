import assert from "node:assert/strict";
import type postgres from "postgres";
import { transactionRunner } from "./availability.ts";
import { StorageUnavailableError } from "@/lib/storage/types.ts";

/** A stand-in pool whose `begin` runs the body at once (no server needed). */
const fakeSql = { begin: (fn: (tx: unknown) => Promise<unknown>) => fn({}) } as unknown as postgres.Sql;

Deno.test("transactionRunner: a transaction that waits too long for a connection leaves the queue", async () => {
  const transaction = transactionRunner(fakeSql, 1, 50);
  let release!: () => void;
  const holding = transaction(() => new Promise<string>((r) => release = () => r("first")));
  // No slot within 50 ms: refused as unavailable (the caller's 503), and not run later.
  let ranLate = false;
  await assert.rejects(
    () => transaction(() => Promise.resolve(ranLate = true)),
    StorageUnavailableError,
  );
  release();
  assert.equal(await holding, "first");
  // The next transaction runs at once: nothing stale is queued ahead of it.
  assert.equal(await transaction(() => Promise.resolve("next")), "next");
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(ranLate, false, "the refused transaction's body never ran");
});

Deno.test("transactionRunner: queued transactions run in order as slots free up", async () => {
  const transaction = transactionRunner(fakeSql, 2, 1_000);
  const order: number[] = [];
  const all = await Promise.all(Array.from({ length: 6 }, (_, i) =>
    transaction(async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push(i);
      return i;
    })));
  assert.deepEqual(all, [0, 1, 2, 3, 4, 5]);
  assert.equal(order.length, 6);
});
