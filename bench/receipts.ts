/**
 * `deno task bench:receipts`: the time to render one receipt PDF (`lib/receipts/pdf.ts`), what the
 * receipt email's sender pays per message, in the languages that differ most: English (Latin),
 * Hebrew (right to left, through the bidi algorithm) and Russian (Cyrillic). The first render of
 * the process is reported apart: it reads the font files and loads the libraries once.
 *
 * Each render is a whole `renderReceiptPdf` call (a new document, the font embedded and subset, the
 * QR code drawn, saved to bytes), one after another on one thread, as the sender renders them.
 * Prints a Markdown table for `bench/README.md`.
 *
 * | variable       | default |
 * |----------------|---------|
 * | `BENCH_COUNT`  | `200` renders per language, after 10 to warm up |
 *
 * @module
 */
import { renderReceiptPdf } from "../lib/receipts/pdf.ts";
import type { Lang } from "../lib/shared/languages.ts";
import { receiptFixture } from "../tests/helpers/receipts.ts";
import { envNumber, machine } from "./common.ts";

const COUNT = envNumber("BENCH_COUNT", 200);
const WARMUP = 10;

const receipt = receiptFixture();
const verifyUrl =
  "https://donate.example.org/en/receipts/verify?c=q2V0bUoHx3f1k8Zr0aTQ9w_L.AbCdEfGhIjKlMnOpQrStUv";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

console.log(await machine());
let started = performance.now();
const first = await renderReceiptPdf(receipt, "en", { verifyUrl });
console.log(
  `first render of the process: ${(performance.now() - started).toFixed(0)} ms (${first.length} bytes)\n`,
);

console.log("| language | renders | p50 ms | p99 ms | mean ms | PDF bytes |");
console.log("|----------|--------:|-------:|-------:|--------:|----------:|");
for (const lang of ["en", "he", "ru"] as Lang[]) {
  for (let i = 0; i < WARMUP; i++) await renderReceiptPdf(receipt, lang, { verifyUrl });
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < COUNT; i++) {
    started = performance.now();
    bytes = (await renderReceiptPdf(receipt, lang, { verifyUrl })).length;
    times.push(performance.now() - started);
  }
  const sorted = times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `| ${lang} | ${COUNT} | ${percentile(sorted, 0.5).toFixed(1)} | ${
      percentile(sorted, 0.99).toFixed(1)
    } | ` +
      `${mean.toFixed(1)} | ${bytes} |`,
  );
}
