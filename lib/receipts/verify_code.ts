/**
 * The signed codes of receipts, each a MAC (the first 128 bits of HMAC-SHA256) under a key derived
 * from `APP_SECRET` for its purpose alone, so no other signed value of the app (manage links,
 * sessions), nor one kind of receipt code, can be replayed as another, and none can be made up
 * without the secret:
 * - the QR code's verification code, `<receipt id>.<MAC>` ("receipt-verify/v1"): the verification
 *   page looks the receipt up by the id and shows only its number, date and amount; it never
 *   expires, as the paper receipt does not;
 * - a download code, `<receipt id>.<expiry, unix seconds>.<MAC>` ("receipt-download/v1"), which
 *   the manage page puts in its links to the PDF (which shows the donor's name and ID number), and
 *   which expires (see `receiptDownloadCode`); `<receipt id>.<expiry>.m.<MAC>` (the `m` under the
 *   MAC, so it can be neither added nor removed) downloads the PDF with the Israeli ID number
 *   masked: the links of a page opened by an emailed link (issue 23, `lib/donor_portal/access.ts`).
 *
 * @module
 */

import { equalSecrets } from "@/lib/core/constant_time.ts";
import { hmacSha256 } from "@/lib/core/sha256.ts";
import type { Lang } from "@/lib/shared/languages.ts";

const VERIFY = "receipt-verify/v1";
const DOWNLOAD = "receipt-download/v1";
/** Whether `id` looks like an id of `lib/core/ids.ts` (16 to 64 base64url characters). */
const isId = (id: string) =>
  id.length >= 16 && id.length <= 64 &&
  [...id].every((c) =>
    (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c === "-" || c === "_"
  );
/** 16 bytes of MAC, base64url without padding. */
const MAC_CHARS = 22;

/** 16 bytes in base64url: 22 characters (the padding `==` dropped). */
const macOf = (appSecret: string, purpose: string, payload: string) =>
  btoa(String.fromCharCode(...hmacSha256(hmacSha256(appSecret, purpose), payload).slice(0, 16)))
    .replaceAll("+", "-").replaceAll("/", "_").slice(0, MAC_CHARS);

/** Whether `mac` is the MAC of `payload`, compared in full whatever differs first (timing says nothing). */
function macMatches(appSecret: string, purpose: string, payload: string, mac: string): boolean {
  return mac.length === MAC_CHARS && equalSecrets(macOf(appSecret, purpose, payload), mac);
}

/**
 * The verification code of the receipt `id`.
 *
 * @example
 * ```ts
 * receiptCode(config.appSecret, receipt.id); // "q2V0bUoHx3f1k8Zr0aTQ9w_L.Jx…"
 * ```
 */
export function receiptCode(appSecret: string, id: string): string {
  if (!isId(id)) throw new RangeError("not a receipt id");
  return `${id}.${macOf(appSecret, VERIFY, id)}`;
}

/** The receipt id a code names when its MAC is right; null for anything else (tampered, truncated). */
export function readReceiptCode(appSecret: string, code: string | null | undefined): string | null {
  if (typeof code !== "string" || code.length > 100) return null;
  const dot = code.lastIndexOf(".");
  const id = code.slice(0, dot);
  const mac = code.slice(dot + 1);
  if (dot < 0 || !isId(id)) return null;
  return macMatches(appSecret, VERIFY, id, mac) ? id : null;
}

/** How long a download link of the manage page works: a day, so a link forwarded later is dead. */
export const DOWNLOAD_CODE_TTL_MS = 24 * 3_600_000;

/**
 * A download code of the receipt `id`, valid until `now + DOWNLOAD_CODE_TTL_MS`; with `maskTaxId`,
 * its PDF shows the Israeli ID number masked.
 *
 * @example
 * ```ts
 * const href = `/${lang}/receipts/download?c=${receiptDownloadCode(config.appSecret, receipt.id)}`;
 * ```
 */
export function receiptDownloadCode(
  appSecret: string,
  id: string,
  now = new Date(),
  maskTaxId = false,
): string {
  if (!isId(id)) throw new RangeError("not a receipt id");
  const expiry = Math.floor((now.getTime() + DOWNLOAD_CODE_TTL_MS) / 1000);
  const payload = maskTaxId ? `${id}.${expiry}.m` : `${id}.${expiry}`;
  return `${payload}.${macOf(appSecret, DOWNLOAD, payload)}`;
}

/**
 * What a download code says when its MAC is right: the receipt id, whether it has expired, and
 * whether its PDF masks the ID number; null for anything else (tampered, truncated, a verification
 * code).
 */
export function readReceiptDownloadCode(
  appSecret: string,
  code: string | null | undefined,
  now = new Date(),
): { id: string; expired: boolean; maskTaxId: boolean } | null {
  if (typeof code !== "string" || code.length > 120) return null;
  const parts = code.split(".");
  const maskTaxId = parts.length === 4 && parts[2] === "m";
  if (parts.length !== 3 && !maskTaxId) return null;
  const [id, expiry] = parts;
  const mac = parts[parts.length - 1];
  const seconds = Number(expiry);
  if (!isId(id) || expiry === "" || expiry.length > 12 || !Number.isSafeInteger(seconds) || seconds < 0) {
    return null;
  }
  if (!macMatches(appSecret, DOWNLOAD, parts.slice(0, -1).join("."), mac)) return null;
  return { id, expired: seconds * 1000 <= now.getTime(), maskTaxId };
}

/**
 * The public verification page's address for a code, in the receipt's language.
 *
 * @example
 * ```ts
 * receiptVerifyUrl("https://donate.museum.org", "he", code);
 * // "https://donate.museum.org/he/receipts/verify?c=…"
 * ```
 */
export function receiptVerifyUrl(origin: string, lang: Lang, code: string): string {
  let base = origin;
  while (base.endsWith("/")) base = base.slice(0, -1);
  return `${base}/${lang}/receipts/verify?c=${encodeURIComponent(code)}`;
}
