import assert from "node:assert/strict";
import type { RefundTotals, Store, Transaction, TransactionScanQuery } from "@/lib/storage/types.ts";
import { BOM, formatAmount, formatInZone, formatUtc } from "@/lib/core/csv.ts";
import {
  EXPORT_COLUMNS,
  exportCells,
  exportFileName,
  exportHeader,
  mergeNewestFirst,
  REFUND_COLUMNS,
  transactionsCsv,
} from "./transactions_export.ts";

let n = 0;
function tx(overrides: Partial<Transaction> = {}): Transaction {
  const kind = overrides.kind ?? "success";
  n++;
  return {
    id: `tx${n}`,
    kind,
    statusCode: kind === "success" ? "000" : "033",
    isMonthly: false,
    createdAt: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
    donorId: `d${n}`,
    user: { firstName: "Dana", lastName: "Levi", email: "dana@example.org" },
    amount: 10_000,
    currency: 1,
    resultData: kind === "success"
      ? { CreditCardNumber: "458045******4580", CreditType: "1", DebitTotal: "10000", DebitCurrency: 1 }
      : null,
    errorMessage: kind === "success" ? null : "Invalid card number",
    provider: "sandbox",
    providerTransactionId: `p${n}`,
    ...overrides,
  };
}

/** A store whose lists are the given arrays (newest first), paged by scan() like the real ones. */
function fakeStore(
  lists: { success: Transaction[]; error: Transaction[] },
  fail?: (call: number) => boolean,
) {
  const calls: TransactionScanQuery[] = [];
  const refundReads: number[] = [];
  const store = {
    transactions: {
      scan(query: TransactionScanQuery) {
        calls.push(query);
        if (fail?.(calls.length)) return Promise.reject(new Error(`storage down at call ${calls.length}`));
        const list = lists[query.kind].filter((t) =>
          query.isMonthly === undefined || t.isMonthly === query.isMonthly
        );
        const start = query.before ? Number(query.before) : 0;
        const data = list.slice(start, start + query.limit);
        const end = start + data.length;
        return Promise.resolve({ data, next: end < list.length ? String(end) : null });
      },
    },
    // Every third gift of the lists half refunded, one in ten with a refund waiting (issue 16).
    refunds: {
      totals(ids: string[]) {
        refundReads.push(ids.length);
        const out = new Map<string, RefundTotals>();
        for (const id of ids) {
          const tx = [...lists.success].find((t) => t.id === id);
          const i = tx ? lists.success.indexOf(tx) : -1;
          if (i >= 0 && i % 3 === 0) out.set(id, { refunded: 5000, pending: i % 10 === 0 ? 100 : 0 });
        }
        return Promise.resolve(out);
      },
    },
  } as unknown as Store;
  return { store, calls, refundReads };
}

/** Keeps the BOM, which `TextDecoder` and `Response.text()` drop by default. */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A small RFC 4180 reader: records of fields. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') (field += '"'), (i += 2);
        else if (text[i] === '"') {
          i++;
          break;
        } else field += text[i++];
      }
    } else if (text[i] === ",") (record.push(field), (field = ""), i++);
    else if (text[i] === "\r" && text[i + 1] === "\n") {
      record.push(field), records.push(record), (record = []), (field = ""), (i += 2);
    } else field += text[i++];
  }
  assert.equal(field + record.join(""), "", "the last record ends with CRLF");
  return records;
}

const ZONE = "Asia/Jerusalem";

