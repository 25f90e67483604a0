/**
 * The phone header's language menu (issue 27): on a 390 px phone the header is one row (the logo
 * and a compact language menu side by side, where the five language links took two rows), the menu
 * opens from the keyboard and leads to the page in the chosen language, with JavaScript and
 * without; on a 1280 px laptop the five links show as before and no menu. English and Hebrew
 * (right to left), axe clean with the menu open.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };

/** Whether two boxes share a row (their vertical extents overlap). */
async function sameRow(page: Page, a: string, b: string): Promise<boolean> {
  const [x, y] = [await page.locator(a).boundingBox(), await page.locator(b).boundingBox()];
  return !!x && !!y && x.y < y.y + y.height && y.y < x.y + x.height;
}

for (const lang of ["en", "he"] as const) {
  for (const javaScriptEnabled of [true, false]) {
    const how = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
    browserTest(
      `language menu (${lang}, ${how}): one header row on a phone; the links on a laptop`,
      async () => {
        const app = await startTestApp();
        const browser = await launchBrowser();
        try {
          const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
          const page = await context.newPage();
          const watched = await watchPage(page);
          const tr = translator(lang);
          await page.goto(`${app.url}/${lang}/`);
          const nav = page.getByRole("navigation", { name: tr("header.languageSelector") });
          const menu = nav.locator("details.lang-menu > summary");
          assert.ok(await menu.isVisible(), "the menu's button shows on a phone");
          assert.ok(await sameRow(page, ".site-header .logo", ".lang-menu summary"), "one row");
          const header = (await page.locator(".site-header").boundingBox())!;
          assert.ok(header.height < 90, `the header is ${header.height} px high`);
          // Named by what it does and showing the current language.
          assert.match(await menu.innerText(), new RegExp(tr("languageName")));
          // Closed, none of the links shows; opened from the keyboard, each does.
          const other = lang === "he" ? "en" : "he";
          const link = nav.locator(`details.lang-menu a[hreflang=${other}]`);
          assert.equal(await link.isVisible(), false);
          // From the keyboard with JavaScript; a click without (Playwright's focus needs scripts).
          if (javaScriptEnabled) {
            await menu.focus();
            await page.keyboard.press("Enter");
          } else await menu.click();
          await link.waitFor({ state: "visible" });
          assert.equal(await nav.locator("details.lang-menu a:visible").count(), 5);
          await page.screenshot({
            path: `/tmp/i27s-lang-menu-${lang}-${javaScriptEnabled ? "js" : "nojs"}.png`,
          });
          if (javaScriptEnabled) {
            // Axe runs as a script: with JavaScript only (the markup is the same without).
            await assertAxeClean(page, `${lang} ${how}: the menu open`);
            await link.focus();
            await page.keyboard.press("Enter");
          } else await link.click();
          await page.waitForURL(`${app.url}/${other}/`);

          await page.setViewportSize(LAPTOP);
          await page.goto(`${app.url}/${lang}/`);
          assert.equal(await menu.isVisible(), false, "no menu on a laptop");
          assert.equal(await nav.locator("a:visible").count(), 5, "the five links as before");
          assert.deepEqual(watched.all(), []);
          await context.close();
        } finally {
          await browser.close();
          await app.close();
        }
      },
    );
  }
}
