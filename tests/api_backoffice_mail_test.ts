/**
 * The back office's receipts and outgoing email (issue 14, item 5), on both backends, with the app's
 * own renderer and sender and a real SMTP server: each successful row links to its receipt, whose
 * PDF (read back) carries the number the donor's email did; a receipt never emailed is issued by
 * its first download, once; a resend delivers a second email with the same receipt, once however
 * often it is clicked at once; unknown and failed transactions are refused; the outbox list shows
 * each message's state (a refused send: queued, its reason and next attempt), newest first, paged
 * by an opaque cursor, never a donor's id or address.
 */
import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { MAIL_WAIT_MS, startSmtp } from "@/tests/helpers/smtp.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const SUCCESS = "/api/transaction/get-all-success-transactions";

/** A transaction recorded without its messages (as imported history is): no email, no receipt yet. */
function recorded(donorId: string, kind: "success" | "error"): Transaction {
  return {
    id: newId(),
    kind,
    statusCode: kind === "success" ? "000" : "033",
    isMonthly: false,
    createdAt: new Date().toISOString(),
    donorId,
    user: { firstName: "Rivka", lastName: "Levi", email: "rivka@example.org" },
    amount: 4200,
    currency: 1,
    resultData: kind === "success"
      ? { CreditCardNumber: "458045******4580", CreditType: "1", DebitTotal: "4200", DebitCurrency: 1 }
      : null,
    errorMessage: kind === "success" ? null : "Declined by the card issuer",
    provider: "sandbox",
    providerTransactionId: `import-${newId()}`,
  };
}

