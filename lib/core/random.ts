/**
 * Random strings for per-response values (CSP nonces, browser key ids), from the system's secure
 * generator. Bytes are drawn 4 KiB at a time: a `getRandomValues` call per value cost more than the
 * rest of making the value, on every page (`bench/README.md`, request pipeline). Each byte is used
 * once.
 *
 * @module
 */

import { bytesToHex } from "@/lib/shared/signing.ts";

const pool = new Uint8Array(4096);
let used = pool.length;

/** The next `n` unused random bytes (n ≤ 4096), as a view valid until the next call. */
function take(n: number): Uint8Array {
  if (used + n > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + n);
  used += n;
  return bytes;
}

/**
 * `n` random bytes as lower-case hex.
 *
 * @example
 * ```ts
 * randomHex(16); // "9f2c0b…" (32 characters)
 * ```
 */
export function randomHex(n: number): string {
  return bytesToHex(take(n));
}

/**
 * `n` random bytes as base64 (with padding).
 *
 * @example
 * ```ts
 * randomBase64(16); // "+1s7+foeYU9fsMe4+EsVJg=="
 * ```
 */
export function randomBase64(n: number): string {
  let binary = "";
  for (const byte of take(n)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
