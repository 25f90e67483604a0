/**
 * The kiosk device cookie (issue 13): where a paired kiosk keeps its device credential
 * (`lib/kiosk/devices.ts`). HttpOnly (no script, so no injected one, can read it), SameSite=Strict
 * (no other site's page can send it along, so a cross-site form or fetch cannot start a sale with
 * it), Secure in production, path `/` (both the kiosk's no-JavaScript form under `/{lang}/` and the
 * island's `/api/payment/...` calls carry it), and long-lived: a kiosk stays paired until an admin
 * revokes or re-pairs it (browsers cap a cookie's life at 400 days; pairing again renews it).
 *
 * @module
 */
import { parse } from "hono/utils/cookie";
import type { Config } from "../config.ts";
import { authoriseKioskSale } from "../kiosk/devices.ts";
import type { KioskDevice, Store } from "../storage/types.ts";

/** The cookie's name. */
export const DEVICE_COOKIE = "kiosk_device";
/** 400 days, the longest browsers keep a cookie. */
const MAX_AGE_S = 400 * 24 * 60 * 60;

/**
 * The device credential the request carries, or null.
 *
 * @example
 * ```ts
 * readDeviceCookie(req); // "9f2c…" (64 hex) from a paired kiosk
 * ```
 */
export function readDeviceCookie(req: Request): string | null {
  const header = req.headers.get("cookie");
  return header ? parse(header, DEVICE_COOKIE)[DEVICE_COOKIE] || null : null;
}

/**
 * The `Set-Cookie` value that gives a kiosk its credential.
 *
 * @example
 * ```ts
 * headers.set("set-cookie", deviceCookie(credential, config));
 * ```
 */
export function deviceCookie(credential: string, config: Pick<Config, "env">): string {
  const secure = config.env === "production" ? "; Secure" : "";
  return `${DEVICE_COOKIE}=${credential}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * The paired kiosk device that authorises a terminal sale for `shopNumber`, from the request's
 * cookie; throws `KioskDeviceRequiredError` (403) otherwise. The routes that start terminal sales
 * (`pay-emv`, `test-emv`, the kiosk's no-JavaScript form) call it; a body signed with a server key
 * (an integration) does not need it.
 *
 * @example
 * ```ts
 * if (!serverKey) await requireKioskDevice(req, services.store, body.shopNumber);
 * ```
 */
export async function requireKioskDevice(
  req: Request,
  store: Store,
  shopNumber: string,
): Promise<KioskDevice> {
  return await authoriseKioskSale(store, readDeviceCookie(req), shopNumber);
}
