/**
 * Helpers for payment tests: a donor, signed calls with a browser key, and paying on the
 * sandbox's card page the way a browser would.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signPayload } from "@/lib/shared/signing.ts";
import type { TestApp } from "./app.ts";
import { api, type JsonAnswer } from "./http.ts";

/** A test card that the sandbox approves (Luhn-valid, not a decline card). */
export const GOOD_CARD = "4580 1234 5678 9015";

/** Creates a donor and answers its id. */
export async function newDonor(app: TestApp, firstName = "Dana"): Promise<string> {
  const res = await api(app.url, "POST", "/api/user", {
    firstName,
    lastName: "Levi",
    email: `${firstName.toLowerCase()}@example.org`,
    country: "Israel",
  });
  if (res.status !== 201) throw new Error(`donor: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/**
 * Posts a body signed with a fresh browser key, as a page's island does; `headers` may carry a
 * paired kiosk's cookie (`kiosk.ts`), which terminal sales need.
 */
export async function signedPost(
  app: TestApp,
  path: string,
  payload: Record<string, string | number | boolean>,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const key = await api(app.url, "GET", "/api/signing-key");
  return await api(app.url, "POST", path, await signPayload(payload, key.body), headers);
}

/** `POST /api/payment/create`, signed. */
export function createPayment(
  app: TestApp,
  input: {
    amount: number;
    currency: "nis" | "dollars";
    userId: string;
    isMonthly?: boolean;
    language?: string;
    /** The membership level the gift is at (issue 27); its price must be the amount. */
    levelId?: number;
  },
): Promise<JsonAnswer> {
  return signedPost(app, "/api/payment/create", { isMonthly: false, language: "en", ...input });
}

/**
 * Pays on the sandbox card page: posts the form, then follows the page's return link the way the
 * browser's top window would. Answers where the donor lands (`/{lang}/success?...`).
 */
export async function payOnSandboxPage(app: TestApp, pageUrl: string, card = GOOD_CARD): Promise<URL> {
  const form = new URLSearchParams({ cardNumber: card, expiry: "12/30", cvv: "123", idNumber: "123456789" });
  const page = await fetch(pageUrl, {
    method: "POST",
    body: form,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`card page answered ${page.status}: ${html.slice(0, 300)}`);
  const href = html.match(/<a class="button button-primary" href="([^"]+)" target="_top">/)?.[1];
  if (!href) throw new Error(`no return link on the card page: ${html.slice(0, 500)}`);
  return await followReturn(app, href.replaceAll("&amp;", "&"));
}

/** GETs our return route and answers the result page it redirects to. */
export async function followReturn(app: TestApp, returnUrl: string): Promise<URL> {
  const res = await fetch(returnUrl, { redirect: "manual" });
  await res.body?.cancel();
  if (res.status !== 303) throw new Error(`return route answered ${res.status}`);
  return new URL(res.headers.get("location")!, app.url);
}

/**
 * Pays on the sandbox card page inside the page's payment frame, in a real browser. The frame's
 * page then sends the top window to the result page (with JavaScript); without it, this clicks
 * the page's 'Continue' link.
 */
export async function payInSandboxFrame(page: Page, card = GOOD_CARD): Promise<void> {
  const frame = page.frameLocator("iframe");
  await frame.locator('input[name="cardNumber"]').fill(card);
  await frame.locator('input[name="expiry"]').fill("12/30");
  await frame.locator('input[name="cvv"]').fill("123");
  await frame.locator('input[name="idNumber"]').fill("123456789");
  await frame.locator('button[type="submit"]').click();
  const link = frame.locator('a[target="_top"]');
  for (let i = 0; i < 100 && !/\/(success|error)\?/.test(page.url()); i++) {
    if (await link.count().catch(() => 0) > 0) {
      await link.click().catch(() => {});
      break;
    }
    await page.waitForTimeout(100);
  }
}

/** Chooses a period and a tier on the donation page, fills the donor and submits. */
export async function startDonation(page: Page, url: string, period: "one-time" | "monthly", who: object) {
  await page.goto(url);
  await page.waitForSelector('form.donation-form[data-enhanced="true"]');
  if (period === "monthly") {
    await page.click('label.tab:has(input[value="monthly"])');
    assert.ok(await page.isChecked('input[name="period"][value="monthly"]'), "the monthly tab chosen");
  }
  await page.click('label.tier-card:has(input[value="tier-2"])');
  assert.ok(await page.isChecked('input[value="tier-2"]'));
  for (const [name, value] of Object.entries(who)) await page.fill(`#donor-${name}`, value);
  await page.click(".donate-button");
  await page.locator("iframe.payment-frame").waitFor();
}

/**
 * Gives at tier 2 (₪100) on the donation page of `lang`, a donor from Israel named `firstName` Levi,
 * paid in the sandbox frame, up to the success page.
 */
export async function giveAtTier(
  page: Page,
  origin: string,
  lang: string,
  period: "one-time" | "monthly",
  who: { email: string; firstName: string },
) {
  await startDonation(page, `${origin}/${lang}/`, period, { ...who, lastName: "Levi", country: "Israel" });
  await payInSandboxFrame(page, GOOD_CARD);
  await page.waitForURL(new RegExp(`/${lang}/success\\?`));
}
