/**
 * The receipt PDF pool: the PDF comes from a worker, the event loop stays free while it is drawn,
 * and nothing draws one on the event loop (the drawing refuses; a pool without workers fails the
 * receipt); a worker per spare core; a full queue refuses at once; close() fails what waits and
 * terminates the workers; a drawn PDF is kept a while per receipt, language and variant.
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
  const pool = new ReceiptPdfPool({ workers: 1, maxQueue: 1 });
  const first = pool.render(receipt, "en", options);
  const second = pool.render(receipt, "he", options);
  await assert.rejects(() => pool.render(receipt, "ru", options), ReceiptsBusyError);
  await pool.close();
  await assert.rejects(() => first, /closed/);
  await assert.rejects(() => second, /closed/);
  await assert.rejects(() => pool.render(receipt, "en", options), /closed/);
});

Deno.test("no receipt is drawn on the event loop: the drawing refuses to run outside a worker", async () => {
  const { renderReceiptPdf } = await import("./pdf.ts");
  await assert.rejects(() => renderReceiptPdf(receipt, "en", options), /worker/);
});

Deno.test("ReceiptPdfPool: where no worker can start, a receipt fails; it is never drawn on the event loop", async () => {
  const warnings: string[] = [];
  const pool = new ReceiptPdfPool({
    workers: 1,
    createWorker: () => {
      throw new Error("no workers here");
    },
    log: { warn: (msg, fields) => warnings.push(`${msg}: ${fields?.error}`) },
  });
  try {
    await assert.rejects(() => pool.render(receipt, "en", options), /unavailable/);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /no workers here/);
  } finally {
    await pool.close();
  }
});

Deno.test("ReceiptPdfPool: a worker per spare core, drawing receipts side by side", async () => {
  const pool = new ReceiptPdfPool({ workers: 2 });
  try {
    const pdfs = await Promise.all(
      ["IL-2026-000011", "IL-2026-000012", "IL-2026-000013", "IL-2026-000014"].map((number, i) =>
        pool.render(receiptFixture({ id: `id${i}`, number }), "en", options)
      ),
    );
    assert.equal(pool.stats.workers, 2, "two workers started for four receipts at once");
    assert.equal(pool.stats.accepted, 4);
    for (const [i, pdf] of pdfs.entries()) assert.ok((await pdfText(pdf)).includes(`IL-2026-00001${i + 1}`));
  } finally {
    await pool.close();
  }
});

Deno.test("ReceiptPdfPool: a drawn receipt is kept for a while, per receipt, language and variant", async () => {
  const pool = new ReceiptPdfPool({ workers: 1 });
  try {
    const [a, b] = await Promise.all([
      pool.render(receipt, "en", options),
      pool.render(receipt, "en", options),
    ]);
    const c = await pool.render(receipt, "en", options);
    assert.equal(pool.stats.accepted, 1, "drawn once: the same receipt, language and options");
    assert.deepEqual(a, b);
    assert.deepEqual(a, c);
    c.fill(0);
    assert.deepEqual(await pool.render(receipt, "en", options), a, "each caller gets its own copy");
    await pool.render(receipt, "he", options);
    await pool.render({ ...receipt, reportNumber: "ITA-1" }, "en", options);
    await pool.render(receipt, "en", {
      ...options,
      credit: { number: "IL-2026-000007-C1", refundedAt: receipt.issuedAt, amount: 100 },
    });
    assert.equal(pool.stats.accepted, 4, "another language, a changed receipt, a credit receipt: drawn anew");
  } finally {
    await pool.close();
  }
});
