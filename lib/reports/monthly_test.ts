/** The report's months in the museum's time zone, its range checks, and its assembly with refunds. */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { refundFixture, txFixture } from "@/tests/storage/fixtures.ts";
import { escapeXml, reportChartSvg } from "./chart.ts";
import { reportCsv, reportCsvHeader } from "./csv.ts";
import { defaultRange, InvalidReportRangeError, monthlyReport, reportMonths } from "./monthly.ts";

const ZONE = "Asia/Jerusalem";

Deno.test("reportMonths: every month with its bounds; bad ranges refused with the reason", () => {
  const { months, bounds } = reportMonths("2025-11", "2026-02", "UTC");
  assert.deepEqual(months, ["2025-11", "2025-12", "2026-01", "2026-02"]);
  assert.deepEqual(bounds.at(-1), "2026-03-01T00:00:00.000Z");
  assert.equal(bounds.length, 5);
  assert.throws(() => reportMonths("2026-02", "2026-01", ZONE), InvalidReportRangeError);
  assert.throws(() => reportMonths("2026-00", "2026-01", ZONE), /YYYY-MM/);
  assert.throws(() => reportMonths("2023-01", "2026-01", ZONE), /at most 36 months/);
  assert.equal(reportMonths("2023-02", "2026-01", ZONE).months.length, 36);
});

Deno.test("defaultRange: the twelve months ending this month in the museum's time zone", () => {
  // 23:30 UTC on January 31st is already February 1st in Jerusalem.
  assert.deepEqual(defaultRange(new Date("2026-01-31T23:30:00Z"), ZONE), { from: "2025-03", to: "2026-02" });
  assert.deepEqual(defaultRange(new Date("2026-01-15T12:00:00Z"), ZONE), { from: "2025-02", to: "2026-01" });
});

Deno.test("monthlyReport: refunds count in the month they were settled, under their gift's kind; net is donations minus refunds", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const gift = (isMonthly: boolean) =>
      txFixture({ createdAt: "2025-12-10T10:00:00.000Z", currency: 2, isMonthly });
    const [monthly, oneTime] = [gift(true), gift(false)];
    for (const tx of [monthly, oneTime]) await store.transactions.record(tx);
    // Asked on January 31st, settled on February 1st in Jerusalem (22:30 UTC): a February refund.
    const refund = async (tx: Transaction, amount: number, state: "succeeded" | "failed") => {
      const r = refundFixture({
        transactionId: tx.id,
        amount,
        currency: 2,
        createdAt: "2026-01-31T20:00:00.000Z",
      });
      await store.refunds.begin(r, tx.amount!);
      const at = "2026-01-31T22:30:00.000Z";
      await store.refunds.settle(
        tx.id,
        r.id,
        state === "succeeded" ? { state, providerRef: "credit", at } : { state, error: "declined", at },
      );
    };
    await refund(monthly, 700, "succeeded");
    await refund(oneTime, 100, "succeeded");
    await refund(oneTime, 200, "succeeded");
    await refund(oneTime, 400, "failed");
    const report = await monthlyReport(store, { from: "2026-01", to: "2026-02" }, ZONE);
    assert.deepEqual(report.currencies, [2]);
    const [jan, feb] = report.months.map((m) => m.money[0]);
    assert.deepEqual(jan.refunds.total, { amount: 0, count: 0 });
    assert.deepEqual(feb.refunds.monthly, { amount: 700, count: 1 });
    assert.deepEqual(feb.refunds.oneTime, { amount: 300, count: 2 });
    assert.deepEqual(feb.net, { oneTime: -300, monthly: -700, total: -1_000 });
    assert.deepEqual(report.totals[0].net.total, -1_000);
    const csv = reportCsv(report, "en").split("\r\n");
    assert.equal(csv[2].split(",")[22], "-10.00", "USD net, negative, not quoted");
    const svg = reportChartSvg(report, "en");
    assert.equal((svg.match(/fill="#b91c1c"><title>/g) ?? []).length, 1, "one refunds bar");
  } finally {
    await store.close();
  }
});

Deno.test("escapeXml: markup and quotes escaped", () => {
  assert.equal(escapeXml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});

Deno.test("reportCsvHeader: every Hebrew heading starts with a Hebrew word, so a spreadsheet sets it right to left", () => {
  // A spreadsheet takes a cell's direction from its first letter: "ILS תרומות" would be a
  // left-to-right cell with the currency at its far left, read last.
  const hebrew = (c: string) => c >= "\u05d0" && c <= "\u05ea";
  const latin = (c: string) => /\p{L}/u.test(c) && !hebrew(c);
  const first = (cell: string) => [...cell].find((c) => hebrew(c) || latin(c)) ?? "";
  assert.deepEqual(reportCsvHeader("he").filter((cell) => !hebrew(first(cell))), []);
  assert.ok(reportCsvHeader("he").some((cell) => cell.includes("ILS")), "the currency is still named");
});
