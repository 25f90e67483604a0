/**
 * The cache of drawn PDFs: one drawing per key while it lasts (concurrent callers included), a
 * key per receipt, language and whatever the document is drawn from, bounded in entries, bytes and
 * time, least recently used out first; a failed drawing is not kept.
 */
import assert from "node:assert/strict";
import { receiptFixture } from "@/tests/helpers/receipts.ts";
import { PdfCache, receiptPdfKey } from "./pdf_cache.ts";

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

/** A cache on a clock the test moves, and a drawing that counts. */
function fixture(options: { maxEntries?: number; maxBytes?: number; ttlMs?: number } = {}) {
  let now = 0;
  const cache = new PdfCache({ maxEntries: 3, maxBytes: 1_000, ttlMs: 60_000, ...options, now: () => now });
  const drawn: string[] = [];
  const draw = (key: string, size = 100) => () => (drawn.push(key), Promise.resolve(bytes(size)));
  return { cache, drawn, draw, tick: (ms: number) => now += ms };
}

Deno.test("PdfCache: drawn once while it lasts, concurrent callers sharing the drawing", async () => {
  const { cache, drawn, draw, tick } = fixture();
  const [a, b] = await Promise.all([cache.get("a", draw("a")), cache.get("a", draw("a"))]);
  await cache.get("a", draw("a"));
  assert.deepEqual(drawn, ["a"]);
  assert.deepEqual(a, b);
  a.fill(9);
  assert.deepEqual(await cache.get("a", draw("a")), bytes(100), "every caller gets its own copy");
  tick(60_001);
  await cache.get("a", draw("a"));
  assert.deepEqual(drawn, ["a", "a"], "drawn again once its time is over");
  assert.deepEqual(cache.stats, { entries: 1, bytes: 100, hits: 2, misses: 2 });
});

Deno.test("PdfCache: bounded in entries and bytes, the least recently used out first", async () => {
  const { cache, drawn, draw } = fixture();
  for (const key of ["a", "b", "c"]) await cache.get(key, draw(key));
  await cache.get("a", draw("a")); // a is now the most recently used
  await cache.get("d", draw("d")); // four entries: b goes
  assert.deepEqual(cache.stats.entries, 3);
  await cache.get("a", draw("a"));
  await cache.get("b", draw("b"));
  assert.deepEqual(drawn, ["a", "b", "c", "d", "b"]);

  await cache.get("big", draw("big", 900)); // 1,200 bytes with the others: the oldest go until it fits
  assert.ok(cache.stats.bytes <= 1_000, `${cache.stats.bytes} bytes`);
  await cache.get("huge", draw("huge", 1_001)); // larger than the whole cache: answered, never kept
  await cache.get("huge", draw("huge", 1_001));
  assert.deepEqual(drawn.filter((k) => k === "huge").length, 2);
  assert.ok(cache.stats.bytes <= 1_000);
});

Deno.test("PdfCache: a failed drawing is not kept", async () => {
  const { cache, drawn, draw } = fixture();
  await assert.rejects(() => cache.get("a", () => Promise.reject(new Error("busy"))), /busy/);
  await cache.get("a", draw("a"));
  assert.deepEqual(drawn, ["a"]);
});

Deno.test("receiptPdfKey: the receipt, the language and everything the document is drawn from", () => {
  const receipt = receiptFixture();
  const options = { verifyUrl: "https://donate.example.org/en/receipts/verify?c=abc" };
  const key = receiptPdfKey(receipt, "en", options);
  assert.ok(key.startsWith(`${receipt.id}:en:`));
  assert.equal(receiptPdfKey({ ...receipt }, "en", { ...options }), key);
  const others = [
    receiptPdfKey(receipt, "he", options),
    receiptPdfKey({ ...receipt, reportNumber: "ITA-1" }, "en", options),
    receiptPdfKey(receipt, "en", { verifyUrl: `${options.verifyUrl}x` }),
    receiptPdfKey(receipt, "en", {
      ...options,
      credit: { number: "IL-2026-000123-C1", refundedAt: receipt.issuedAt, amount: 100 },
    }),
    // A variant of the document (say, the Israeli ID number masked) is an option like any other.
    receiptPdfKey(receipt, "en", { ...options, variant: "masked" } as typeof options),
  ];
  assert.equal(new Set([key, ...others]).size, 6);
});