Deno.test("formatUtc, formatInZone, formatAmount and exportFileName", () => {
  assert.equal(formatUtc("2026-11-22T09:05:07.123Z"), "2026-11-22 09:05:07");
  assert.equal(formatUtc("2026-11-22T23:59:59+02:00"), "2026-11-22 21:59:59");
  assert.equal(formatUtc("not a date"), "");
  // The museum's wall clock: 22:30 UTC is 00:30 the next day in Jerusalem (UTC+2), 01:30 in summer (UTC+3).
  assert.equal(formatInZone("2026-11-22T22:30:00.000Z", ZONE), "2026-11-23 00:30:00");
  assert.equal(formatInZone("2026-07-22T22:30:05.999Z", ZONE), "2026-07-23 01:30:05");
  assert.equal(formatInZone("2026-11-22T22:30:00.000Z", "America/New_York"), "2026-11-22 17:30:00");
  assert.equal(formatInZone("2026-11-22T22:30:00.000Z", "UTC"), "2026-11-22 22:30:00");
  assert.equal(formatInZone("not a date", ZONE), "");
  assert.equal(formatAmount(10_000), "100.00");
  assert.equal(formatAmount(5), "0.05");
  assert.equal(formatAmount(1_234_567), "12345.67");
  assert.equal(formatAmount(0), "0.00");
  assert.equal(formatAmount(-250), "-2.50");
  assert.equal(formatAmount(null), "");
  assert.equal(formatAmount(1.5), "");
  // The museum's day: 22:30 UTC on the 22nd is the 23rd in Jerusalem, still the 22nd in New York.
  assert.equal(exportFileName(new Date("2026-11-22T22:30:00Z"), ZONE), "transactions-2026-11-23.csv");
  assert.equal(
    exportFileName(new Date("2026-11-22T22:30:00Z"), "America/New_York"),
    "transactions-2026-11-22.csv",
  );
});

Deno.test("exportCells: the columns in order, translated words, empty unknowns", () => {
  assert.equal(exportHeader("en", ZONE).length, EXPORT_COLUMNS.length + REFUND_COLUMNS.length);
  assert.deepEqual(exportHeader("en", ZONE).slice(-3), ["Transaction ID", "Refunded", "Refund pending"]);
  assert.deepEqual(exportHeader("en", ZONE).slice(0, 3), ["Date (Asia/Jerusalem)", "Status", "Status code"]);
  assert.equal(exportHeader("he", ZONE)[0], "תאריך (Asia/Jerusalem)");
  assert.notDeepEqual(exportHeader("he", ZONE), exportHeader("en", ZONE));
  // 22:30 UTC: 00:30 on the next day on the museum's clock, the day the chart and report count it on.
  const success = tx({ isMonthly: true, createdAt: "2026-11-22T22:30:07.000Z" });
  assert.deepEqual(exportCells(success, "en", ZONE), [
    "2026-11-23 00:30:07",
    "Success",
    "000",
    "Dana",
    "Levi",
    "dana@example.org",
    "Monthly",
    "458045******4580",
    "1",
    "100.00",
    "ILS",
    "",
    success.id,
    "0.00",
    "0.00",
  ]);
  // The refund columns: what was refunded and what waits, after the spec's columns.
  assert.deepEqual(exportCells(success, "en", ZONE, { refunded: 2550, pending: 100 }).slice(-2), [
    "25.50",
    "1.00",
  ]);
  const error = tx({ kind: "error", amount: null, currency: null, statusCode: "004" });
  const cells = exportCells(error, "ru", ZONE);
  assert.deepEqual(cells.slice(1, 3), ["Ошибка", "004"]);
  assert.deepEqual(cells.slice(6, 12), ["Разовый", "", "", "", "", "Invalid card number"]);
  assert.deepEqual(cells.slice(-2), ["", ""], "no refund columns for a failed payment");
  // A success recorded without an amount falls back to the provider's result.
  const legacy = tx({
    amount: null,
    currency: null,
    resultData: { ...success.resultData!, DebitTotal: "550", DebitCurrency: 2 },
  });
  assert.deepEqual(exportCells(legacy, "en", ZONE).slice(9, 11), ["5.50", "USD"]);
  // The provider's answers carry the currency as a string.
  const asText = { ...legacy, resultData: { ...legacy.resultData!, DebitCurrency: "2" as unknown as 2 } };
  assert.deepEqual(exportCells(asText, "en", ZONE).slice(9, 11), ["5.50", "USD"]);
  assert.deepEqual(exportCells({ ...legacy, resultData: null }, "en", ZONE).slice(7, 11), ["", "", "", ""]);
});

Deno.test("mergeNewestFirst interleaves two newest-first streams by createdAt", async () => {
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString();
  const a = [
    tx({ createdAt: at(9) }),
    tx({ createdAt: at(5) }),
    tx({ createdAt: at(5) }),
    tx({ createdAt: at(1) }),
  ];
  const b = [
    tx({ kind: "error", createdAt: at(8) }),
    tx({ kind: "error", createdAt: at(5) }),
    tx({ kind: "error", createdAt: at(0) }),
  ];
  async function* of(list: Transaction[]) {
    yield* list;
  }
  const out: string[] = [];
  for await (const t of mergeNewestFirst(of(a), of(b))) out.push(t.id);
  assert.deepEqual(out, [a[0], b[0], a[1], a[2], b[1], a[3], b[2]].map((t) => t.id));
  const empty: string[] = [];
  for await (const t of mergeNewestFirst(of([]), of(b))) empty.push(t.id);
  assert.deepEqual(empty, b.map((t) => t.id));
});

