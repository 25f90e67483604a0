/** The receipt email's attachment: issued once, the same PDF number on every send; none when not possible. */
import assert from "node:assert/strict";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { openStore } from "@/lib/storage/mod.ts";
import { newId } from "@/lib/core/ids.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { drawReceiptPdf } from "@/tests/helpers/receipts.ts";
import { receiptAttachmentFor } from "./attachment.ts";

const MUSEUM = {
  legalName: "Example Museum Association",
  address: "1 Museum Road, Jerusalem",
  nonprofitNumber: null,
  section46Approval: null,
  section46ValidUntil: null,
};

const gift = (donorId: string): Transaction => ({
  id: newId(),
  kind: "success",
  statusCode: "000",
  isMonthly: true,
  createdAt: "2026-05-09T08:00:00.000Z",
  donorId,
  user: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
  amount: 5_000,
  currency: 1,
  resultData: { CreditCardNumber: "458045******4580", CreditType: "1", DebitTotal: "5000", DebitCurrency: 1 },
  errorMessage: null,
  provider: "sandbox",
  providerTransactionId: newId(),
});

Deno.test("receiptAttachmentFor: issues once, attaches the same receipt again, in the message's language", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const donorId = newId();
    await store.donors.create({
      id: donorId,
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      country: "IL",
      createdAt: "2026-05-01T08:00:00.000Z",
      paymentDate: null,
      nextPaymentDate: null,
      monthlyPaymentAvailable: false,
      israeliId: "123456782",
    });
    const attach = receiptAttachmentFor({
      store,
      settings: { museum: MUSEUM, friends: null },
      appSecret: "test-secret-that-is-long-enough-0123456789",
      origin: "https://donate.example.org/",
      renderPdf: drawReceiptPdf,
    });
    const tx = gift(donorId);
    const first = await attach(tx, "he");
    assert.ok(first);
    assert.match(first.filename, /^receipt-IL-\d{4}-000001\.pdf$/);
    assert.equal(first.contentType, "application/pdf");
    const he = await pdfText(first.content);
    assert.ok(he.includes("קבלה על תרומה"), he);
    assert.ok(he.includes("Ada Lovelace"), he);
    assert.ok(he.includes("123456782"), "the donor's ID number on an Israeli receipt");
    assert.ok(he.includes("https://donate.example.org/he/receipts/verify?c="), he);
    const again = await attach(tx, "ru");
    assert.equal(again?.filename, first.filename, "the same receipt, not a new number");
    assert.ok((await pdfText(again!.content)).includes("Квитанция о пожертвовании"));
    const other = await attach(gift(donorId), "xx");
    assert.match(other!.filename, /-000002\.pdf$/);
    assert.ok(
      (await pdfText(other!.content)).includes("Donation receipt"),
      "an unknown language falls back to en",
    );
  } finally {
    await store.close();
  }
});

Deno.test("receiptAttachmentFor: none when receipts are not configured or the payment failed", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const deps = {
      store,
      appSecret: "test-secret-that-is-long-enough-0123456789",
      origin: "https://x.example",
      renderPdf: drawReceiptPdf,
    };
    const unconfigured = receiptAttachmentFor({ ...deps, settings: { museum: null, friends: null } });
    assert.equal(await unconfigured(gift(newId()), "en"), null);
    const configured = receiptAttachmentFor({ ...deps, settings: { museum: MUSEUM, friends: null } });
    const failed: Transaction = {
      ...gift(newId()),
      kind: "error",
      amount: null,
      currency: null,
      resultData: null,
    };
    assert.equal(await configured(failed, "en"), null);
    assert.deepEqual(await store.receipts.listByEmail("ada@example.com"), [], "no receipt was issued");
  } finally {
    await store.close();
  }
});
