/**
 * A monthly gift's forms on the donor portal in Chromium, with JavaScript OFF (the forms need none),
 * in English and Hebrew (issue 15), with billing (`lib/monthly_gifts/billing.ts`) run on a clock moved
 * through the months:
 * - opened by the email's manage link (its page's button): a bad amount is refused beside the form;
 *   a lower tier is taken, and the next charge uses it;
 * - a pause of two months: billing across the paused months charges nothing, after it once;
 * - the next charge skipped, then resumed at once: that charge is made after all, once;
 * - cancelled with a reason: nothing more is charged, the reason is stored, and every change's
 *   confirmation email is in the outbox (rendered as the email is sent).
 * Axe finds nothing on each state (audited in a second context, with JavaScript on for axe and the
 * same session), nor on the sign-in form a manage link that no longer works lands on.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createLogger } from "@/lib/core/log.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import { createManageToken, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { nextMonth } from "@/lib/monthly_gifts/billing_dates.ts";
import type { PaymentProvider } from "@/lib/providers/provider.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

const WAIT = 15_000;
const DAY = 86_400_000;
const MINUTE = 60_000;

/** A provider that approves every token charge and notes its amount. */
function approvingProvider(charges: { reference: string; amount: number }[]): PaymentProvider {
  return {
    id: "sandbox",
    chargeToken(request: { reference: string; amount: number; currency: 1 | 2 }) {
      charges.push({ reference: request.reference, amount: request.amount });
      return Promise.resolve({
        providerRef: `ch_${crypto.randomUUID()}`,
        statusCode: "000",
        errorMessage: null,
        amount: request.amount,
        currency: request.currency,
        reference: request.reference,
        token: null,
        resultData: null,
      });
    },
  } as unknown as PaymentProvider;
}

/** The date as the portal writes it. */
const shown = (iso: string, lang: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));