Deno.test("transactionsCsv streams batch by batch: BOM, header, every row, filters passed on", async () => {
  const success = Array.from({ length: 23 }, (_, i) => tx({ isMonthly: i % 2 === 0 })).reverse();
  const error = Array.from({ length: 7 }, () => tx({ kind: "error" })).reverse();
  const { store, calls, refundReads } = fakeStore({ success, error });
  const body = await transactionsCsv(store, { type: "all", lang: "he", timeZone: ZONE }, { batchSize: 5 });
  // Nothing beyond the first batch of each list is read before the stream is read.
  assert.equal(calls.length, 2);
  const reader = body.getReader();
  const first = await reader.read();
  const head = decoder.decode(first.value);
  assert.ok(head.startsWith(BOM));
  assert.deepEqual([...first.value!.slice(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.ok(calls.length <= 3, `${calls.length} reads after one chunk`);
  let text = head;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    text += decoder.decode(r.value);
  }
  const records = parseCsv(text.slice(1));
  assert.deepEqual(records[0], exportHeader("he", ZONE));
  const ids = records.slice(1).map((r) => r[12]);
  const expected = [...success, ...error].sort((x, y) => (x.createdAt < y.createdAt ? 1 : -1)).map((t) =>
    t.id
  );
  assert.deepEqual(ids, expected);
  assert.equal(calls.length, Math.ceil(23 / 5) + Math.ceil(7 / 5));
  assert.ok(calls.every((c) => c.limit === 5));
  // The refund columns: one read per batch of rows, each gift's own figures.
  assert.deepEqual(refundReads, [5, 5, 5, 5, 5, 5]);
  for (const record of records.slice(1)) {
    const i = success.findIndex((t) => t.id === record[12]);
    const expect = i < 0
      ? ["", ""]
      : i % 3 === 0
      ? ["50.00", i % 10 === 0 ? "1.00" : "0.00"]
      : ["0.00", "0.00"];
    assert.deepEqual(record.slice(13), expect, record[12]);
  }

  const monthly = fakeStore({ success, error });
  const csv = await transactionsCsv(monthly.store, {
    type: "success",
    isMonthly: true,
    searchString: "dana",
    lang: "en",
    timeZone: ZONE,
  });
  const text2 = decoder.decode(await new Response(csv).arrayBuffer());
  assert.ok(text2.startsWith(BOM));
  assert.deepEqual(parseCsv(text2.slice(1)).length, 1 + 12);
  assert.ok(monthly.calls.every((c) => c.kind === "success" && c.isMonthly === true && c.search === "dana"));
});

Deno.test("transactionsCsv: a failure before the first rows rejects; a later one errors the stream", async () => {
  const success = Array.from({ length: 12 }, () => tx()).reverse();
  await assert.rejects(
    () =>
      transactionsCsv(fakeStore({ success, error: [] }, () => true).store, {
        type: "success",
        lang: "en",
        timeZone: ZONE,
      }),
    /storage down at call 1/,
  );
  const errors: unknown[] = [];
  const body = await transactionsCsv(
    fakeStore({ success, error: [] }, (call) => call === 2).store,
    { type: "success", lang: "en", timeZone: ZONE },
    { batchSize: 5, onError: (e) => errors.push(e) },
  );
  await assert.rejects(() => new Response(body).text(), /storage down at call 2/);
  assert.equal(errors.length, 1);
});

Deno.test("transactionsCsv: cancelling the stream stops reading storage", async () => {
  const success = Array.from({ length: 40 }, () => tx()).reverse();
  const { store, calls } = fakeStore({ success, error: [] });
  const body = await transactionsCsv(store, { type: "success", lang: "en", timeZone: ZONE }, {
    batchSize: 5,
  });
  const reader = body.getReader();
  await reader.read();
  await reader.cancel();
  const seen = calls.length;
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(calls.length, seen);
  assert.ok(seen <= 3, `${seen} reads`);
});
