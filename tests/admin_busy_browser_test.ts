/**
 * The sign-in and register pages when the server is busy checking passwords (issue 13, item 4):
 * the API's 503 with Retry-After is shown as the translated `auth.busy` message with the seconds
 * to wait, in every language, and the form stays usable. The 503 is the server's own answer
 * (`PasswordsBusyError`, as `lib/http/domain_errors.ts` shapes it), served in place of the call.
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { Page } from "playwright-core";
import { errorAnswer, errorResponse } from "@/lib/http/domain_errors.ts";
import { PasswordsBusyError } from "@/lib/staff/errors.ts";
import en from "@/locales/en.json" with { type: "json" };
import es from "@/locales/es.json" with { type: "json" };
import he from "@/locales/he.json" with { type: "json" };
import pt from "@/locales/pt.json" with { type: "json" };
import ru from "@/locales/ru.json" with { type: "json" };
import { startTestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";

const LOCALES = { en, he, ru, pt, es };
const SUBMIT = "form.account-form button[type=submit]";
const ALERT = 'form.account-form .form-alert[role="alert"]';
const PASSWORD = "a-long-museum-passphrase";

async function alertSays(page: Page, want: string[], what: string): Promise<void> {
  const end = Date.now() + 15_000;
  let got = await page.locator(`${ALERT} p`).allTextContents();
  while (!isDeepStrictEqual(got, want) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    got = await page.locator(`${ALERT} p`).allTextContents();
  }
  assert.deepEqual(got, want, what);
}

browserTest(
  "sign-in and register, every language: a busy server's 503 says how many seconds to wait",
  async () => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      // The API's own answer to a full password queue.
      const busy = errorResponse(errorAnswer(new PasswordsBusyError(7))!);
      const body = await busy.text();
      assert.equal(busy.headers.get("retry-after"), "7");
      for (const [lang, locale] of Object.entries(LOCALES)) {
        const expected = locale.auth.busy.replace("{{seconds}}", "7");
        if (lang !== "en") assert.notEqual(locale.auth.busy, en.auth.busy, `${lang} is translated`);
        const context = await browser.newContext();
        context.setDefaultTimeout(15_000);
        for (const mode of ["login", "register"] as const) {
          const page = await context.newPage();
          await page.route(`**/api/auth/admin/${mode}`, (route) =>
            route.fulfill({
              status: 503,
              contentType: "application/json",
              headers: { "retry-after": "7" },
              body,
            }));
          assert.equal((await page.goto(`${app.url}/${lang}/${mode}`))?.status(), 200);
          if (mode === "register") await page.fill("#register-name", "Dana Levi");
          await page.fill(`#${mode}-email`, "dana@museum.org");
          await page.fill(`#${mode}-password`, PASSWORD);
          if (mode === "register") await page.fill("#register-confirm", PASSWORD);
          await page.locator(SUBMIT).press("Enter");
          await alertSays(page, [expected], `${lang} ${mode}`);
          assert.ok(await page.isEnabled(SUBMIT), `${lang} ${mode}: the button is usable again`);
          await page.close();
        }
        await context.close();
      }
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
