/**
 * The back office's receipts and outgoing email in Chromium, in English and Hebrew, with the app's
 * own sender and a real SMTP server: a gift's row shows its receipt's number and downloads that
 * receipt's PDF (read back); 'Resend' asks first, says so, and the donor receives a second email
 * with the same receipt, once, however often it is clicked (the transactions section); the outgoing
 * email section lists the messages with their translated kind and state; the pages stay axe clean
 * and error free.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { openSection, signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { runAxe } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { startSmtp, waitForMailsTo } from "@/tests/helpers/smtp.ts";

const WAIT = 10_000;
const ADMIN = { name: "Dana Levi", email: "dana.admin@museum.org", password: "ledger-and-ink-2026" };
/** The donor whose gift each language's run works on. */
const DONORS: Record<"en" | "he", string> = { en: "Anna", he: "Boaz" };

/** Signs in and opens the transactions, the gifts' receipts (issue 26). */
async function signIn(page: Page, url: string, lang: Lang): Promise<void> {
  await signInToBackOffice(page, url, lang, ADMIN, WAIT);
  await openSection(page, url, lang, "transactions", "", WAIT);
}

browserTest("back office in Chromium (en, he): receipt link, resend and the outgoing email", async (t) => {
  const smtp = await startSmtp();
  const app = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: "donations@museum.example" } });
  const browser = await launchBrowser();
  try {
    for (const firstName of Object.values(DONORS)) {
      const userId = await newDonor(app, firstName);
      const created = await createPayment(app, { amount: 100, currency: "nis", userId });
      await payOnSandboxPage(app, created.body.url);
      await waitForMailsTo(smtp, `${firstName.toLowerCase()}@example.org`, 1);
    }
    assert.equal((await api(app.url, "POST", "/api/auth/admin/register", ADMIN)).status, 201);

    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const firstName = DONORS[lang];
        const name = `${firstName} Levi`;
        const email = `${firstName.toLowerCase()}@example.org`;
        const tx = (await app.store.transactions.listSuccess({ page: 1, limit: 10, search: email })).data[0];
        const receipt = (await app.store.receipts.byTransaction(tx.id))!;
        const context = await browser.newContext({
          locale: lang === "he" ? "he-IL" : "en-US",
          timezoneId: "UTC",
          acceptDownloads: true,
          viewport: { width: 1280, height: 900 },
        });
        try {
          const page = await context.newPage();
          const watched = await watchPage(page);
          await signIn(page, app.url, lang);
          assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");

          // The row's receipt: its number, downloading the same receipt's PDF.
          const link = page.getByRole("link", {
            name: tr("backofficeMail.downloadFor", { receipt: receipt.number, name }),
          });
          assert.equal((await link.innerText()).trim(), receipt.number);
          const [download] = await Promise.all([
            page.waitForEvent("download", { timeout: WAIT }),
            link.click(),
          ]);
          assert.equal(download.suggestedFilename(), `receipt-${receipt.number}.pdf`);
          const text = await pdfText(await Deno.readFile((await download.path())!));
          assert.ok(text.includes(receipt.number), text);
          assert.ok(text.includes(tr("receipt.title")), `${lang}: the PDF is in the page's language`);

          // Resend: asked first, announced, delivered once with the same receipt.
          const resend = page.getByRole("button", { name: tr("backofficeMail.resendFor", { name }) });
          const asked: string[] = [];
          page.on("dialog", (dialog) => {
            asked.push(dialog.message());
            dialog.accept();
          });
          await resend.click();
          const notice = page.locator(".export-notice");
          await page.waitForFunction(
            (want) => document.querySelector(".export-notice")?.textContent === want,
            tr("backofficeMail.resent", { email }),
            { timeout: WAIT },
          );
          assert.deepEqual(asked, [tr("backofficeMail.confirmResend", { email })]);
          // Clicked again at once: no second email.
          await resend.click();
          await page.waitForFunction(
            (want) => document.querySelector(".export-notice")?.textContent === want,
            tr("backofficeMail.resentAlready", { email }),
            { timeout: WAIT },
          );
          assert.equal(await notice.getAttribute("role"), "status");
          const [, second] = await waitForMailsTo(smtp, email, 2);
          assert.equal(second.attachments[0]?.filename, `receipt-${receipt.number}.pdf`);

          const history = await runAxe(page);
          assert.ok(history.passes > 0);
          assert.deepEqual(history.violations, [], "the transactions with their receipts");

          // The outgoing email, its own section: newest first, translated kind, recipient and state.
          await openSection(page, app.url, lang, "email", "", WAIT);
          await page.locator(".outbox[data-loaded] .outbox-table tbody tr").first().waitFor({
            timeout: WAIT,
          });
          await page.getByRole("button", { name: tr("backofficeMail.refresh") }).click();
          const rows = page.locator(".outbox-table tbody tr");
          // Two gifts' receipts, and the resends so far (one in en; en and he in he).
          const expected = lang === "en" ? 3 : 4;
          await page.waitForFunction(
            (want) => document.querySelectorAll(".outbox-table tbody tr").length === want,
            expected,
            { timeout: WAIT },
          );
          const first = await rows.first().locator("td").allInnerTexts();
          assert.deepEqual(first.slice(0, 5).map((s) => s.trim()), [
            tr("backofficeMail.kinds.receipt"),
            tr("backofficeMail.recipients.donor"),
            "en",
            tr("backofficeMail.states.sent"),
            "1",
          ]);
          const section = await page.locator(".outbox").innerText();
          for (const secret of [email, tx.id, tx.donorId]) assert.ok(!section.includes(secret), secret);
          assert.ok(
            await page.getByRole("button", { name: tr("backofficeMail.older") }).isDisabled(),
            "one page",
          );

          const audit = await runAxe(page);
          assert.ok(audit.passes > 0);
          assert.deepEqual(audit.violations, []);
          assert.deepEqual(watched.all(), []);
        } finally {
          await context.close();
        }
      });
    }
  } finally {
    await browser.close();
    await app.close();
    await smtp.stop();
  }
});
