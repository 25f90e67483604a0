/**
 * The back office's transaction table, rendered to a string: the amount cell reads the currency
 * whether it arrives as a number (recorded results) or as a string (the provider's own answers
 * carry `DebitCurrency` as `"1"` / `"2"`), and shows 'N/A' only when it is neither.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { DatesProvider } from "@/islands/shared/dates.tsx";
import { dateFormats } from "@/lib/shared/dates.ts";
import { type Row, type SuccessItem, TransactionTable } from "./TransactionTable.tsx";

const t = (key: string) => (key === "common.notAvailable" ? "N/A" : key);

function success(debitCurrency: unknown, debitTotal = "550"): Row {
  const item: SuccessItem = {
    id: "tx1",
    statusCode: "000",
    isMonthly: false,
    createdAt: "2026-11-01T10:00:00.000Z",
    resultData: {
      CreditCardNumber: "458045******4580",
      CreditType: "1",
      DebitTotal: debitTotal,
      DebitCurrency: debitCurrency as 1 | 2,
    },
    user: { firstName: "Dana", lastName: "Levi", email: "dana@example.org" },
    receipt: null,
    refund: null,
  };
  return { kind: "success", item };
}

const amountCell = (row: Row) => {
  const html = renderToString(<TransactionTable rows={[row]} t={t} lang="en" />);
  return html.match(/<td class="tx-amount"[^>]*>([^<]*)<\/td>/)?.[1];
};

Deno.test("TransactionTable: DebitCurrency as the number or the provider's string shows the amount", () => {
  assert.equal(amountCell(success(2)), "$5.50");
  assert.equal(amountCell(success("2")), "$5.50");
  assert.equal(amountCell(success(1, "10000")), "₪100.00");
  assert.equal(amountCell(success("1", "10000")), "₪100.00");
});

Deno.test("TransactionTable: an unknown currency is still 'N/A'", () => {
  assert.equal(amountCell(success("3")), "N/A");
  assert.equal(amountCell(success(null)), "N/A");
});

Deno.test("TransactionTable: with receipt actions, a gift's row links to its receipt; others say 'N/A'", () => {
  const actions = { download: () => {}, resend: () => {}, busy: false };
  const issued = success(1);
  (issued as { item: SuccessItem }).item.receipt = {
    number: "IL-2026-000007",
    url: "/api/transaction/tx1/receipt",
  };
  const error: Row = {
    kind: "error",
    item: {
      id: "tx2",
      statusCode: "033",
      isMonthly: false,
      createdAt: "2026-11-01T10:00:00.000Z",
      errorMessage: null,
      statusText: "The card is not valid",
      amount: 100,
      currency: 1,
      user: { firstName: "Noa", lastName: "Levi", email: "noa@example.org" },
    },
  };
  const html = renderToString(
    <TransactionTable rows={[issued, success(1), error]} t={t} lang="he" receipts={actions} />,
  );
  const cells = [...html.matchAll(/<td class="tx-receipt"[^>]*>(.*?)<\/td>/g)].map((m) => m[1]);
  assert.equal(cells.length, 3);
  assert.match(cells[0], /href="\/api\/transaction\/tx1\/receipt\?lang=he"/);
  assert.match(cells[0], /<bdi>IL-2026-000007<\/bdi>/);
  assert.match(cells[0], /aria-label="backofficeMail.resendFor"/);
  assert.equal(cells[1], "N/A", "no receipt can be issued");
  assert.equal(cells[2], "N/A", "a declined payment has none");
  assert.match(html, /colSpan="5"|colspan="5"/);
  const without = renderToString(<TransactionTable rows={[issued]} t={t} lang="en" />);
  assert.ok(!without.includes("tx-receipt"));
});

Deno.test("TransactionTable: a failed row shows the catalogue's words, then the provider's message as a detail", () => {
  const failed = (errorMessage: string | null): Row => ({
    kind: "error",
    item: {
      id: "tx3",
      statusCode: "033",
      isMonthly: false,
      createdAt: "2026-11-01T10:00:00.000Z",
      errorMessage,
      statusText: "הכרטיס אינו תקין",
      amount: 100,
      currency: 1,
      user: { firstName: "Noa", lastName: "Levi", email: "noa@example.org" },
    },
  });
  const status = (row: Row) =>
    renderToString(<TransactionTable rows={[row]} t={t} lang="he" />).match(
      /<span class="badge badge-error">.*?<\/td>/,
    )?.[0];
  assert.equal(
    status(failed("The card number is invalid")),
    '<span class="badge badge-error">transactions.statusError</span>' +
      '<span class="tx-reason">הכרטיס אינו תקין</span>' +
      '<span class="tx-detail"><bdi>The card number is invalid</bdi></span></td>',
  );
  assert.equal(
    status(failed(null)),
    '<span class="badge badge-error">transactions.statusError</span><span class="tx-reason">הכרטיס אינו תקין</span></td>',
    "no provider message, no detail",
  );
});

Deno.test("TransactionTable: each time in the viewer's language, on the museum's clock, with its zone", () => {
  const row = success(1);
  // 23:00 UTC on November 28th: 01:00 on the 29th in Jerusalem.
  (row as { item: SuccessItem }).item.createdAt = "2026-11-28T23:00:00.000Z";
  const dateCell = (lang: string, timeZone: string) => {
    const html = renderToString(
      <DatesProvider dates={dateFormats(lang, timeZone)}>
        <TransactionTable rows={[row]} t={t} lang={lang} />
      </DatesProvider>,
    );
    return html.match(/<time datetime="2026-11-28T23:00:00.000Z">([^<]*)<\/time>/)?.[1]
      .replace(/[\u200e\u200f]/g, "");
  };
  assert.equal(dateCell("he", "Asia/Jerusalem"), "29 בנוב׳ 2026, 01:00 GMT+2");
  assert.equal(dateCell("en", "Asia/Jerusalem"), "Nov 29, 2026, 1:00 AM GMT+2");
  assert.equal(dateCell("ru", "America/New_York"), "28 нояб. 2026 г., 18:00 GMT-5");
});
