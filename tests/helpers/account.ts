/**
 * Helpers for the donor portal's tests (`/{lang}/account`, issue 15): signing a donor in through a
 * manage link (answers the session cookie), and a page's `<main>` as text.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createManageToken, manageLinkKey } from "../../lib/manage_link.ts";
import type { TestApp } from "./app.ts";

/**
 * Signs in as the donor of `donorId` through a manage link; answers the session cookie
 * (`donor_session=...`) to send with later requests.
 *
 * @example
 * ```ts
 * const cookie = await signedIn(app, donorId);
 * await fetch(`${app.url}/en/account`, { headers: { cookie } });
 * ```
 */
export async function signedIn(app: TestApp, donorId: string): Promise<string> {
  const token = await createManageToken(await manageLinkKey(app.config.appSecret), donorId);
  const res = await fetch(`${app.url}/en/account?token=${token}`, { redirect: "manual" });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/**
 * A page's `<main>` as text (tags dropped, the few entities the server writes decoded).
 *
 * @example
 * ```ts
 * assert.ok(mainText(await res.text()).includes("Signed in as"));
 * ```
 */
export function mainText(page: string): string {
  const main = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
  return main.replace(/<[^>]*>/g, " ").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/**
 * The manage link of `donorId` (`/{lang}/account?token=...`): following it signs the donor in, in a
 * browser too.
 *
 * @example
 * ```ts
 * await page.goto(await manageLinkUrl(app, donorId, "he"));
 * ```
 */
export async function manageLinkUrl(app: TestApp, donorId: string, lang: string): Promise<string> {
  const token = await createManageToken(await manageLinkKey(app.config.appSecret), donorId);
  return `${app.url}/${lang}/account?token=${token}`;
}
