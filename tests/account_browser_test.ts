/**
 * The donor portal in Chromium, in English and Hebrew (issue 15): a donor asks for a sign-in link
 * on `/{lang}/account`, the link is read from the outbox's message (rendered as the email is),
 * followed and confirmed; the signed-in page lists the gifts and the monthly gift, and its receipt
 * link downloads the PDF; the used link and a tampered one are refused; sign-out leaves the form.
 * Axe finds nothing on any of these states. (Every step is a plain form: `account_sign_in_test.ts`
 * and `account_page_test.ts` drive them over HTTP alone, without JavaScript.)
 */
import assert from "node:assert/strict";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { donorFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const WAIT = 15_000;

browserTest(
  "donor portal: ask for a link, sign in, see gifts, download a receipt, sign out (en, he)",
  async (t) => {
    const app = await startTestApp({
      env: { RECEIPT_LEGAL_NAME: "Example Museum Association", RECEIPT_ADDRESS: "1 Museum Road, Jerusalem" },
    });
    const render = createRenderer({
      store: app.store,
      publicUrl: app.url,
      manageKey: await manageLinkKey(app.config.appSecret),
      signInKey: await signInKey(app.config.appSecret),
      receiptAttachment: () => Promise.resolve(null),
    });
    const browser = await launchBrowser();
    try {
      for (const lang of ["en", "he"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          const email = `${lang}.${crypto.randomUUID().slice(0, 8)}@example.org`;
          const donorId = `b_${crypto.randomUUID()}`;
          await app.store.donors.create(donorFixture({ id: donorId, email }));
          const gift = txFixture({
            donorId,
            user: { firstName: "Noa", lastName: "Cohen", email },
            amount: 18_050,
            currency: 1,
            createdAt: new Date().toISOString(),
          });
          await app.store.transactions.record(gift);
          const receipt = await issueReceipt(app.store, app.config.receipts, {
            transaction: gift,
            donorName: "Noa Cohen",
            donorTaxId: null,
          });
          await app.store.subscriptions.create(subscriptionFixture({ donorId, language: lang }));

          const context = await browser.newContext({
            bypassCSP: true, // lets axe be injected
            acceptDownloads: true,
            locale: lang === "he" ? "he-IL" : "en-US",
          });
          context.setDefaultTimeout(WAIT);
          const page = await context.newPage();
          const watched = await watchPage(page);
          const audit = (what: string) => assertAxeClean(page, what);
          try {
            const opened = await page.goto(`${app.url}/${lang}/account`);
            assert.equal(opened?.status(), 200);
            assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
            await audit(`${lang}: sign-in form`);
            await page.getByLabel(tr("account.emailLabel")).fill(email);
            await page.getByRole("button", { name: tr("account.submit") }).click();
            await page.getByText(tr("account.sent", { email })).waitFor();
            await audit(`${lang}: link sent`);

            // The newest sign-in email in the outbox (written with its link in one step).
            const message = (await app.services.store.outbox.listRecent(50))
              .find((m) => m.kind === "sign-in-link" && m.language === lang);
            assert.ok(message, "a sign-in-link message was enqueued");
            const rendered = await render(message);
            assert.deepEqual(rendered?.to, [email]);
            const link = rendered!.text.match(/http:\/\/\S+\/account\/sign-in\?t=\S+/)?.[0];
            assert.ok(link, rendered!.text);

            assert.equal((await page.goto(link))?.status(), 200);
            await audit(`${lang}: sign-in confirmation`);
            await page.getByRole("button", { name: tr("account.email.button") }).click();
            await page.waitForLoadState();
            await page.getByText(tr("account.signedInAs")).waitFor();
            assert.equal(new URL(page.url()).pathname, `/${lang}/account`);
            assert.ok((await page.locator("main").textContent())?.includes(email));
            assert.equal(await page.locator(".gift-table tbody tr").count(), 1);
            await page.getByText(tr("account.cardLine", { brand: "Visa", last4: "4580" })).waitFor();
            await audit(`${lang}: signed in`);

            const [download] = await Promise.all([
              page.waitForEvent("download"),
              page.getByRole("link", { name: tr("account.receiptLink", { number: receipt.number }) }).click(),
            ]);
            const bytes = await Deno.readFile(await download.path());
            assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");

            // The link again (used), and a tampered one: refused, translated.
            const used = new URL(link).searchParams.get("t")!;
            const again = await page.request.post(`${app.url}/${lang}/account/sign-in`, {
              form: { t: used },
              headers: { origin: app.url },
            });
            assert.equal(again.status(), 410);
            const tampered = `${used.slice(0, -3)}${used.endsWith("AAA") ? "BBB" : "AAA"}`;
            assert.equal(
              (await page.goto(`${app.url}/${lang}/account/sign-in?t=${tampered}`))?.status(),
              400,
            );
            await page.getByText(tr("account.linkRefused")).waitFor();
            await audit(`${lang}: refused link`);

            await page.goto(`${app.url}/${lang}/account`);
            await page.getByRole("button", { name: tr("account.signOut") }).click();
            await page.getByText(tr("account.signedOut")).waitFor();
            assert.equal(await page.locator(".gift-table").count(), 0);
            await audit(`${lang}: signed out`);
            // The only problems are the refusals' own statuses.
            assert.deepEqual(
              watched.all().filter((p) => !/\b(400|410)\b/.test(JSON.stringify(p))),
              [],
              `${lang}: clean pages`,
            );
          } finally {
            await context.close();
          }
        });
      }
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
