/**
 * The donor's refund email (issue 16, item 3), on both backends with the app's own renderer and
 * sender and a real SMTP server: after a partial refund from the back office, the donor gets an
 * email saying how much was refunded of which gift, with a credit receipt PDF (read back) numbered
 * after the gift's receipt and referencing it; a second refund gets the next credit number.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { startSmtp } from "@/tests/helpers/smtp.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

backendTest(
  "api: a refund emails the donor a credit receipt that references the receipt",
  async (_t, open) => {
    const smtp = await startSmtp();
    const app = await startTestApp({
      store: await open(),
      env: { SMTP_URL: smtp.url, MAIL_FROM: "donations@museum.example" },
    });
    try {
      const owner = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "owner@museum.org",
        password: "ledger-and-ink-2026",
      });
      const auth = bearer(owner.body.accessToken);
      const donorId = await newDonor(app, "Anna");
      const created = await createPayment(app, {
        amount: 100,
        currency: "nis",
        userId: donorId,
        language: "en",
      });
      await payOnSandboxPage(app, created.body.url);
      const [receiptEmail] = await smtp.waitFor(1);
      const [tx] = (await app.store.transactions.listSuccess({ page: 1, limit: 1 })).data;
      const receipt = (await app.store.receipts.byTransaction(tx.id))!;

      const res = await api(app.url, "POST", `/api/transaction/${tx.id}/refund`, {
        amount: 2550,
        reason: "requested-by-donor",
        key: "email-1",
      }, auth);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [, email] = await smtp.waitFor(2).catch((e) => {
        console.log(app.logs.filter((l) => l.level !== "info"));
        throw e;
      });
      assert.deepEqual(email.to, receiptEmail.to);
      assert.match(email.subject ?? "", /refund/i);
      const text = email.text ?? "";
      assert.ok(text.includes("₪25.50"), text);
      assert.ok(text.includes("₪100.00"), text);
      assert.ok(text.includes(receipt.number), "the original receipt's number");
      assert.equal(email.attachments.length, 1);
      assert.equal(email.attachments[0].filename, `credit-receipt-${receipt.number}-C1.pdf`);
      const pdf = await pdfText(new Uint8Array(email.attachments[0].content));
      assert.ok(pdf.includes("Credit receipt"), pdf);
      assert.ok(pdf.includes(`${receipt.number}-C1`), pdf);
      assert.ok(pdf.includes("Credits receipt no."), pdf);
      assert.ok(pdf.includes("25.50"), pdf);
      assert.ok(pdf.includes("Anna Levi"), pdf);

      const second = await api(app.url, "POST", `/api/transaction/${tx.id}/refund`, {
        amount: 1000,
        reason: "other",
        key: "email-2",
      }, auth);
      assert.equal(second.status, 201);
      const [, , next] = await smtp.waitFor(3);
      assert.equal(next.attachments[0].filename, `credit-receipt-${receipt.number}-C2.pdf`);
      assert.equal((await app.store.receipts.listByDonors([donorId])).length, 1, "no new receipt");
    } finally {
      await app.close();
      await smtp.stop();
    }
  },
);
