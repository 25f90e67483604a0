/**
 * Back office steps for browser tests: signing an admin in through `/{lang}/login` (which lands on
 * the overview) and opening a section once the shell has the server's word on who the admin is.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { sectionHref, type SectionId } from "@/lib/shared/admin_sections.ts";

/** An admin's credentials, as registered through `POST /api/auth/admin/register`. */
export interface AdminCredentials {
  email: string;
  password: string;
}

/**
 * Waits until the back office's shell has asked the server who the admin is (`/me` answered).
 *
 * @example
 * ```ts
 * await shellReady(page);
 * ```
 */
export async function shellReady(page: Page, timeout = 10_000): Promise<void> {
  await page.locator(".admin-shell[data-ready]").waitFor({ timeout });
}

/**
 * Signs `admin` in on `/{lang}/login` and waits until the overview it lands on knows who signed in
 * and has its answers (so that leaving it aborts no request).
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
  await shellReady(page, timeout);
  await page.waitForLoadState("networkidle", { timeout });
}

/**
 * Opens a section of the back office (its query after `?`, if any) and waits for the shell, for the
 * section's requests to be answered (so that leaving it aborts none) and, for the transactions
 * section, until the history shows the view in the address.
 *
 * @example
 * ```ts
 * await openSection(page, app.url, "en", "transactions", "?type=error");
 * ```
 */
export async function openSection(
  page: Page,
  url: string,
  lang: string,
  section: SectionId,
  query = "",
  timeout = 10_000,
): Promise<void> {
  await page.goto(`${url}${sectionHref(lang, section)}${query}`);
  await shellReady(page, timeout);
  if (section === "transactions") {
    await page.waitForFunction(
      () => document.querySelector(".history")?.getAttribute("data-loaded") === location.search,
      null,
      { timeout },
    );
  }
  await page.waitForLoadState("networkidle", { timeout });
}
