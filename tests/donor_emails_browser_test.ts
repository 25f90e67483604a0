/**
 * Donor emails end to end (issue 14), in Chromium on the sandbox, with the app's own renderer and
 * sender and a real SMTP server (`tests/helpers/smtp.ts`), in English and Hebrew:
 *
 * - a one-time gift's receipt arrives once, right-to-left in Hebrew, with a PDF whose fields (receipt
 *   number, donor, amount) match the transaction and its stored receipt;
 * - a monthly gift's receipt and welcome arrive; the welcome's manage link's button opens the gift's
 *   page on the donor portal (listing the receipt), the gift is cancelled there, and the cancellation's
 *   confirmation arrives;
 * - a declined monthly charge (billing run with the card now declining) sends the failed-charge email
 *   with its retry date and a manage link.
 */
import assert from "node:assert/strict";
// @ts-types="@types/mailparser"
import type { ParsedMail } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { createLogger } from "@/lib/core/log.ts";
import { emailDate } from "@/lib/outbox/templates/format.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { amountInWords } from "@/lib/core/money_words.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { giveAtTier } from "@/tests/helpers/payments.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { startSmtp, type TestSmtp, waitForMailsTo } from "@/tests/helpers/smtp.ts";

const LANGS = ["en", "he"] as const;
const WAIT = 20_000;

/** The mail with this subject, exactly once. */
function bySubject(mails: ParsedMail[], subject: string): ParsedMail {
  const found = mails.filter((m) => m.subject === subject);
  assert.equal(found.length, 1, `one mail "${subject}" in ${JSON.stringify(mails.map((m) => m.subject))}`);
  return found[0];
}

/** The manage link a mail carries, on the test app's origin (links say `PUBLIC_URL`'s). */
function manageLink(app: TestApp, mail: ParsedMail): string {
  const link = mail.text?.match(/https?:\/\/\S+\/account\?token=[\w.-]+/)?.[0];
  assert.ok(link, `a manage link in: ${mail.text}`);
  const url = new URL(link);
  return `${app.url}${url.pathname}${url.search}`;
}

/** Gives on the donation page (a tier of ₪100), paid in the sandbox frame, to the success page. */
async function give(
  page: Page,
  app: TestApp,
  lang: Lang,
  period: "one-time" | "monthly",
  email: string,
  firstName = lang === "he" ? "יעל" : "Anna",
) {
  await giveAtTier(page, app.url, lang, period, { email, firstName });
}

async function oneTime(app: TestApp, smtp: TestSmtp, browser: Browser, lang: Lang) {
  const tr = translator(lang);
  const museum = tr("welcome.museumTitle");
  const email = `receipt-${lang}@example.org`;
  const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
  context.setDefaultTimeout(WAIT);
  try {
    const page = await context.newPage();
    const watched = await watchPage(page);
    // A Latin name: the line reads the same in both directions, so the extracted text can be compared.
    await give(page, app, lang, "one-time", email, "Anna");
    assert.deepEqual(watched.all(), [], `${lang}: a clean donation`);
    // A gift at a level: its receipt, and the membership's welcome with the card (issue 27).
    const gifts = await waitForMailsTo(smtp, email, 2);
    const mail = bySubject(gifts, tr("email.receipt.subject", { museum }));
    bySubject(gifts, tr("memberCard.email.welcomeSubject", { museum }));
    const [tx] = (await app.store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: false })).data;
    assert.equal(tx.user.email, email);
    assert.match(mail.html || "", lang === "he" ? /dir="rtl"/ : /dir="ltr"/);
    assert.ok(mail.text?.includes(tx.id), `${lang}: the mail names the transaction`);
    // The PDF: read back, its fields match the transaction and the receipt stored for it.
    assert.equal(mail.attachments.length, 1);
    const pdf = mail.attachments[0];
    assert.equal(pdf.contentType, "application/pdf");
    const [receipt] = await app.store.receipts.listByDonors([tx.donorId]);
    assert.equal(receipt.transactionId, tx.id);
    assert.equal(pdf.filename, `receipt-${receipt.number}.pdf`);
    const text = await pdfText(new Uint8Array(pdf.content));
    for (
      const field of [
        tr("receipt.title"),
        receipt.number,
        `${tx.user.firstName} ${tx.user.lastName}`,
        "100.00",
        amountInWords(10000, "ILS", lang),
      ]
    ) {
      assert.ok(text.includes(field), `${lang}: the PDF shows ${field}:\n${text}`);
    }
    assert.equal(receipt.amount, tx.amount);
  } finally {
    await context.close();
  }
}

