/**
 * Signing an admin in to the back office in a browser page, for browser tests that look at what
 * the back office shows (the island needs JavaScript: the session lives in local storage).
 *
 * @module
 */
import type { Page } from "playwright-core";
import type { Lang } from "../../lib/shared/languages.ts";

/**
 * Signs in on `/{lang}/login` with `admin`'s email and password and waits for the dashboard's
 * transaction history to load.
 *
 * @example
 * ```ts
 * await signInAdmin(page, app.url, "he", { email: "dana@museum.org", password: "…" });
 * ```
 */
export async function signInAdmin(
  page: Page,
  url: string,
  lang: Lang,
  admin: { email: string; password: string },
  timeout = 15_000,
): Promise<void> {
  await page.goto(`${url}/${lang}/login`);
  await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout });
  await page.fill("#login-email", admin.email);
  await page.fill("#login-password", admin.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${url}/${lang}/admin`, { timeout });
  await page.locator(".history[data-loaded]").waitFor({ timeout });
}
