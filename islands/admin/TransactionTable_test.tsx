/**
 * The back office's transaction table, rendered to a string: the amount cell reads the currency
 * whether it arrives as a number (recorded results) or as a string (the provider's own answers
 * carry `DebitCurrency` as `"1"` / `"2"`), and shows 'N/A' only when it is neither.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
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
  };
  return { kind: "success", item };
}

const amountCell = (row: Row) => {
  const html = renderToString(<TransactionTable rows={[row]} t={t} lang="en" />);
  return html.match(/<td class="tx-amount">([^<]*)<\/td>/)?.[1];
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
