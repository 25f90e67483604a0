/**
 * Kiosk mode and the payment island's failure paths in Chromium, in English and Hebrew: the
 * terminal's phases through to the result pages (approved, declined, timed out, decided by a person
 * on the sandbox terminal page), the deadline text, the test-terminal buttons, network and server
 * failures on the online page, a signing key that expired while the page was open, and the result
 * pages' way back to the kiosk's start on Playwright's clock.
 *
 * One browser for the whole file; one app per configuration, started when first needed.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page, Request, Route } from "playwright-core";
import { errorMessageKey } from "@/lib/donations/error_codes.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { signPayload } from "@/lib/shared/signing.ts";
import { issueBrowserKey } from "@/lib/signing/signature_check.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { kioskContext, pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { newDonor } from "@/tests/helpers/payments.ts";

/** How long one wait may take before the test fails, in ms. */
const WAIT = 10_000;
const LANGS = ["en", "he"] as const;
const SHOP = "7";
const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

/** The configurations the scenarios need, by name. */
const ENVS: Record<string, Record<string, string>> = {
  approve: { SANDBOX_TERMINAL_AUTO: "approve" },
  decline: { SANDBOX_TERMINAL_AUTO: "decline:004" },
  timeout: { SANDBOX_TERMINAL_AUTO: "timeout", TERMINAL_DEADLINE_SECONDS: "1" },
  manual: { SANDBOX_TERMINAL_AUTO: "manual" },
  testOn: { FEATURE_TEST_TERMINAL_PAYMENT: "1", TEST_TERMINALS: "2001,2002,2003" },
  testOff: { FEATURE_TEST_TERMINAL_PAYMENT: "0", TEST_TERMINALS: "2001,2002,2003" },
  online: {},
};

/** The deadline sentence for a duration, written as the page writes it (Intl, long unit). */
function deadlineText(lang: Lang, value: number, unit: "second" | "minute"): string {
  const duration = new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(value);
  return translator(lang)("terminal.deadline", { duration });
}

/** The four kiosk phases, in order, in `lang`. */
function phaseTexts(lang: Lang): string[] {
  const t = translator(lang);
  return ["terminal.payAtTerminal", "terminal.attachCard", "terminal.waitingForCard", "terminal.processing"]
    .map((k) => t(k));
}

/**
 * Records every text the kiosk's phase line shows, in order, across the page's documents (a
 * MutationObserver installed before any page script reports each change on the console).
 */
