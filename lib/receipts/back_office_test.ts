/**
 * Resending a receipt email: numbered keys, a repeat within the window answers the last resend, a
 * later one is a new message in the first email's language; unknown and failed transactions are
 * refused, and nothing is enqueued for them. The back office list's receipt links: a page's
 * receipts read in one storage call.
 */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import type { ReceiptSettings } from "./config.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { adminReceiptPath, RESEND_REPEAT_MS, resendReceipt, withReceiptRefs } from "./back_office.ts";
import { issueReceipt } from "./issue.ts";
import { NoSuchTransactionError, NotReceiptableError } from "./errors.ts";

const tx = (id: string, kind: "success" | "error"): Transaction => ({
  id,
  kind,
  statusCode: kind === "success" ? "000" : "033",
  isMonthly: false,
  createdAt: "2026-11-24T09:00:00.000Z",
  donorId: "donor_0123456789abcdef",
  user: { firstName: "Dana", lastName: "Levi", email: "dana@example.org" },
  amount: 5000,
  currency: 1,
  resultData: kind === "success"
    ? { CreditCardNumber: "458045******4580", CreditType: "1", DebitTotal: "5000", DebitCurrency: 1 }
    : null,
  errorMessage: null,
  provider: "sandbox",
  providerTransactionId: `p-${id}`,
});

Deno.test("resendReceipt: numbered, a repeat within the window answers the last, in the first email's language", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const id = "tx_resend_0123456789";
    await store.transactions.record(tx(id, "success"), {
      messages: [{
        key: `receipt:${id}`,
        kind: "receipt",
        to: { donorId: "donor_0123456789abcdef" },
        language: "he",
        data: { transactionId: id },
      }],
    });
    const t0 = Date.parse("2026-11-24T10:00:00.000Z");
    const at = (ms: number) => new Date(t0 + ms);
    assert.deepEqual(await resendReceipt(store, id, at(0)), {
      key: `receipt:${id}:resend:1`,
      repeated: false,
      receiptNumber: null,
    });
    assert.deepEqual(await resendReceipt(store, id, at(RESEND_REPEAT_MS - 1)), {
      key: `receipt:${id}:resend:1`,
      repeated: true,
      receiptNumber: null,
    });
    const later = await resendReceipt(store, id, at(RESEND_REPEAT_MS));
    assert.deepEqual([later.key, later.repeated], [`receipt:${id}:resend:2`, false]);
    const stored = await store.outbox.get(`receipt:${id}:resend:2`);
    assert.deepEqual(
      [stored?.kind, stored?.language, stored?.data, stored?.to, stored?.state],
      ["receipt", "he", { transactionId: id }, { donorId: "donor_0123456789abcdef" }, "queued"],
    );
  } finally {
    await store.close();
  }
});

Deno.test("resendReceipt: unknown or failed transactions are refused, nothing enqueued", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    await store.transactions.record(tx("tx_declined_0123456789", "error"));
    await assert.rejects(resendReceipt(store, "tx_unknown_0123456789"), NoSuchTransactionError);
    await assert.rejects(resendReceipt(store, "tx_declined_0123456789"), NotReceiptableError);
    assert.deepEqual(await store.outbox.listRecent(10), []);
  } finally {
    await store.close();
  }
});

/** `store` with its receipt reads counted, by method name. */
function countingReceipts(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const receipts = new Proxy(store.receipts, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => (calls.push(String(name)), value.apply(target, args));
    },
  });
  return { store: { ...store, receipts } as Store, calls };
}

Deno.test("withReceiptRefs: a page's receipts are read in one storage call, each row linked to its own", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  const settings: ReceiptSettings = {
    museum: {
      legalName: "The Museum (R.A.)",
      address: "1 Museum Road, Jerusalem",
      nonprofitNumber: "580000000",
      section46Approval: "4567",
      section46ValidUntil: "2026-12-31",
    },
    friends: null,
  };
  try {
    const rows = Array.from(
      { length: 25 },
      (_, i) => tx(`tx_page_${String(i).padStart(2, "0")}_0123456789`, "success"),
    );
    for (const row of rows) await store.transactions.record(row);
    const issued = new Map<string, string>();
    for (const row of rows.filter((_, i) => i % 3 === 0)) {
      const receipt = await issueReceipt(store, settings, {
        transaction: row,
        donorName: "Dana Levi",
        donorTaxId: null,
      });
      issued.set(row.id, receipt.number);
    }
    // The list's rows, the second a USD gift; then only the Friends (USD) are set up: a USD gift
    // links to a receipt still to issue, an ILS gift only to one already issued.
    const page = rows.map((row, i) => ({
      id: row.id,
      resultData: { DebitCurrency: i === 1 ? 2 as const : 1 as const },
    }));
    const friendsOnly: ReceiptSettings = {
      museum: null,
      friends: {
        legalName: "American Friends of the Museum",
        address: "1 Broadway, New York",
        ein: "12-3456789",
      },
    };

    const counted = countingReceipts(store);
    const linked = await withReceiptRefs(counted.store, friendsOnly, page);
    assert.equal(
      counted.calls.length,
      1,
      `one read for ${page.length} rows, not ${counted.calls.join(", ")}`,
    );
    assert.deepEqual(
      linked.map((row) => row.receipt),
      page.map((row, i) => {
        const number = issued.get(row.id) ?? null;
        return number !== null || i === 1 ? { number, url: adminReceiptPath(row.id) } : null;
      }),
    );
  } finally {
    await store.close();
  }
});
