/**
 * Kiosk devices for tests: terminal sales need a paired kiosk (issue 13), so a test that starts
 * one first creates a device for the shop (as an approved admin would in the back office) and
 * pairs it through the pairing page's form, as staff would on the kiosk; the answer is the cookie
 * the kiosk then sends with every sale.
 *
 * @module
 */
import type { BrowserContext } from "playwright-core";
import { createKioskDevice } from "@/lib/kiosk/devices.ts";
import type { Admin, Store } from "@/lib/storage/types.ts";
import type { Config } from "@/lib/app/config.ts";

/** A paired kiosk: its device id and the `Cookie` header it sends. */
export interface PairedKiosk {
  deviceId: string;
  cookie: string;
  /** `{ cookie }`, for a request's headers. */
  headers: Record<string, string>;
}

const TEST_ADMIN: Admin = {
  id: "test-admin-0000000000000",
  email: "admin@museum.test",
  name: "Test admin",
  passwordHash: "",
  status: "approved",
  role: "owner",
  createdAt: "2025-01-01T00:00:00.000Z",
  decidedBy: null,
  decidedAt: "2025-01-01T00:00:00.000Z",
};

/**
 * Creates a kiosk device for `shopNumber` and answers its pairing code (what the back office shows).
 *
 * @example
 * ```ts
 * const { code, deviceId } = await newKioskDevice(app, "12");
 * ```
 */
export async function newKioskDevice(
  app: { store: Store; config: Config },
  shopNumber: string,
  name = `Kiosk ${shopNumber}`,
): Promise<{ deviceId: string; code: string }> {
  const { device, pairing } = await createKioskDevice(app.store, app.config, TEST_ADMIN, {
    name,
    shopNumber,
  });
  return { deviceId: device.id, code: pairing.code };
}

/**
 * Pairs with `code` through `POST /{lang}/kiosk-pair` and answers the device cookie it set.
 *
 * @example
 * ```ts
 * const cookie = await pairWithCode(app.url, code);
 * ```
 */
export async function pairWithCode(url: string, code: string, lang = "en"): Promise<Response> {
  return await fetch(`${url}/${lang}/kiosk-pair`, {
    method: "POST",
    body: new URLSearchParams({ code }),
    headers: { origin: url },
    redirect: "manual",
  });
}

/** The `name=value` of a `Set-Cookie` header's device cookie. */
export function deviceCookieOf(res: Response): string {
  const set = res.headers.get("set-cookie") ?? "";
  const match = set.match(/(?:^|,\s*)(kiosk_device=[0-9a-f]{64})/);
  if (!match) throw new Error(`no device cookie in ${res.status} answer: ${set}`);
  return match[1];
}

/**
 * A kiosk paired for `shopNumber`, ready to start sales there.
 *
 * @example
 * ```ts
 * const kiosk = await pairTestKiosk(app, "12");
 * await signedPost(app, "/api/payment/pay-emv", sale, kiosk.headers);
 * ```
 */
export async function pairTestKiosk(
  app: { url: string; store: Store; config: Config },
  shopNumber: string,
): Promise<PairedKiosk> {
  const { deviceId, code } = await newKioskDevice(app, shopNumber);
  const res = await pairWithCode(app.url, code);
  await res.body?.cancel();
  if (res.status !== 303) throw new Error(`pairing answered ${res.status}`);
  const cookie = deviceCookieOf(res);
  return { deviceId, cookie, headers: { cookie } };
}

/**
 * Makes a browser context the kiosk whose device cookie is `cookie` (`name=value`) for the app at
 * `url`. Cookies do not tell ports apart, so a context is one local app's kiosk at a time.
 *
 * @example
 * ```ts
 * await kioskContext(context, app.url, (await pairTestKiosk(app, "7")).cookie);
 * ```
 */
export async function kioskContext(context: BrowserContext, url: string, cookie: string): Promise<void> {
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url, httpOnly: true, sameSite: "Strict" }]);
}