async function recordPhases(page: Page): Promise<string[]> {
  const phases: string[] = [];
  page.on("console", (msg) => {
    const m = msg.text().match(/^kiosk-phase (.*)$/s);
    if (m) phases.push(m[1]);
  });
  await page.addInitScript(() => {
    let last: string | null = null;
    new MutationObserver(() => {
      const text = document.querySelector(".terminal-phase")?.textContent ?? null;
      if (text && text !== last) console.info(`kiosk-phase ${text}`);
      last = text;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return phases;
}

/** Holds requests matching `pattern` until `open()`; `seen` resolves with the first one. */
async function gate(page: Page, pattern: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => open = resolve);
  let saw!: (req: Request) => void;
  const seen = new Promise<Request>((resolve) => saw = resolve);
  await page.route(pattern, async (route: Route) => {
    saw(route.request());
    await opened;
    await route.continue();
  });
  return { seen, open };
}

async function enhanced(page: Page) {
  await page.waitForSelector('form.donation-form[data-enhanced="true"]');
}

/** Chooses tier 2 (100 NIS) and fills the donor's details on an enhanced donation page. */
async function chooseAndFill(page: Page) {
  await enhanced(page);
  await page.click('label.tier-card:has(input[value="tier-2"])');
  for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
}

/**
 * On a terminal result page: the progress bar, on the page's clock, leaves nothing to do before
 * 7 s; then the page goes back to the shop's kiosk page by itself, and the kiosk shows an empty
 * form. The clock is installed paused and the result page reloaded under it (the kiosk itself runs
 * on real time, so the signed request's timestamp is real).
 */
async function returnsToKiosk(page: Page, app: TestApp, lang: Lang) {
  const here = page.url();
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1_000);
  await page.reload();
  await page.clock.runFor(100);
  await page.locator('[role="progressbar"]').waitFor({ state: "visible" });
  await page.clock.runFor(6_500);
  assert.equal(page.url(), here, "still on the result page at 6.6 s");
  await page.clock.runFor(600);
  await page.waitForURL(`${app.url}/${lang}/terminal-payment/${SHOP}`);
  await page.waitForLoadState("load");
  await page.clock.runFor(500); // the islands' effects
  await enhanced(page);
  assert.equal(await page.locator("input[name=choice]:checked").count(), 0, "no tier chosen");
  for (const name of Object.keys(DONOR)) assert.equal(await page.inputValue(`#donor-${name}`), "");
  assert.equal(await page.locator(".donate-button").isVisible(), true);
  assert.equal(await page.locator(".terminal-view").count(), 0);
}

browserTest(
  "kiosk and payment island in Chromium: terminal outcomes, test terminals, failures",
  async (t) => {
    const apps = new Map<string, TestApp>();
    // Each app's kiosk for SHOP, paired once: terminal sales need a paired kiosk.
    const kiosks = new Map<TestApp, string>();
    const appFor = async (name: keyof typeof ENVS) => {
      let app = apps.get(name);
      if (!app) {
        app = await startTestApp({ env: ENVS[name] });
        apps.set(name, app);
        kiosks.set(app, (await pairTestKiosk(app, SHOP)).cookie);
      }
      return app;
    };
    let browser: Browser | undefined;
    /** Makes `context` that app's paired kiosk (one app's at a time: cookies do not tell ports apart). */
    const kioskOf = (context: BrowserContext, app: TestApp) =>
      kioskContext(context, app.url, kiosks.get(app)!);
    /** A fresh browser context; with `kiosk`, it is that app's paired kiosk. */
    const withContext = async (lang: Lang, fn: (c: BrowserContext) => Promise<void>, kiosk?: TestApp) => {
      const context = await browser!.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
      context.setDefaultTimeout(WAIT);
      if (kiosk) await kioskOf(context, kiosk);
      try {
        await fn(context);
      } finally {
        await context.close();
      }
    };

    try {
      browser = await launchBrowser();

      for (const lang of LANGS) {
        const tr = translator(lang);

        await t.step(
          `${lang}: approved at the terminal, phase by phase, to the success page and back`,
          async () => {
            const app = await appFor("approve");
            await withContext(lang, async (context) => {
              const page = await context.newPage();
              const watched = await watchPage(page);
              const phases = await recordPhases(page);
              const sale = await gate(page, "**/api/payment/pay-emv");
              const landing = await gate(page, `**/${lang}/terminal-success/**`);
              await page.goto(`${app.url}/${lang}/terminal-payment/${SHOP}`);
              await chooseAndFill(page);
              await page.click(".donate-button");

              const [pay, attach, waiting, processing] = phaseTexts(lang);
              const phase = page.locator(".terminal-view .terminal-phase");
              await phase.filter({ hasText: pay }).waitFor();
              // The default deadline, 60 s, reads as one minute.
              assert.equal(
                await page.textContent(".terminal-view .deadline-note"),
                deadlineText(lang, 1, "minute"),
              );
              const request = await sale.seen;
              assert.deepEqual(
                Object.fromEntries(
                  Object.entries(request.postDataJSON()).filter(([k]) =>
                    ["amount", "currency", "isMonthly", "language", "shopNumber"].includes(k)
                  ),
                ),
                { amount: 100, currency: "nis", isMonthly: false, language: lang, shopNumber: SHOP },
              );
              // The prompts move on after 1.5 s and 3.5 s (real time) while the terminal has not answered.
              await phase.filter({ hasText: attach }).waitFor();
              await phase.filter({ hasText: waiting }).waitFor();
              sale.open();
              // The terminal answered: 'processing' shows while the browser goes to the result page.
              await landing.seen;
              // (Read through the phase recorder: Playwright's locators wait for the pending navigation.)
              for (let i = 0; i < 100 && phases.at(-1) !== processing; i++) await page.waitForTimeout(50);
              assert.equal(phases.at(-1), processing, "'processing' while the result page loads");
              landing.open();
              await page.waitForURL(
                new RegExp(`/${lang}/terminal-success/${SHOP}\\?SandboxTransactionId=[^&]+$`),
              );
              assert.deepEqual(phases, [pay, attach, waiting, processing]);

              const id = new URL(page.url()).searchParams.get("SandboxTransactionId")!;
              const recorded = await app.store.transactions.getByProviderId("sandbox", id);
              assert.equal(recorded?.kind, "success");
              assert.equal(recorded?.amount, 10_000);
              assert.equal(await page.textContent(".result-message"), tr("terminalSuccess.message"));
              assert.equal(
                (await page.textContent(".result-id"))?.trim(),
                `${tr("terminalSuccess.transactionId")}: ${id}`,
              );
              assert.equal(await page.textContent(".result-id .code"), recorded!.providerTransactionId);
              await returnsToKiosk(page, app, lang);
              assert.deepEqual(watched.all(), []);
            }, app);
          },
        );

        await t.step(`${lang}: declined with 004, to the error page with its message, and back`, async () => {
          const app = await appFor("decline");
          await withContext(lang, async (context) => {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await page.goto(`${app.url}/${lang}/terminal-payment/${SHOP}`);
            await chooseAndFill(page);
            await page.click(".donate-button");
            await page.waitForURL(
              new RegExp(
                `/${lang}/terminal-error/${SHOP}\\?SandboxStatusCode=004&SandboxTransactionId=[^&]+$`,
              ),
            );
            assert.equal(await page.textContent(".result-reason"), tr(errorMessageKey("004")));
            const id = new URL(page.url()).searchParams.get("SandboxTransactionId")!;
            const recorded = await app.store.transactions.getByProviderId("sandbox", id);
            assert.equal(recorded?.kind, "error");
            assert.equal(recorded?.statusCode, "004");
            assert.equal(await page.textContent(".result-id .code"), id);
            await returnsToKiosk(page, app, lang);
            assert.deepEqual(watched.all(), []);
          }, app);
        });

        await t.step(`${lang}: the terminal does not answer within the 1 s deadline: 512`, async () => {
          const app = await appFor("timeout");
          await withContext(lang, async (context) => {
            const page = await context.newPage();
            const watched = await watchPage(page);
            const sale = await gate(page, "**/api/payment/pay-emv");
            await page.goto(`${app.url}/${lang}/terminal-payment/${SHOP}`);
            await chooseAndFill(page);
            await page.click(".donate-button");
            await sale.seen;
            const note = await page.textContent(".terminal-view .deadline-note");
            assert.equal(note, deadlineText(lang, 1, "second"));
            assert.match(note!, /\b1\b/, "the configured deadline, 1 second");
            sale.open();
            await page.waitForURL(new RegExp(`/${lang}/terminal-error/${SHOP}\\?SandboxStatusCode=512&`));
            assert.equal(await page.textContent(".result-reason"), tr(errorMessageKey("512")));
            assert.deepEqual(watched.all(), []);
          }, app);
        });

        await t.step(
          `${lang}: a person approves on the sandbox terminal page while the kiosk waits`,
          async () => {
            const app = await appFor("manual");
            await withContext(lang, async (context) => {
              const page = await context.newPage();
              const watched = await watchPage(page);
              await page.goto(`${app.url}/${lang}/terminal-payment/${SHOP}`);
              await chooseAndFill(page);
              const sent = page.waitForRequest("**/api/payment/pay-emv");
              await page.click(".donate-button");
              await sent;
              await page.locator(".terminal-view").waitFor();

              const terminal = await context.newPage();
              const approve = terminal.locator('button[name="action"][value="approve"]');
              // The sale shows once the server has started it.
              for (let i = 0; i < 50; i++) {
                await terminal.goto(`${app.url}/sandbox/terminal/sim-${SHOP}`);
                if (await approve.count() > 0) break;
                await terminal.waitForTimeout(100);
              }
              assert.equal(await approve.count(), 1, "one sale waiting at the terminal");
              assert.equal(
                page.url(),
                `${app.url}/${lang}/terminal-payment/${SHOP}`,
                "the kiosk still waits",
              );
              await approve.click();
              await terminal.waitForLoadState("load");

              await page.waitForURL(
                new RegExp(`/${lang}/terminal-success/${SHOP}\\?SandboxTransactionId=[^&]+$`),
              );
              const id = new URL(page.url()).searchParams.get("SandboxTransactionId")!;
              assert.equal((await app.store.transactions.getByProviderId("sandbox", id))?.kind, "success");
              assert.equal(await page.textContent(".result-id .code"), id);
              assert.deepEqual(watched.all(), []);
            }, app);
          },
        );

        await t.step(
          `${lang}: test-terminal buttons follow the flag and go to the returned page`,
          async () => {
            const off = await appFor("testOff");
            const on = await appFor("testOn");
            await withContext(lang, async (context) => {
              const page = await context.newPage();
              const watched = await watchPage(page);
              await page.goto(`${off.url}/${lang}/terminal-payment/${SHOP}`);
              await enhanced(page);
              assert.equal(await page.locator('button[name="testTerminal"]').count(), 0, "flag off: none");
              assert.equal(await page.getByText(tr("terminal.testTerminals")).count(), 0);

              await kioskOf(context, on);
              await page.goto(`${on.url}/${lang}/terminal-payment/${SHOP}`);
              await enhanced(page);
              const buttons = page.locator('button[name="testTerminal"]');
              assert.equal(await buttons.count(), 3, "flag on: one per test terminal");
              for (const [i, n] of ["2001", "2002", "2003"].entries()) {
                assert.equal(await buttons.nth(i).getAttribute("value"), n);
                assert.equal(await buttons.nth(i).textContent(), tr("terminal.testTerminal", { number: n }));
              }
              // The answer is read on its way to the page (its body is gone once the page navigates).
              let answered!: (url: string) => void;
              const answer = new Promise<string>((resolve) => answered = resolve);
              await page.route("**/api/payment/test-emv/*", async (route) => {
                const res = await route.fetch();
                assert.equal(res.status(), 200);
                const body = await res.json();
                answered(body.url);
                await route.fulfill({ response: res, json: body });
              });
              await page.getByRole("button", { name: tr("terminal.testTerminal", { number: "2002" }) })
                .click();
              const url = await answer;
              assert.match(url, new RegExp(`^${on.url}/sandbox/pay/`));
              await page.waitForURL(url);
              assert.deepEqual(watched.all(), []);
            }, off);
          },
        );

        await t.step(
          `${lang}: online, a network failure and a server error keep the donor's input`,
          async () => {
            const app = await appFor("online");
            await withContext(lang, async (context) => {
              const page = await context.newPage();
              const keyRequests: string[] = [];
              page.on("request", (r) => {
                if (r.url().endsWith("/api/signing-key")) keyRequests.push(r.url());
              });
              await page.goto(`${app.url}/${lang}/`);
              await chooseAndFill(page);
              const alert = page.locator('.form-alert[role="alert"]');
              const kept = async (what: string) => {
                for (const [name, value] of Object.entries(DONOR)) {
                  assert.equal(await page.inputValue(`#donor-${name}`), value, `${what}: ${name} kept`);
                }
                assert.ok(await page.isChecked('input[value="tier-2"]'), `${what}: the tier stays chosen`);
                assert.equal(
                  await page.locator(".donate-button").isVisible(),
                  true,
                  `${what}: the form is back`,
                );
                assert.equal(await page.locator("iframe.payment-frame").count(), 0);
              };

              await page.route("**/api/payment/create", (route) => route.abort());
              await page.click(".donate-button");
              await alert.waitFor();
              assert.equal(
                (await alert.textContent())?.trim(),
                (tr("payment.errorPrefix") + tr("payment.networkError")).trim(),
                "the network error, with the 'Error: ' prefix",
              );
              await kept("network failure");

              await page.unroute("**/api/payment/create");
              const message = "Payments are paused for maintenance";
              await page.route("**/api/payment/create", (route) =>
                route.fulfill({
                  status: 503,
                  contentType: "application/json",
                  body: JSON.stringify({ message, statusCode: 503 }),
                }));
              await page.click(".donate-button");
              // A 503 is the provider or the service down: said in the donor's language, not the API's English.
              await alert.filter({ hasText: tr("payment.serviceUnavailable") }).waitFor();
              assert.equal(
                await alert.textContent(),
                tr("payment.errorPrefix") + tr("payment.serviceUnavailable"),
              );
              assert.ok(!(await alert.textContent())?.includes(message));
              await kept("server error");

              // Once the server answers again, the same form starts the payment.
              await page.unroute("**/api/payment/create");
              await page.click(".donate-button");
              await page.locator("iframe.payment-frame").waitFor();
              assert.deepEqual(keyRequests, [], "the page's own key was still good");
            });
          },
        );

        await t.step(
          `${lang}: online, a signing key that expired while the page was open is renewed`,
          async () => {
            const app = await appFor("online");
            // A key the server derived 31 minutes ago: valid in form, refused as expired.
            const expired = await issueBrowserKey(app.config.appSecret, Date.now() - 31 * 60_000);
            const donorId = await newDonor(app, "Expired");
            const refused = await api(
              app.url,
              "POST",
              "/api/payment/create",
              await signPayload(
                { amount: 100, currency: "nis", userId: donorId, isMonthly: false, language: lang },
                expired,
              ),
            );
            assert.equal(
              refused.status,
              401,
              `the server refuses an expired key: ${JSON.stringify(refused.body)}`,
            );

            await withContext(lang, async (context) => {
              const page = await context.newPage();
              const watched = await watchPage(page);
              // The page as rendered, with its key swapped for the expired one.
              await page.route(`${app.url}/${lang}/`, async (route) => {
                const res = await route.fetch();
                const html = await res.text();
                const m = html.match(
                  /keyId&quot;:&quot;(v1\.(\d+)\.[0-9a-f]+)&quot;,&quot;key&quot;:&quot;([0-9a-f]+)&quot;/,
                );
                assert.ok(m, "the page carries a signing key");
                const [, keyId, expiresAt, key] = m;
                await route.fulfill({
                  response: res,
                  body: html.replaceAll(keyId, expired.keyId).replaceAll(key, expired.key)
                    .replaceAll(
                      `&quot;expiresAt&quot;:${expiresAt}`,
                      `&quot;expiresAt&quot;:${expired.expiresAt}`,
                    ),
                });
              });
              const fresh = page.waitForResponse("**/api/signing-key");
              const created = page.waitForRequest("**/api/payment/create");
              await page.goto(`${app.url}/${lang}/`);
              assert.ok(
                (await page.content()).includes(expired.keyId),
                "the island starts with the expired key",
              );
              await chooseAndFill(page);
              await page.click(".donate-button");
              const freshKey = await (await fresh).json();
              assert.ok(freshKey.expiresAt > Date.now() + 29 * 60_000, "a key good for 30 minutes");
              const body = (await created).postDataJSON();
              assert.equal(body.keyId, freshKey.keyId, "the payment is signed with the fresh key");
              await page.locator("iframe.payment-frame").waitFor();
              assert.deepEqual(watched.all(), []);
            });
          },
        );
      }
    } finally {
      await browser?.close();
      for (const app of apps.values()) await app.close();
    }
  },
);
