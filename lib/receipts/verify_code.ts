/**
 * The signed code in a receipt's QR code: `<receipt id>.<MAC>`, the MAC the first 128 bits of
 * HMAC-SHA256 under a key derived from `APP_SECRET` for this purpose alone ("receipt-verify/v1"),
 * so no other signed value of the app (manage links, sessions) can be replayed as one, and a code
 * cannot be made up for a receipt id without the secret. The verification page looks the receipt
 * up by the id, and shows only its number, date and amount.
 *
 * @module
 */

import { hmacSha256 } from "@/lib/sha256.ts";
import type { Lang } from "@/lib/shared/languages.ts";

const PURPOSE = "receipt-verify/v1";
/** Whether `id` looks like an id of `lib/ids.ts` (16 to 64 base64url characters). */
const isId = (id: string) =>
  id.length >= 16 && id.length <= 64 &&
  [...id].every((c) =>
    (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c === "-" || c === "_"
  );
/** 16 bytes of MAC, base64url without padding. */
const MAC_CHARS = 22;

/** 16 bytes in base64url: 22 characters (the padding `==` dropped). */
const macOf = (appSecret: string, id: string) =>
  btoa(String.fromCharCode(...hmacSha256(hmacSha256(appSecret, PURPOSE), id).slice(0, 16)))
    .replaceAll("+", "-").replaceAll("/", "_").slice(0, MAC_CHARS);

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
  return `${id}.${macOf(appSecret, id)}`;
}

/** The receipt id a code names when its MAC is right; null for anything else (tampered, truncated). */
export function readReceiptCode(appSecret: string, code: string | null | undefined): string | null {
  if (typeof code !== "string" || code.length > 100) return null;
  const dot = code.lastIndexOf(".");
  const id = code.slice(0, dot);
  const mac = code.slice(dot + 1);
  if (dot < 0 || !isId(id) || mac.length !== MAC_CHARS) return null;
  const want = macOf(appSecret, id);
  // Compared in full whatever differs first, so timing says nothing about the right MAC.
  let diff = 0;
  for (let i = 0; i < MAC_CHARS; i++) diff |= want.charCodeAt(i) ^ mac.charCodeAt(i);
  return diff === 0 ? id : null;
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
