/**
 * Steps the donor portal's tests share (issue 15): signing in through a manage link, a form's
 * same-origin POST with the session cookie, and a page's `<main>` as text.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createManageToken, manageLinkKey } from "../../lib/manage_link.ts";
import type { TestApp } from "./app.ts";

/** The page's `<main>` as text (tags dropped, the few entities the server writes decoded). */
export function mainText(page: string): string {
  const main = page.slice(page.indexOf("<main"), page.indexOf("</main>"));
  return main.replace(/<[^>]*>/g, " ").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/** Signs in as the donor of `donorId` through a manage link; answers the session cookie (`name=value`). */
export async function signedIn(app: TestApp, donorId: string): Promise<string> {
  const token = await createManageToken(await manageLinkKey(app.config.appSecret), donorId);
  const res = await fetch(`${app.url}/en/account?token=${token}`, { redirect: "manual" });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/** A form POST from our own pages (`Origin` set), with the session cookie when given. */
export const formPost = (app: TestApp, fields: Record<string, string>, cookie?: string): RequestInit => ({
  method: "POST",
  redirect: "manual",
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    origin: app.url,
    ...(cookie ? { cookie } : {}),
  },
  body: new URLSearchParams(fields).toString(),
});
