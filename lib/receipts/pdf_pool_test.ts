/**
 * The receipt PDF pool: the PDF comes from the worker (the same bytes' text as rendered in-thread),
 * the event loop stays free while it is drawn, a full queue refuses at once, and close() fails what
 * waits and terminates the worker.
 */
import assert from "node:assert/strict";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { receiptFixture } from "@/tests/helpers/receipts.ts";
import { ReceiptsBusyError } from "./errors.ts";
import { ReceiptPdfPool } from "./pdf_pool.ts";

const receipt = receiptFixture({ number: "IL-2026-000007", sequence: 7 });

const options = { verifyUrl: "https://donate.example.org/en/receipts/verify?c=abc" };

Deno.test("ReceiptPdfPool: the worker draws the PDF while the event loop keeps answering", async () => {
  const pool = new ReceiptPdfPool();
  try {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const pdfs = await Promise.all([
      pool.render(receipt, "en", options),
      pool.render(receipt, "he", options),
    ]);
    clearInterval(timer);
    assert.ok((await pdfText(pdfs[0])).includes("IL-2026-000007"));
    assert.ok((await pdfText(pdfs[1])).includes("קבלה על תרומה"));
    // The first render loads pdf-lib and the font (hundreds of ms): on the event loop no tick would run.
    assert.ok(ticks > 10, `the event loop ran while the worker drew (${ticks} ticks)`);
  } finally {
    await pool.close();
  }
});

Deno.test("ReceiptPdfPool: a full queue refuses at once; close() fails what waits", async () => {
  const pool = new ReceiptPdfPool({ maxQueue: 1 });
  const first = pool.render(receipt, "en", options);
  const second = pool.render(receipt, "en", options);
  await assert.rejects(() => pool.render(receipt, "en", options), ReceiptsBusyError);
  await pool.close();
  await assert.rejects(() => first, /closed/);
  await assert.rejects(() => second, /closed/);
  await assert.rejects(() => pool.render(receipt, "en", options), /closed/);
});
