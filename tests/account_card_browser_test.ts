/**
 * The donor portal's card update in Chromium, in English and Hebrew (issue 15): a donor whose
 * monthly gift is failing (its card declined the last charge) signs in by a one-time link, presses
 * "Update card", tries a card the sandbox declines (back on the account page with a translated
 * message, the old card still shown), then a good one: the page shows the new last four, the gift
 * was charged at once with the new card (one success, no second charge by a billing pass after), and
 * the `card-updated` email names the new card. Axe finds nothing on the account page's states and
 * the sandbox's check page. (Every step is a plain form; `account_card_test.ts` drives them over HTTP
 * alone, without JavaScript.)
 */
import assert from "node:assert/strict";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createLogger } from "@/lib/core/log.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { signInLinkUrl } from "@/tests/helpers/donor_portal.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { GOOD_CARD } from "@/tests/helpers/payments.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

const WAIT = 15_000;
const HOUR = 3_600_000;

browserTest(
  "donor portal: update a failing gift's card on the sandbox, declined then good (en, he)",
  async (t) => {
    const app = await startTestApp();
    const render = createRenderer({
      store: app.store,
      publicUrl: app.url,
      manageKey: await manageLinkKey(app.config.appSecret),
      signInKey: await signInKey(app.config.appSecret),
      receiptAttachment: () => Promise.resolve(null),
    });
    const provider = app.services.providerFor(app.url);
    const browser = await launchBrowser();
    try {
      for (const lang of ["en", "he"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          const email = `card.${lang}.${crypto.randomUUID().slice(0, 8)}@example.org`;
          const donor = donorFixture({ email, firstName: "Noa" });
          await app.store.donors.create(donor);
          // The gift's card declines: its charge an hour ago failed, and waits a day for a retry.
          const oldToken = `tok_old_${crypto.randomUUID()}`;
          const now = Date.now();
          await app.store.sandbox.create({
            ref: oldToken,
            kind: "token",
            status: "active",
            reference: donor.id,
            terminalId: null,
            amount: 5_000,
            currency: 1,
            createdAt: new Date(now - 40 * 24 * HOUR).toISOString(),
            updatedAt: new Date(now - 40 * 24 * HOUR).toISOString(),
            data: { card: "4580000000004580", declineCode: "051" },
          });
          const sub = await app.store.subscriptions.create(subscriptionFixture({
            donorId: donor.id,
            provider: "sandbox",
            token: oldToken,
            cardMasked: "458045******4580",
            amount: 5_000,
            currency: 1,
            language: lang,
            createdAt: new Date(now - 40 * 24 * HOUR).toISOString(),
            nextPaymentDate: new Date(now - HOUR).toISOString(),
          }));
          const billing = { store: app.store, provider, log: createLogger(() => {}), holder: `test-${lang}` };
          assert.equal((await runBillingPass(billing)).failed, 1);
          assert.equal((await app.store.subscriptions.get(sub.id))!.failedAttempts, 1);

          const context = await browser.newContext({
            bypassCSP: true,
            locale: lang === "he" ? "he-IL" : "en-US",
          });
          context.setDefaultTimeout(WAIT);
          const page = await context.newPage();
          const watched = await watchPage(page);
          const audit = (what: string) => assertAxeClean(page, what);
          const updateButton = page.getByRole("button", {
            name: tr("portalCard.buttonFor", { amount: formatMoney(5_000, 1, lang) }),
          });
          const payOnCheckPage = async (card: string) => {
            await page.waitForURL(/\/sandbox\/pay\//);
            await page.getByLabel(tr("sandbox.cardNumber")).fill(card);
            await page.getByLabel(tr("sandbox.expiry")).fill("12/30");
            await page.getByLabel(tr("sandbox.cvv")).fill("123");
            await page.getByLabel(tr("sandbox.idNumber")).fill("123456789");
            await page.getByRole("button", { name: tr("portalCard.sandboxSubmit") }).click();
            await page.waitForURL(/\/account\?card=/);
          };
          try {
            // A card change needs a full sign-in: the one-time link the donor asked for, and its button.
            await page.goto(await signInLinkUrl(app, donor.id, lang));
            await page.getByRole("button", { name: tr("account.email.button") }).click();
            await page.waitForURL(`${app.url}/${lang}/account`);
            assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
            await page.getByText(tr("account.cardLine", { brand: "Visa", last4: "4580" })).waitFor();
            await audit(`${lang}: signed in, the Update card form`);

            // A declined card: back on the account page, the old card kept.
            await updateButton.click();
            await page.waitForURL(/\/sandbox\/pay\//);
            await page.getByText(tr("portalCard.sandboxNotice")).waitFor();
            await audit(`${lang}: the sandbox's check page`);
            await payOnCheckPage("4000 0000 0000 0051");
            assert.equal(new URL(page.url()).search, "?card=declined");
            await page.getByRole("alert").filter({ hasText: tr("portalCard.declined") }).waitFor();
            await page.getByText(tr("account.cardLine", { brand: "Visa", last4: "4580" })).waitFor();
            await audit(`${lang}: declined`);
            assert.equal((await app.store.subscriptions.get(sub.id))!.token, oldToken);

            // A good card: applied, and the failing gift charged at once with it.
            await updateButton.click();
            await payOnCheckPage(GOOD_CARD);
            assert.equal(new URL(page.url()).search, "?card=applied");
            await page.getByRole("status").filter({ hasText: tr("portalCard.applied") }).waitFor();
            await page.getByText(tr("account.cardLine", { brand: "Visa", last4: "9015" })).waitFor();
            await audit(`${lang}: applied`);

            const after = (await app.store.subscriptions.get(sub.id))!;
            assert.equal(after.failedAttempts, 0);
            assert.ok(after.nextPaymentDate > new Date().toISOString(), "the gift moved to its next period");
            const charges = await app.store.transactions.listByDonors([donor.id], 10);
            assert.deepEqual(charges.map((c) => c.kind).sort(), ["error", "success"]);
            assert.match(
              String(charges.find((c) => c.kind === "success")!.resultData?.CreditCardNumber),
              /9015$/,
            );
            // The gift's history on the page shows the charge; a billing pass now charges nothing.
            await page.reload();
            assert.equal(await page.locator(".gift-table tbody tr").count(), 2);
            const pass = await runBillingPass(billing);
            assert.equal(pass.charged + pass.failed, 0);

            const messages = (await app.store.outbox.listRecent(200)).filter((m) =>
              m.kind === "card-updated" && (m.data as { subscriptionId: string }).subscriptionId === sub.id
            );
            assert.equal(messages.length, 1, "one card-updated email");
            const mail = await render(messages[0]);
            assert.deepEqual(mail?.to, [email]);
            assert.equal(mail?.dir, lang === "he" ? "rtl" : "ltr");
            assert.ok(mail!.text.includes("9015"), mail!.text);
            assert.ok(mail!.subject.length > 0 && !mail!.subject.includes("portalCard"), mail!.subject);
            // The sandbox's finished page sends the window back at once (its script): a sub-resource
            // still loading then is cancelled by that navigation (ERR_ABORTED), no page's fault.
            const problems = watched.all().filter((p) => !/: net::ERR_ABORTED$/.test(p));
            assert.deepEqual(problems, [], `${lang}: clean pages`);
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
