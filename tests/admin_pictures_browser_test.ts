/**
 * Golden pictures of the back office (issue 26): the overview (`/{lang}/admin`: what needs staff
 * today), the transactions section (`/{lang}/admin/transactions`: the header, the navigation, the
 * daily chart and the transaction history) and, since issue 29, every other section, at 1280 and 390 px, in English and Hebrew, screenshots in greyscale compared with the
 * pictures kept in `tests/golden/` within the receipts' tolerance (`tests/helpers/golden.ts`). The
 * data is fixed (`fillBackOffice` from a fixed instant) and so is the clock, the server's
 * (`shiftClock`) and the browser's, so a picture changes only when the page does.
 * `deno task golden:update` takes them anew: look at each one before committing it.
 */
import type { Page } from "playwright-core";
import type { Lang } from "@/lib/shared/languages.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { fillBackOffice, OWNER } from "@/tests/helpers/back_office_data.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";
import { shiftClock } from "@/tests/helpers/clock.ts";
import { assertPictureLooksLike, greyPicture, picturePage, settlePage } from "@/tests/helpers/golden.ts";

const WAIT = 15_000;
/** Noon in Jerusalem on a Tuesday: the day the pictures show. */
const NOW = new Date("2026-03-10T10:00:00.000Z");
const WIDTHS = [{ width: 1280, height: 900 }, { width: 390, height: 844 }];

/** A part of the back office: its page, what shows it has loaded, and the elements the picture spans. */
interface Picture {
  name: string;
  path: string;
  ready: string[];
  from: string;
  to: string;
}

const PICTURES: Picture[] = [
  {
    name: "overview",
    path: "admin",
    ready: [".admin-shell[data-ready]", ".overview[data-loaded]"],
    from: "main",
    to: "main",
  },
  {
    name: "transactions",
    path: "admin/transactions",
    ready: [".daily-totals[data-settled] .chart-table", ".history[data-loaded]"],
    from: "main",
    to: "main",
  },
  // Every other section (issue 29 rewrote the back office's islands for size: staff must see no
  // difference), each once its answers are on screen. Not the audit log: its newest entries are the
  // test's own sign-in (a random session id) and entries of the same second in no fixed order.
  ...([
    ["donors", []],
    ["members", ["main [data-loaded]"]],
    ["reports", [".report-view[data-loaded]"]],
    ["kiosks", [".kiosk-devices"]],
    ["email", [".outbox[data-loaded]"]],
    ["staff", ['section[aria-labelledby="staff-title"][data-loaded]']],
    ["settings", ['section[aria-labelledby="flags-title"][data-loaded]', ".museum-editor[data-loaded]"]],
    ["two-factor", []],
    ["desk", ["main [data-loaded]"]],
  ] as const).map(([name, ready]): Picture => ({
    name,
    path: `admin/${name}`,
    ready: [".admin-shell[data-ready]", ...ready],
    from: "main",
    to: "main",
  })),
];

/** The page from the top of `from` to the bottom of `to`, as a PNG. */
async function screenshot(page: Page, from: string, to: string): Promise<Uint8Array> {
  const clip = await page.evaluate(({ from, to }) => {
    const top = document.querySelector(from)!.getBoundingClientRect().top + scrollY;
    const bottom = document.querySelector(to)!.getBoundingClientRect().bottom + scrollY;
    return {
      x: 0,
      y: Math.floor(top),
      width: document.documentElement.clientWidth,
      height: Math.ceil(bottom - top),
    };
  }, { from, to });
  return await page.screenshot({ clip, fullPage: true });
}

for (const lang of ["en", "he"] as const satisfies readonly Lang[]) {
  browserTest(
    `back office pictures (${lang}): every section looks as it did, 1280 and 390 px`,
    async (t) => {
      const restore = shiftClock(NOW);
      const app = await startTestApp();
      const browser = await launchBrowser();
      try {
        await fillBackOffice(app, NOW, 6);
        const { context, page } = await picturePage(browser, lang, NOW, WIDTHS[0]);
        await signInToBackOffice(page, app.url, lang, OWNER, WAIT);
        for (const picture of PICTURES) {
          for (const size of WIDTHS) {
            await t.step(`${picture.name} at ${size.width} px`, async () => {
              // Resized away from the page: the transactions section asks for its chart again when its box
              // changes width, and the navigation would cut that call off.
              await page.goto("about:blank");
              await page.setViewportSize(size);
              await page.goto(`${app.url}/${lang}/${picture.path}`);
              for (const selector of picture.ready) {
                await page.locator(selector).first().waitFor({ timeout: WAIT });
              }
              // Every answer in and drawn; nothing hovered or focused: the picture is the page at rest.
              await page.waitForLoadState("networkidle", { timeout: WAIT });
              // Nothing still loading (a spinner, a busy region).
              await page.waitForFunction(
                () => !document.querySelector('.loading, [aria-busy="true"]'),
                null,
                {
                  timeout: WAIT,
                },
              );
              await settlePage(page);
              const png = await screenshot(page, picture.from, picture.to);
              await assertPictureLooksLike(
                greyPicture(png),
                new URL(`./golden/back-office-${picture.name}-${lang}-${size.width}.png`, import.meta.url),
              );
            });
          }
        }
        await context.close();
      } finally {
        await browser.close();
        await app.close();
        restore();
      }
    },
  );
}
