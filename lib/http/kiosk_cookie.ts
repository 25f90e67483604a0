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
import { authoriseKioskSale, kioskRefusal } from "@/lib/kiosk/devices.ts";
import { type DeviceRefusal, KioskDeviceRequiredError } from "@/lib/kiosk/errors.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { KioskDevice, Store } from "@/lib/storage/types.ts";

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
export function deviceCookie(credential: string, config: { env: string }): string {
  const secure = config.env === "production" ? "; Secure" : "";
  return `${DEVICE_COOKIE}=${credential}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict${secure}`;
}

/** What {@link requireKioskDevice} checks a sale against. */
export interface KioskSale {
  shopNumber: string;
  /** The sale's language: the pairing page the refusal's message names. */
  lang: Lang;
  /** Where the refusal is logged. */
  log: Logger;
}

/**
 * The paired kiosk device that authorises a terminal sale, from the request's cookie; throws
 * `KioskDeviceRequiredError` (403) otherwise, after logging the refusal (`terminal sale refused`,
 * with the reason and the shop). The routes that start terminal sales (`pay-emv`, `test-emv`, the
 * kiosk's no-JavaScript form) call it, so each refusal is logged once and alike; a body signed
 * with a server key (an integration) does not need it.
 *
 * @example
 * ```ts
 * if (!serverKey) await requireKioskDevice(req, services.store, { shopNumber: "12", lang: "he", log });
 * ```
 */
export async function requireKioskDevice(req: Request, store: Store, sale: KioskSale): Promise<KioskDevice> {
  try {
    return await authoriseKioskSale(store, readDeviceCookie(req), sale.shopNumber, new Date(), sale.lang);
  } catch (e) {
    if (e instanceof KioskDeviceRequiredError) {
      sale.log.warn("terminal sale refused", { reason: e.reason, shop: sale.shopNumber });
    }
    throw e;
  }
}

/**
 * Why this browser could not start a sale for `shopNumber` (not a paired kiosk, a revoked one,
 * one for another shop), or null when it could; reads only, for the kiosk page as it opens.
 *
 * @example
 * ```ts
 * await kioskPageRefusal(req, services.store, "12"); // "not-paired" without the device cookie
 * ```
 */
export async function kioskPageRefusal(
  req: Request,
  store: Store,
  shopNumber: string,
): Promise<DeviceRefusal | null> {
  return await kioskRefusal(store, readDeviceCookie(req), shopNumber);
}
