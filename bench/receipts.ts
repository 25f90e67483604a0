/**
 * `deno task bench:receipts`: what a receipt PDF costs, drawn as the app draws it: by the receipt
 * workers (`lib/receipts/pdf_pool.ts`), never on the event loop.
 *
 * 1. One at a time: each render waits for the previous, one worker, so the time is a receipt's own
 *    (the job's round trip to the worker included, a fraction of a millisecond), in the languages
 *    that differ most: English (Latin), Hebrew (right to left, through the bidi algorithm) and
 *    Russian (Cyrillic). The first render of the process is reported apart: it starts the worker,
 *    loads the libraries and prepares the font.
 * 2. Throughput: receipts in all five languages, 32 waiting at a time, through a pool of the
 *    app's default size (`RECEIPT_WORKERS`): receipts a second.
 *
 * Every receipt is a different one (its own id, number, donor name, amount and dates, so its own
 * QR code and text), as the app draws them: nothing of one receipt's own text is known from the
 * one before, and the pool's cache of drawn PDFs never answers. Prints Markdown for
 * `bench/README.md`.
 *
 * | variable         | default |
 * |------------------|---------|
 * | `BENCH_COUNT`    | `200` renders per language one at a time, after 10 to warm up |
 * | `BENCH_THROUGHPUT` | `500` renders for the throughput |
 * | `RECEIPT_WORKERS` | the app's default: a worker per spare core |
 *
 * @module
 */
import { ReceiptPdfPool } from "@/lib/receipts/pdf_pool.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Receipt } from "@/lib/storage/types.ts";
import { receiptFixture } from "@/tests/helpers/receipts.ts";
import { envNumber, machine } from "./common.ts";

const COUNT = envNumber("BENCH_COUNT", 200);
const THROUGHPUT = envNumber("BENCH_THROUGHPUT", 500);
const WORKERS = envNumber("RECEIPT_WORKERS", Math.max(1, navigator.hardwareConcurrency - 1));
const WARMUP = 10;
const IN_FLIGHT = 32;

const NAMES: Record<Lang, string[]> = {
  en: ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra"],
  he: ["עדה לאבלייס", "רחל בלובשטיין", "יהודה עמיחי", "לאה גולדברג", "חיים נחמן ביאליק"],
  ru: ["Софья Ковалевская", "Андрей Колмогоров", "Анна Ахматова", "Лев Толстой", "Марина Цветаева"],
  pt: ["Clarice Lispector", "João Guimarães Rosa", "Cecília Meireles", "Machado de Assis", "Tarsila Amaral"],
  es: ["Gabriela Mistral", "Jorge Luis Borges", "Frida Kahlo", "Pablo Neruda", "Sor Juana Inés"],
};

let serial = 0;

/** A receipt of its own: every field a donor's gift sets differs from the last one's. */
function receipt(lang: Lang): Receipt {
  const n = ++serial;
  const day = new Date(Date.UTC(2026, 0, 1) + (n % 360) * 86_400_000 + (n % 24) * 3_600_000);
  return receiptFixture({
    id: `bench${String(n).padStart(8, "0")}${crypto.randomUUID().slice(0, 11)}`,
    sequence: n,
    number: `IL-2026-${String(n).padStart(6, "0")}`,
    donorName: `${NAMES[lang][n % 5]} ${n}`,
    amount: 1_000 + ((n * 7_919) % 500_000),
    issuedAt: day.toISOString(),
    giftDate: new Date(day.getTime() - 3_600_000).toISOString(),
    cardLast4: String(1_000 + (n % 9_000)),
    isMonthly: n % 3 === 0,
  });
}

const options = (r: Receipt, lang: Lang) => ({
  verifyUrl: `https://donate.example.org/${lang}/receipts/verify?c=${r.id}.AbCdEfGhIjKlMnOpQrStUv`,
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

console.log(await machine());

const single = new ReceiptPdfPool({ workers: 1 });
try {
  const one = receipt("en");
  let started = performance.now();
  const first = await single.render(one, "en", options(one, "en"));
  console.log(
    `first render of the process (the worker started, the font prepared): ${
      (performance.now() - started).toFixed(0)
    } ms (${first.length} bytes)\n`,
  );
  console.log("One at a time, one worker:\n");
  console.log("| language | renders | p50 ms | p99 ms | mean ms | PDF bytes (mean) |");
  console.log("| -------- | ------: | -----: | -----: | ------: | ---------------: |");
  for (const lang of ["en", "he", "ru"] as Lang[]) {
    for (let i = 0; i < WARMUP; i++) {
      const r = receipt(lang);
      await single.render(r, lang, options(r, lang));
    }
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < COUNT; i++) {
      const r = receipt(lang);
      started = performance.now();
      bytes += (await single.render(r, lang, options(r, lang))).length;
      times.push(performance.now() - started);
    }
    const sorted = times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(
      `| ${lang} | ${COUNT} | ${percentile(sorted, 0.5).toFixed(1)} | ${
        percentile(sorted, 0.99).toFixed(1)
      } | ${mean.toFixed(1)} | ${Math.round(bytes / COUNT)} |`,
    );
  }
} finally {
  await single.close();
}

const pool = new ReceiptPdfPool({ workers: WORKERS });
try {
  const langs: Lang[] = ["en", "he", "ru", "pt", "es"];
  // Warm every worker (each prepares its own font) before the clock starts.
  await Promise.all(Array.from({ length: WORKERS * 2 }, (_, i) => {
    const r = receipt(langs[i % 5]);
    return pool.render(r, langs[i % 5], options(r, langs[i % 5]));
  }));
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < THROUGHPUT) {
      const lang = langs[next++ % 5];
      const r = receipt(lang);
      await pool.render(r, lang, options(r, lang));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nThroughput: ${THROUGHPUT} receipts (five languages), ${IN_FLIGHT} waiting at a time, ${WORKERS} worker(s): ` +
      `${(THROUGHPUT / seconds).toFixed(0)} receipts a second`,
  );
} finally {
  await pool.close();
}