backendTest("api: back office receipts, resend and the outbox list", async (t, open) => {
  const smtp = await startSmtp();
  const app = await startTestApp({
    store: await open(),
    env: { SMTP_URL: smtp.url, MAIL_FROM: "donations@museum.example" },
  });
  try {
    const admin = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "finance@museum.org",
      password: "ledger-and-ink-2026",
    });
    const auth = bearer(admin.body.accessToken);
    const get = (path: string) => api(app.url, "GET", path, undefined, auth);
    const post = (path: string) => api(app.url, "POST", path, undefined, auth);
    const pdfAt = async (path: string) => {
      const res = await fetch(app.url + path, { headers: auth });
      return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
    };

    const donorId = await newDonor(app, "Anna");
    const created = await createPayment(app, { amount: 100, currency: "nis", userId: donorId });
    await payOnSandboxPage(app, created.body.url);
    const [first] = await smtp.waitFor(1);
    const [tx] = (await app.store.transactions.listSuccess({ page: 1, limit: 1 })).data;
    const receipt = (await app.store.receipts.byTransaction(tx.id))!;
    assert.equal(first.attachments[0].filename, `receipt-${receipt.number}.pdf`);

    await t.step("the row carries its receipt's number and admin link", async () => {
      const res = await get(SUCCESS);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data[0].receipt, {
        number: receipt.number,
        url: `/api/transaction/${tx.id}/receipt`,
      });
    });

    await t.step("the link answers the same receipt's PDF, in the language asked for", async () => {
      const { res, bytes } = await pdfAt(`/api/transaction/${tx.id}/receipt?lang=he`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="receipt-${receipt.number}.pdf"`,
      );
      assert.equal(res.headers.get("cache-control"), "no-store");
      const text = await pdfText(bytes);
      assert.ok(text.includes(receipt.number), text);
      assert.ok(text.includes("Anna Levi"), text);
      assert.equal((await app.store.receipts.listByDonors([donorId])).length, 1, "no second receipt");
      const bad = await get(`/api/transaction/${tx.id}/receipt?lang=fr`);
      assert.equal(bad.status, 400);
      assert.match(bad.body.message, /lang must be en, he, ru, pt or es/);
    });

    await t.step("resend: a second email with the same receipt, once for a double click", async () => {
      const path = `/api/transaction/${tx.id}/resend-receipt`;
      const clicks = await Promise.all([post(path), post(path)]);
      assert.deepEqual(clicks.map((c) => c.status), [202, 202]);
      assert.deepEqual(clicks.map((c) => c.body.key), [
        `receipt:${tx.id}:resend:1`,
        `receipt:${tx.id}:resend:1`,
      ]);
      assert.deepEqual(clicks.map((c) => c.body.repeated).sort(), [false, true]);
      assert.equal(clicks[0].body.receiptNumber, receipt.number);
      const again = await post(path);
      assert.deepEqual([again.status, again.body.key, again.body.repeated], [
        202,
        `receipt:${tx.id}:resend:1`,
        true,
      ]);
      const [, second] = await smtp.waitFor(2);
      assert.equal(second.subject, first.subject);
      assert.deepEqual(second.to, first.to);
      assert.equal(second.attachments.length, 1);
      assert.equal(second.attachments[0].filename, `receipt-${receipt.number}.pdf`);
      assert.ok((await pdfText(new Uint8Array(second.attachments[0].content))).includes(receipt.number));
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(smtp.received.length, 2, "sent once");
      assert.equal((await app.store.outbox.get(`receipt:${tx.id}:resend:1`))?.state, "sent");
    });

    const quietId = await newDonor(app, "Rivka");
    const quiet = recorded(quietId, "success");
    const declined = recorded(quietId, "error");
    await app.store.transactions.record(quiet);
    await app.store.transactions.record(declined);

    await t.step("a receipt never emailed is issued by its first download, once", async () => {
      const row = (await get(SUCCESS)).body.data.find((d: { id: string }) => d.id === quiet.id);
      assert.deepEqual(row.receipt, { number: null, url: `/api/transaction/${quiet.id}/receipt` });
      const one = await pdfAt(row.receipt.url);
      assert.equal(one.res.status, 200);
      const issued = (await app.store.receipts.byTransaction(quiet.id))!;
      assert.ok(issued, "issued");
      assert.ok((await pdfText(one.bytes)).includes(issued.number));
      assert.notEqual(issued.number, receipt.number);
      const two = await pdfAt(row.receipt.url);
      assert.equal(
        two.res.headers.get("content-disposition"),
        `attachment; filename="receipt-${issued.number}.pdf"`,
      );
      const listed = (await get(SUCCESS)).body.data.find((d: { id: string }) => d.id === quiet.id);
      assert.equal(listed.receipt.number, issued.number);
    });

    await t.step("unknown and failed transactions are refused, clearly", async () => {
      for (
        const path of [`/api/transaction/${newId()}/receipt`, `/api/transaction/${newId()}/resend-receipt`]
      ) {
        const res = path.endsWith("receipt") && !path.endsWith("resend-receipt")
          ? await get(path)
          : await post(path);
        assert.equal(res.status, 404, path);
        assert.equal(res.body.message, "No transaction with this id");
      }
      assert.equal((await post("/api/transaction/not-an-id/resend-receipt")).status, 404);
      const pdf = await get(`/api/transaction/${declined.id}/receipt`);
      const resend = await post(`/api/transaction/${declined.id}/resend-receipt`);
      for (const res of [pdf, resend]) {
        assert.equal(res.status, 409);
        assert.equal(res.body.message, "A receipt is issued only for a successful gift with an amount");
      }
      assert.equal(await app.store.outbox.get(`receipt:${declined.id}:resend:1`), null);
      assert.equal(smtp.received.length, 2);
    });

    await t.step("the outbox list: states, a refused send's reason and next attempt", async () => {
      smtp.refuse(550);
      const res = await post(`/api/transaction/${quiet.id}/resend-receipt`);
      assert.equal(res.status, 202);
      const key = `receipt:${quiet.id}:resend:1`;
      // Until the refused send is recorded (a deadline, not a delay: a hundred 50 ms polls ran out
      // under CI's load).
      const until = Date.now() + MAIL_WAIT_MS;
      while (!(await app.store.outbox.get(key))?.lastError && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const page = await get("/api/outbox");
      assert.equal(page.status, 200);
      assert.deepEqual(Object.keys(page.body).sort(), ["data", "nextCursor"]);
      const [refused, resent, original] = page.body.data;
      assert.equal(page.body.data.length, 3);
      assert.equal(page.body.nextCursor, null);
      assert.deepEqual(
        [refused.kind, refused.recipient, refused.language, refused.state, refused.attempts],
        ["receipt", "donor", "en", "queued", 1],
      );
      assert.match(refused.lastError, /550/);
      assert.ok(Date.parse(refused.nextAttemptAt) > Date.now() + 30_000, "retried after a backoff");
      assert.equal(refused.settledAt, null);
      for (const sent of [resent, original]) {
        assert.deepEqual([sent.kind, sent.state, sent.attempts, sent.lastError], [
          "receipt",
          "sent",
          1,
          null,
        ]);
        assert.ok(sent.settledAt >= sent.createdAt);
        assert.equal(sent.nextAttemptAt, null);
      }
      assert.ok(resent.createdAt >= original.createdAt, "newest first");
      const json = JSON.stringify(page.body);
      for (const secret of [donorId, quietId, "anna@example.org", "rivka@example.org", tx.id, quiet.id]) {
        assert.ok(!json.includes(secret), `the list never shows ${secret}`);
      }
    });

    await t.step("the outbox list pages by an opaque cursor; a forged one is refused", async () => {
      const ids: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 5; i++) {
        const res: Awaited<ReturnType<typeof get>> = await get(
          `/api/outbox?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
        );
        assert.equal(res.status, 200);
        ids.push(...res.body.data.map((d: { id: string }) => d.id));
        cursor = res.body.nextCursor;
        if (!cursor) break;
        assert.ok(!atob(cursor.replaceAll("-", "+").replaceAll("_", "/")).includes("receipt:"), "opaque");
      }
      assert.equal(ids.length, 3);
      assert.equal(new Set(ids).size, 3);
      const all = (await get("/api/outbox")).body.data.map((d: { id: string }) => d.id);
      assert.deepEqual(ids, all);
      const forged = await get(`/api/outbox?cursor=${"A".repeat(60)}`);
      assert.equal(forged.status, 400);
      assert.match(forged.body.message, /cursor is not valid/);
      assert.equal((await get("/api/outbox?limit=0")).status, 400);
      assert.equal((await get("/api/outbox?limit=101")).status, 400);
    });
  } finally {
    smtp.refuse(null);
    await app.close();
    await smtp.stop();
  }
});