async function scenario(app: TestApp, browser: Browser, lang: Lang) {
  const tr = translator(lang);
  const charges: { reference: string; amount: number }[] = [];
  const provider = approvingProvider(charges);
  const quiet = createLogger(() => {});
  /** One billing pass at `at`; answers the charges it made. */
  const bill = async (at: string) => {
    const before = charges.length;
    await runBillingPass({
      store: app.store,
      provider,
      log: quiet,
      holder: `t-${lang}`,
      now: () => new Date(at),
    });
    return charges.slice(before);
  };
  const after = (iso: string) => new Date(Date.parse(iso) + MINUTE).toISOString();

  const email = `gifts-${lang}.${crypto.randomUUID().slice(0, 8)}@example.org`;
  const donorId = `gb_${crypto.randomUUID()}`;
  await app.store.donors.create(donorFixture({ id: donorId, email, monthlyPaymentAvailable: true }));
  const createdAt = new Date(Date.now() - 10 * DAY).toISOString();
  const step = (iso: string) => nextMonth(iso, createdAt);
  const p0 = step(createdAt);
  const gift = subscriptionFixture({
    donorId,
    amount: 10_000,
    currency: 1,
    language: lang,
    createdAt,
    paymentDate: createdAt,
    nextPaymentDate: p0,
  });
  await app.store.subscriptions.create(gift);
  const stored = async () => (await app.store.subscriptions.get(gift.id))!;

  const off = await browser.newContext({
    javaScriptEnabled: false,
    locale: lang === "he" ? "he-IL" : "en-US",
  });
  off.setDefaultTimeout(WAIT);
  let on: BrowserContext | undefined;
  try {
    const page = await off.newPage();
    const token = await createManageToken(await manageLinkKey(app.config.appSecret), donorId);
    assert.equal((await page.goto(`${app.url}/${lang}/account?token=${token}`))?.status(), 200);
    // The link's page signs nobody in by itself: its button does (a POST, no JavaScript needed).
    await page.getByRole("button", { name: tr("portalAccess.open.button") }).click();
    await page.waitForURL(`${app.url}/${lang}/account`);
    await page.getByText(tr("portalGifts.stateActive")).waitFor();

    // Axe, in a context with JavaScript (for axe) and the same session; every <details> opened.
    on = await browser.newContext({
      bypassCSP: true,
      storageState: await off.storageState(),
      locale: lang === "he" ? "he-IL" : "en-US",
    });
    on.setDefaultTimeout(WAIT);
    const auditPage = await on.newPage();
    const audit = async (what: string, target: string | ((p: Page) => Promise<void>)) => {
      if (typeof target === "string") await auditPage.goto(app.url + target);
      else await target(auditPage);
      await auditPage.evaluate(() => document.querySelectorAll("details").forEach((d) => d.open = true));
      await assertAxeClean(auditPage, `${lang} ${what}`);
    };
    await audit("active gift", `/${lang}/account`);

    // A bad amount: refused beside the form, translated, nothing changed.
    const amountSummary = page.locator("summary", { hasText: tr("portalGifts.amountTitle") });
    await amountSummary.click();
    await page.getByLabel(tr("portalGifts.otherAmount"), { exact: true }).check();
    await page.getByLabel(tr("portalGifts.otherAmountLabel")).fill("0.5");
    await page.getByRole("button", { name: tr("portalGifts.amountButton") }).click();
    await page.getByText(
      tr("portalGifts.errors.amountTooSmall", { min: 1, max: app.config.payments.maxAmount }),
    )
      .waitFor();
    assert.equal(
      await page.getByLabel(tr("portalGifts.otherAmountLabel")).getAttribute("aria-invalid"),
      "true",
    );
    assert.equal((await stored()).amount, 10_000);
    await audit("refused amount", async (p) => {
      await p.goto(`${app.url}/${lang}/account`);
      await p.locator("summary", { hasText: tr("portalGifts.amountTitle") }).click();
      await p.getByLabel(tr("portalGifts.otherAmount"), { exact: true }).check();
      await p.getByLabel(tr("portalGifts.otherAmountLabel")).fill("0.5");
      await p.getByRole("button", { name: tr("portalGifts.amountButton") }).click();
      await p.getByText(
        tr("portalGifts.errors.amountTooSmall", { min: 1, max: app.config.payments.maxAmount }),
      )
        .waitFor();
    });

    // A lower tier (the email's link may lower, not raise): ₪20 from the next charge on; billing's
    // next charge uses it.
    await page.goto(`${app.url}/${lang}/account`);
    await amountSummary.click();
    await page.locator('input[name="amount"][value="20"]').check();
    await page.getByRole("button", { name: tr("portalGifts.amountButton") }).click();
    await page.getByText(tr("portalGifts.done.amount")).waitFor();
    assert.equal(new URL(page.url()).search, "?done=amount");
    await audit("amount changed", `/${lang}/account?done=amount`);
    assert.deepEqual(
      (await bill(after(p0))).map((c) => c.amount),
      [2_000],
      "the next charge at the new amount",
    );
    const p1 = step(p0);
    assert.equal((await stored()).nextPaymentDate, p1);
    await page.goto(`${app.url}/${lang}/account`);
    const firstRow = page.locator(".gift-table tbody tr").first();
    assert.ok((await firstRow.textContent())?.includes(formatMoney(2_000, 1, lang)), "the charge is listed");

    // Pause two months: nothing charged in them, then one charge.
    await page.locator("summary", { hasText: tr("portalGifts.pauseTitle") }).click();
    await page.getByLabel(tr("portalGifts.pauseLabel")).selectOption("2");
    await page.getByRole("button", { name: tr("portalGifts.pauseButton") }).click();
    await page.getByText(tr("portalGifts.done.pause")).waitFor();
    const p2 = step(p1), p3 = step(p2);
    await page.getByText(tr("portalGifts.statePaused", { date: shown(p3, lang) })).waitFor();
    await audit("paused", `/${lang}/account?done=pause`);
    assert.deepEqual(await bill(after(p1)), [], "paused: no charge");
    assert.deepEqual(await bill(after(p2)), [], "still paused: no charge");
    assert.deepEqual((await bill(after(p3))).map((c) => c.amount), [2_000], "after the pause: one charge");
    assert.deepEqual(await bill(after(after(p3))), [], "and only one");
    const p4 = step(p3);
    assert.equal((await stored()).nextPaymentDate, p4);

    // Skip the next charge, then resume at once: the charge is made after all, once.
    await page.goto(`${app.url}/${lang}/account`);
    await page.locator("summary", { hasText: tr("portalGifts.pauseTitle") }).click();
    await page.getByRole("button", { name: tr("portalGifts.skipButton", { date: shown(p4, lang) }) }).click();
    await page.getByText(tr("portalGifts.done.skip")).waitFor();
    const p5 = step(p4);
    await page.getByText(tr("portalGifts.stateSkipped", { date: shown(p4, lang), next: shown(p5, lang) }))
      .waitFor();
    await audit("skipped", `/${lang}/account?done=skip`);
    await page.getByRole("button", { name: tr("portalGifts.resumeButton") }).click();
    await page.getByText(tr("portalGifts.done.resume")).waitFor();
    await page.getByText(tr("portalGifts.stateActive")).waitFor();
    assert.equal((await stored()).nextPaymentDate, p4, "the skipped charge is given back");
    assert.deepEqual((await bill(after(p4))).map((c) => c.amount), [2_000]);
    assert.equal((await stored()).nextPaymentDate, p5);

    // Cancel with a reason: nothing more is charged.
    await page.goto(`${app.url}/${lang}/account`);
    await page.locator("summary", { hasText: tr("portalGifts.cancelTitle") }).click();
    await page.getByLabel(tr("portalGifts.reasonLabel")).selectOption("moved-away");
    await page.getByRole("button", { name: tr("portalGifts.cancelButton") }).click();
    await page.getByText(tr("portalGifts.done.cancel")).waitFor();
    await page.getByText(tr("account.noMonthly")).waitFor();
    await audit("cancelled", `/${lang}/account?done=cancel`);
    const cancelled = await stored();
    assert.equal(cancelled.status, "cancelled");
    assert.equal(cancelled.cancelReason, "moved-away");
    assert.deepEqual(await bill(after(p5)), [], "cancelled: no charge");
    assert.equal(charges.length, 3, "three charges in all, each period once");
    assert.equal(new Set(charges.map((c) => c.reference)).size, 3);

    // The confirmations: one per change, as the emails are rendered to send.
    const render = createRenderer({
      store: app.store,
      publicUrl: app.url,
      manageKey: await manageLinkKey(app.config.appSecret),
      signInKey: await signInKey(app.config.appSecret),
      receiptAttachment: () => Promise.resolve(null),
    });
    const museum = tr("welcome.museumTitle");
    const cancelMail = await app.store.outbox.get(`gift-cancelled:${gift.id}`);
    assert.ok(cancelMail, "the cancellation's email is queued");
    const rendered = await render(cancelMail);
    assert.equal(rendered?.subject, tr("email.cancelled.subject", { museum }));
    assert.deepEqual(rendered?.to, [email]);
    let changed = 0;
    for (let v = 1; v <= cancelled.version; v++) {
      const m = await app.store.outbox.get(`gift-changed:${gift.id}:${v}`);
      if (!m) continue;
      changed++;
      assert.equal((await render(m))?.subject, tr("giftChanges.subject", { museum }));
    }
    assert.equal(changed, 4, "amount, pause, skip and resume each confirmed once");

    // A manage link that no longer works (here: changed) shows the sign-in form, saying so.
    const stranger = await browser.newContext({ bypassCSP: true, locale: lang === "he" ? "he-IL" : "en-US" });
    try {
      const p = await stranger.newPage();
      const bad = `${token.slice(0, -3)}${token.endsWith("AAA") ? "BBB" : "AAA"}`;
      assert.equal((await p.goto(`${app.url}/${lang}/account?token=${bad}`))?.status(), 200);
      await p.getByText(tr("portalGifts.manageLinkRefused")).waitFor();
      await assertAxeClean(p, `${lang} refused manage link`);
    } finally {
      await stranger.close();
    }
  } finally {
    await on?.close();
    await off.close();
  }
}

browserTest(
  "donor portal: change, pause, skip, resume and cancel a monthly gift without JavaScript (en, he)",
  async (t) => {
    const app = await startTestApp({});
    const browser = await launchBrowser();
    try {
      for (const lang of ["en", "he"] as const) {
        await t.step(lang, () => scenario(app, browser, lang));
      }
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
