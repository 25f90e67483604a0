/**
 * Shared steps of the donor portal's tests (issue 15): signing in as a donor through a manage link
 * (`/{lang}/account?token=…`), posting a same-origin form with the session cookie, and reading a
 * page's `<main>` as text.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createManageToken, manageLinkKey } from "../../lib/manage_link.ts";
import type { TestApp } from "./app.ts";

/**
 * The manage link of `donorId` (`/{lang}/account?token=…`): following it signs the donor in, in a
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

/** Signs in as the donor of `donorId` through a manage link; answers the session cookie (`name=value`). */
export async function signInAs(app: TestApp, donorId: string, lang = "en"): Promise<string> {
  const res = await fetch(await manageLinkUrl(app, donorId, lang), { redirect: "manual" });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/** A page's `<main>` as text (tags dropped, the few entities the server writes decoded). */
export function mainText(page: string): string {
  const main = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
  return main.replace(/<[^>]*>/g, " ").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/** A form post from our own pages (`origin` is the app's), with the session cookie when given. */
export function formPost(app: TestApp, fields: Record<string, string>, cookie?: string): RequestInit {
  return {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: app.url,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  };
}

/** Fetches `path` without following redirects: the response, the page and its `<main>` text. */
export async function send(app: TestApp, path: string, init?: RequestInit) {
  const res = await fetch(app.url + path, { redirect: "manual", ...init });
  const page = await res.text();
  return { res, page, text: mainText(page) };
}