async function monthly(app: TestApp, smtp: TestSmtp, browser: Browser, lang: Lang) {
  const tr = translator(lang);
  const museum = tr("welcome.museumTitle");
  const email = `monthly-${lang}@example.org`;
  const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
  context.setDefaultTimeout(WAIT);
  try {
    const page = await context.newPage();
    await give(page, app, lang, "monthly", email);
    const mails = await waitForMailsTo(smtp, email, 3);
    bySubject(mails, tr("email.receipt.subjectMonthly", { museum }));
    bySubject(mails, tr("memberCard.email.welcomeSubject", { museum }));
    const welcome = bySubject(mails, tr("email.welcome.subject", { museum }));

    // The welcome's manage link: its page's button opens the gift's page on the donor portal, with
    // the receipt to download; cancel there.
    const res = await page.goto(manageLink(app, welcome));
    assert.equal(res?.status(), 200);
    await page.getByRole("button", { name: tr("portalAccess.open.button") }).click();
    await page.waitForURL(`${app.url}/${lang}/account`);
    assert.equal(new URL(page.url()).search, "", "the token is dropped from the address");
    const [receipt] = await app.store.receipts.listByDonors(
      [(await app.store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).data[0].donorId],
    );
    const download = page.getByRole("link", { name: new RegExp(receipt.number) });
    const pdf = await page.request.get(`${app.url}${await download.getAttribute("href")}`);
    assert.equal(pdf.status(), 200);
    assert.ok((await pdfText(new Uint8Array(await pdf.body()))).includes(receipt.number));
    await page.locator("summary", { hasText: tr("portalGifts.cancelTitle") }).click();
    await page.getByRole("button", { name: tr("portalGifts.cancelButton") }).click();
    await page.getByText(tr("portalGifts.done.cancel")).waitFor();
    const after = await waitForMailsTo(smtp, email, 4);
    const confirmation = bySubject(after, tr("email.cancelled.subject", { museum }));
    assert.match(confirmation.html || "", lang === "he" ? /dir="rtl"/ : /dir="ltr"/);
  } finally {
    await context.close();
  }
}

async function declinedCharge(app: TestApp, smtp: TestSmtp, browser: Browser, lang: Lang) {
  const tr = translator(lang);
  const email = `declined-${lang}@example.org`;
  const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
  context.setDefaultTimeout(WAIT);
  try {
    await give(await context.newPage(), app, lang, "monthly", email);
    await waitForMailsTo(smtp, email, 3);
    const [tx] = (await app.store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).data;
    const [sub] = await app.store.subscriptions.listByDonor(tx.donorId);
    // The card now declines, and the next charge is due (moved to a minute ago: billing runs on the
    // real clock, as the outbox's sender does). Billing runs on the services' store, so the enqueue
    // wakes the sender as the billing job's does.
    const due = new Date(Date.now() - 60_000).toISOString();
    await app.store.subscriptions.updateIfActive(sub.id, { nextPaymentDate: due });
    await app.store.sandbox.transition(sub.token, "active", "active", { declineCode: "004" }, due);
    const provider = app.services.providerFor(app.url);
    const quiet = createLogger(() => {});
    const pass = await runBillingPass({
      store: app.services.store,
      provider,
      log: quiet,
      holder: `test-${lang}`,
    });
    assert.equal(pass.failed, 1);
    const mails = await waitForMailsTo(smtp, email, 4);
    const failed = bySubject(mails, tr("email.chargeFailed.subject"));
    const retryAt = (await app.store.subscriptions.get(sub.id))?.retryAt;
    assert.ok(retryAt, "a retry is scheduled");
    assert.ok(failed.text?.includes(emailDate(retryAt, lang)), `${lang}: the mail says when the retry is`);
    assert.ok(manageLink(app, failed), `${lang}: the failed-charge mail carries the manage link`);
  } finally {
    await context.close();
  }
}

browserTest(
  "donor emails (en, he): a receipt with its PDF, a monthly gift's welcome link cancels, a declined charge",
  async (t) => {
    const smtp = await startSmtp();
    const app = await startTestApp({
      env: {
        FEATURE_MONTHLY_PAYMENT: "1",
        SMTP_URL: smtp.url,
        MAIL_FROM: "Museum <donations@museum.example>",
      },
    });
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      for (const lang of LANGS) {
        await t.step(
          `${lang}: a one-time gift's receipt, once, with its PDF`,
          () => oneTime(app, smtp, browser!, lang),
        );
        await t.step(
          `${lang}: the welcome's link cancels; the confirmation arrives`,
          () => monthly(app, smtp, browser!, lang),
        );
        await t.step(
          `${lang}: a declined monthly charge sends the failure email`,
          () => declinedCharge(app, smtp, browser!, lang),
        );
      }
    } finally {
      await browser?.close();
      await app.close();
      await smtp.stop();
    }
  },
);
