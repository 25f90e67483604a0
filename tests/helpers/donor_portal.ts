/**
 * Shared steps of the donor portal's tests (issue 15): signing in as a donor (fully, by a one-time
 * link; or with a manage link's limited session, `/{lang}/account?token=…`), posting a same-origin form with the session cookie, and reading a
 * page's `<main>` as text.
 *
 * @module
 */
import assert from "node:assert/strict";
import { SIGN_IN_TTL_MS, signInKey, signInToken } from "@/lib/donor_portal/sign_in.ts";
import { hashRefreshToken } from "@/lib/staff/tokens.ts";
import { createManageToken, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import type { TestApp } from "./app.ts";

/**
 * The manage link of `donorId` (`/{lang}/account?token=…`), as every donor email carries it.
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

/** The `name=value` of a response's session cookie, or "" when it sets none. */
export const sessionCookieOf = (res: Response): string =>
  res.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("donor_session=")) ?? "";

/**
 * A one-time sign-in link for the address of `donorId`'s record, stored as `requestSignIn` stores
 * it (as if the donor had typed the address): its address, `/{lang}/account/sign-in?t=…`.
 *
 * @example
 * ```ts
 * await page.goto(await signInLinkUrl(app, donorId, "he")); // then press its button
 * ```
 */
export async function signInLinkUrl(app: TestApp, donorId: string, lang = "en"): Promise<string> {
  const donor = await app.store.donors.get(donorId);
  assert.ok(donor, `no donor ${donorId}`);
  const key = await signInKey(app.config.appSecret);
  const token = await signInToken(key, crypto.randomUUID().replaceAll("-", "").slice(0, 22));
  const now = Date.now();
  await app.store.donorSessions.createSignIn({
    hash: await hashRefreshToken(token),
    email: donor.email,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + SIGN_IN_TTL_MS).toISOString(),
    usedAt: null,
  });
  return `${app.url}/${lang}/account/sign-in?t=${token}`;
}

/**
 * Signs in fully as the donor of `donorId` (every gift of the donor's address): a one-time link
 * ({@link signInLinkUrl}) and its button's POST. Answers the session cookie (`name=value`).
 */
export async function signInAs(app: TestApp, donorId: string, lang = "en"): Promise<string> {
  const token = new URL(await signInLinkUrl(app, donorId, lang)).searchParams.get("t")!;
  const res = await fetch(`${app.url}/${lang}/account/sign-in`, formPost(app, { t: token }));
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return sessionCookieOf(res);
}

/**
 * Opens `donorId`'s manage link as a donor does: its page's button (a same-origin POST to
 * `/{lang}/account/link`), with `cookie` when the browser is signed in already. Answers the response.
 */
export async function postManageLink(
  app: TestApp,
  token: string,
  lang = "en",
  cookie?: string,
  fields: Record<string, string> = {},
): Promise<Response> {
  return await fetch(`${app.url}/${lang}/account/link`, formPost(app, { token, ...fields }, cookie));
}

/** Opens `donorId`'s manage link (a fresh token) and answers the manage session's cookie. */
export async function openManageLink(app: TestApp, donorId: string, lang = "en"): Promise<string> {
  const token = await createManageToken(await manageLinkKey(app.config.appSecret), donorId);
  const res = await postManageLink(app, token, lang);
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return sessionCookieOf(res);
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
