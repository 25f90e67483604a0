/**
 * Back office steps for browser tests: signing an admin in through `/{lang}/login` and waiting for
 * the dashboard's history to be on screen.
 *
 * @module
 */
import type { Page } from "playwright-core";

/** An admin's credentials, as registered through `POST /api/auth/admin/register`. */
export interface AdminCredentials {
  email: string;
  password: string;
}

/**
 * Signs `admin` in on `/{lang}/login` and waits until the dashboard's transaction history has
 * loaded.
 *
 * @example
 * ```ts
 * await signInToBackOffice(page, app.url, "he", ADMIN);
 * ```
 */
export async function signInToBackOffice(
  page: Page,
  url: string,
  lang: string,
  admin: AdminCredentials,
  timeout = 10_000,
): Promise<void> {
  await page.goto(`${url}/${lang}/login`);
  await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout });
  await page.fill("#login-email", admin.email);
  await page.fill("#login-password", admin.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${url}/${lang}/admin`, { timeout });
  await page.locator(".history[data-loaded]").waitFor({ timeout });
}
