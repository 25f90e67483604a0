/**
 * Resending a receipt email: numbered keys, a repeat within the window answers the last resend, a
 * later one is a new message in the first email's language; unknown and failed transactions are
 * refused, and nothing is enqueued for them.
 */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { RESEND_REPEAT_MS, resendReceipt } from "./back_office.ts";
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
