/**
 * The write queues of one Deno KV handle (`context.ts`): a receipt's number is issued while the
 * payments' records wait in their own queue (issue 24: at a gala, receipts waited behind every
 * payment's writes), and the writes of one queue still run one at a time, in order.
 *
 * @module
 */
import assert from "node:assert/strict";
import { receiptFixture } from "@/tests/storage/receipts_contract.ts";
import { createKvContext } from "./context.ts";
import { kvReceipts } from "./receipts.ts";

Deno.test("KV write queues: a receipt is numbered while the payments' writes are held up", async () => {
  const kv = await Deno.openKv(":memory:");
  const ctx = createKvContext(kv);
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const order: string[] = [];
  try {
    // A payment's record that does not end until released, and one more behind it.
    const first = ctx.oneAtATime(async () => {
      await held;
      order.push("first record");
    });
    const second = ctx.oneAtATime(() => Promise.resolve(void order.push("second record")));
    const issued = kvReceipts(ctx).issue(receiptFixture("IL-2026"));
    const timeout = new Promise<"held up">((resolve) => setTimeout(() => resolve("held up"), 2_000));
    const result = await Promise.race([issued, timeout]);
    assert.notEqual(result, "held up", "the receipt waited for the payments' writes");
    assert.equal((result as Awaited<typeof issued>).receipt.number, "IL-2026-000001");
    assert.deepEqual(order, [], "the records wait for the one before them");
    release();
    await Promise.all([first, second]);
    assert.deepEqual(order, ["first record", "second record"]);
  } finally {
    release();
    kv.close();
  }
});
