/**
 * Golden pictures of the donation page (issue 29: its islands were rewritten to ship less
 * JavaScript, and a donor must not see a difference): `/{lang}/` at rest once its islands have
 * hydrated, the monthly tab chosen, and a membership level chosen with "a gift for someone else"
 * ticked (the gift's fields open), at 1280 and 390 px, in English and Hebrew; screenshots in
 * greyscale compared with the pictures kept in `tests/golden/` within the receipts' tolerance
 * (`tests/helpers/golden.ts`). The clock is fixed, the server's and the browser's (the gift's
 * delivery day starts at today). `deno task golden:update` takes them anew: look at each one before
 * committing it.
 */
import type { Page } from "playwright-core";
import type { Lang } from "@/lib/shared/languages.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { shiftClock } from "@/tests/helpers/clock.ts";
import { assertPictureLooksLike, greyPicture, picturePage, settlePage } from "@/tests/helpers/golden.ts";
import assert from "node:assert/strict";

const WAIT = 15_000;
const NOW = new Date("2026-03-10T10:00:00.000Z");
const WIDTHS = [{ width: 1280, height: 900 }, { width: 390, height: 844 }];

/** A state of the page: its name and how a donor reaches it from the page as loaded. */
const STATES: { name: string; reach: (page: Page) => Promise<void> }[] = [
  { name: "start", reach: async () => {} },
  {
    name: "monthly",
    reach: async (page) => {
      await page.click('.period-tabs label:has(input[value="monthly"])');
    },
  },
  {
    name: "level-gift",
    reach: async (page) => {
      await page.click('label.tier-card:has(input[value="tier-2"])');
      await page.click('label[for="gift-toggle"]');
      await page.locator("#giftName").waitFor({ state: "visible", timeout: WAIT });
    },
  },
];

for (const lang of ["en", "he"] as const satisfies readonly Lang[]) {
  browserTest(
    `donation page pictures (${lang}): at rest, monthly, a level as a gift look as they did, 1280 and 390 px`,
    async (t) => {
      const restore = shiftClock(NOW);
      const app = await startTestApp();
      const browser = await launchBrowser();
      try {
        const { context, page } = await picturePage(browser, lang, NOW, WIDTHS[0]);
        const watched = await watchPage(page);
        for (const state of STATES) {
          for (const size of WIDTHS) {
            await t.step(`${state.name} at ${size.width} px`, async () => {
              await page.setViewportSize(size);
              await page.goto(`${app.url}/${lang}/`);
              await page.waitForSelector('form.donation-form[data-enhanced="true"]', { timeout: WAIT });
              await state.reach(page);
              await page.waitForLoadState("networkidle", { timeout: WAIT });
              // Scrolled to the top (the scroll-to-top button hidden), then at rest.
              await page.evaluate(() => scrollTo({ top: 0, behavior: "instant" }));
              await page.locator(".scroll-top[hidden]").waitFor({ state: "attached", timeout: WAIT });
              await settlePage(page);
              const png = await page.screenshot({ fullPage: true });
              await assertPictureLooksLike(
                greyPicture(png),
                new URL(`./golden/donation-${state.name}-${lang}-${size.width}.png`, import.meta.url),
              );
            });
          }
        }
        assert.deepEqual(watched.all(), []);
        await context.close();
      } finally {
        await browser.close();
        await app.close();
        restore();
      }
    },
  );
}
