/**
 * The museum's logo and hero in Chromium, in English and Hebrew (issue 27, item 1): in the settings
 * section an owner uploads an SVG with a script (refused beside the field, in the page's language),
 * then a clean SVG logo and a hero image, and edits the hero's title and image description in two
 * languages; the donation page shows the logo in its header and the hero as saved, right to left in
 * Hebrew. Axe clean on the editor and the donation page; pictures at 390 and 1280 px.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { CLEAN_SVG, pngOf } from "@/tests/helpers/images.ts";

const WAIT = 15_000;
const OWNER = { name: "Owner Staff", email: "owner@museum.org", password: "ledger-and-ink-2026" };

/** The donation page at `url` once `selector` is on it (pages read the settings a second late). */
async function pageWith(page: Page, url: string, selector: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    await page.goto(url);
    if ((await page.locator(selector).count()) > 0) return;
    assert.ok(Date.now() - started < 5_000, `${url} has no ${selector}`);
    await page.waitForTimeout(300);
  }
}

for (const lang of ["en", "he"] as const) {
  browserTest(
    `museum brand (${lang}): an owner uploads a logo, edits the hero; the page shows them`,
    async (t) => {
      const app = await startTestApp();
      const browser = await launchBrowser();
      const tr = translator(lang);
      const dir = await Deno.makeTempDir({ prefix: "brand_" });
      try {
        assert.equal((await api(app.url, "POST", "/api/auth/admin/register", OWNER)).status, 201);
        const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
        const page = await context.newPage();
        const watched = await watchPage(page);
        await signInToBackOffice(page, app.url, lang, OWNER, WAIT);
        await page.goto(`${app.url}/${lang}/admin/settings`);
        await page.locator(".museum-editor[data-loaded]").waitFor({ timeout: WAIT });

        await t.step("an SVG with a script is refused beside its field, in the page's language", async () => {
          await Deno.writeTextFile(
            `${dir}/bad.svg`,
            CLEAN_SVG.replace("</svg>", "<script>alert(1)</script></svg>"),
          );
          await page.setInputFiles("#museum-logo-file", `${dir}/bad.svg`);
          await page.click("form.museum-image[aria-labelledby='museum-logo-title'] button[type=submit]");
          const error = page.locator("#museum-logo-error");
          await error.waitFor({ timeout: WAIT });
          assert.equal((await error.innerText()).trim(), tr("museumEditor.imageErrors.script"));
          assert.equal(await page.getAttribute("#museum-logo-file", "aria-invalid"), "true");
          await assertAxeClean(page, `${lang}: a logo refused`);
        });

        await t.step(
          "a clean SVG logo and a hero image uploaded; the hero edited in two languages",
          async () => {
            await Deno.writeTextFile(`${dir}/logo.svg`, CLEAN_SVG);
            await page.setInputFiles("#museum-logo-file", `${dir}/logo.svg`);
            await page.click("form.museum-image[aria-labelledby='museum-logo-title'] button[type=submit]");
            await page.locator("form.museum-image img.museum-image-preview").first().waitFor({
              timeout: WAIT,
            });
            await Deno.writeFile(`${dir}/hero.png`, pngOf(640, 420));
            await page.setInputFiles("#museum-hero-image-file", `${dir}/hero.png`);
            await page.click(
              "form.museum-image[aria-labelledby='museum-hero-image-title'] button[type=submit]",
            );
            await page.locator(`.museum-editor[data-version="2"]`).waitFor({ timeout: WAIT });
            await page.fill("#hero-title-en", "Open late on Thursdays");
            await page.fill("#hero-title-he", "פתוחים עד מאוחר בימי חמישי");
            await page.fill("#hero-imageAlt-en", "A maroon square");
            await page.fill("#hero-imageAlt-he", "ריבוע בצבע בורדו");
            await page.click(".museum-editor button[type=submit]");
            await page.locator(`.museum-editor[data-version="3"]`).waitFor({ timeout: WAIT });
            const stored = (await app.store.museum.get())!;
            assert.equal(stored.identity.logo?.type, "image/svg+xml");
            assert.equal(stored.hero?.title.he, "פתוחים עד מאוחר בימי חמישי");
            assert.equal(stored.hero?.image?.width, 640);
            await assertAxeClean(page, `${lang}: the editor with images`);
            for (const width of [1280, 390]) {
              await page.setViewportSize({ width, height: 900 });
              await page.locator(".museum-images").screenshot({
                path: `/tmp/i27b-editor-${lang}-${width}.png`,
              });
              await page.locator(".museum-hero").screenshot({ path: `/tmp/i27b-hero-${lang}-${width}.png` });
            }
          },
        );

        await t.step("the donation page shows the logo and the hero, in the page's direction", async () => {
          const visitor = await context.newPage();
          await pageWith(visitor, `${app.url}/${lang}/`, ".hero-image");
          const logo = visitor.locator(".site-header img.museum-logo");
          assert.match((await logo.getAttribute("src"))!, /^\/museum-images\/[0-9a-f]{64}\.svg$/);
          assert.ok(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
          const title = lang === "he" ? "פתוחים עד מאוחר בימי חמישי" : "Open late on Thursdays";
          assert.equal((await visitor.locator("#hero-title").innerText()).trim(), title);
          const alt = lang === "he" ? "ריבוע בצבע בורדו" : "A maroon square";
          assert.equal(await visitor.locator(".hero-image").getAttribute("alt"), alt);
          assert.equal(
            await visitor.evaluate(() => document.documentElement.dir),
            lang === "he" ? "rtl" : "ltr",
          );
          await assertAxeClean(visitor, `${lang}: the donation page with a logo and a hero image`);
          for (const width of [1280, 390]) {
            await visitor.setViewportSize({ width, height: 900 });
            await visitor.screenshot({ path: `/tmp/i27b-donation-${lang}-${width}.png` });
          }
          await visitor.close();
        });
        // The refused upload (400) is the test's own; nothing else failed.
        assert.deepEqual(watched.all().filter((line) => !/ 400\b/.test(line)), []);
        await context.close();
      } finally {
        await browser.close();
        await app.close();
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}
