import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import type { Receipt, Store } from "@/lib/storage/types.ts";
import { ErasureNotConfirmedError } from "./erasure.ts";
import {
  MAX_RECEIPTS_PER_DOWNLOAD,
  receiptYears,
  TooManyReceiptsError,
  yearReceiptsZip,
} from "./year_receipts.ts";

/** A receipt of `series` numbered `sequence`, issued at `issuedAt`. */
function receipt(series: string, sequence: number): Receipt {
  return {
    id: `receipt_${series}_${sequence}_aaaaaaaa`,
    series,
    sequence,
    number: `${series}-${String(sequence).padStart(6, "0")}`,
    issuedAt: `${series.slice(-4)}-02-01T10:00:00.000Z`,
  } as Receipt;
}

/** A store whose address has these receipts (newest first, as `listByDonors` answers). */
function storeWith(receipts: Receipt[]): Pick<Store, "donors" | "receipts"> {
  return {
    donors: { idsByEmail: () => Promise.resolve(["d1"]) },
    receipts: { listByDonors: () => Promise.resolve(receipts) },
  } as unknown as Pick<Store, "donors" | "receipts">;
}

Deno.test("receiptYears: each year with receipts once, newest first", () => {
  assert.deepEqual(
    receiptYears([receipt("US-2026", 1), receipt("IL-2025", 9), receipt("IL-2026", 3)]),
    [2026, 2025],
  );
  assert.deepEqual(receiptYears([]), []);
});

Deno.test("yearReceiptsZip: the year's receipts only, two drawn at a time, stored in the ZIP", async () => {
  const receipts = [
    receipt("IL-2026", 3),
    receipt("US-2026", 1),
    receipt("IL-2025", 9),
    receipt("IL-2026", 2),
    receipt("IL-2026", 1),
  ];
  let drawing = 0;
  let most = 0;
  const renderPdf = async (r: Receipt, lang: string) => {
    most = Math.max(most, ++drawing);
    await new Promise((resolve) => setTimeout(resolve, 5));
    drawing--;
    return new TextEncoder().encode(`%PDF- ${r.number} ${lang}`);
  };
  const deps = {
    store: storeWith(receipts),
    appSecret: "s".repeat(32),
    origin: "https://x.example",
    renderPdf,
  };
  const zip = await yearReceiptsZip(deps, "a@example.org", 2026, "he");
  assert.ok(zip);
  assert.equal(zip.filename, "receipts-2026.zip");
  assert.equal(zip.count, 4);
  assert.equal(most, 2, "at most two PDFs wait for the worker at once");
  const files = unzipSync(zip.content);
  assert.deepEqual(Object.keys(files), [
    "receipt-IL-2026-000001.pdf",
    "receipt-IL-2026-000002.pdf",
    "receipt-US-2026-000001.pdf",
    "receipt-IL-2026-000003.pdf",
  ]);
  assert.equal(new TextDecoder().decode(files["receipt-IL-2026-000002.pdf"]), "%PDF- IL-2026-000002 he");
  assert.equal(await yearReceiptsZip(deps, "a@example.org", 2024, "he"), null, "no receipt that year");
});

Deno.test("yearReceiptsZip: more than one download holds is refused (413), before drawing any", async () => {
  const receipts = Array.from({ length: MAX_RECEIPTS_PER_DOWNLOAD + 1 }, (_, i) => receipt("IL-2026", i + 1));
  let drawn = 0;
  const deps = {
    store: storeWith(receipts),
    appSecret: "s".repeat(32),
    origin: "https://x.example",
    renderPdf: () => Promise.resolve(new Uint8Array(drawn++)),
  };
  const error = await yearReceiptsZip(deps, "a@example.org", 2026, "en").catch((e) => e);
  assert.ok(error instanceof TooManyReceiptsError);
  assert.equal(drawn, 0);
  assert.equal(errorAnswer(error)?.status, 413);
  assert.equal(errorAnswer(new ErasureNotConfirmedError())?.status, 400);
});
