/**
 * The cryptography of the staff's two-factor sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as
 * every authenticator app reads it, with the `otpauth` package), the secret sealed at rest, and
 * the recovery codes. Server only.
 *
 * - The secret is sealed with AES-GCM under a key derived from APP_SECRET for this purpose only,
 *   with the admin id as additional data: a database leak alone reveals no secret, and a sealed
 *   secret copied onto another account does not open.
 * - Recovery codes (10 per enrolment, 10 characters of an unambiguous alphabet: 50 bits) are stored
 *   as HMAC-SHA256 under another derived key: a database leak alone cannot be brute-forced.
 *
 * @module
 */

import * as OTPAuth from "otpauth";
import { deriveKey } from "./tokens.ts";

/** A code's period, in seconds. */
export const TOTP_PERIOD_SECONDS = 30;
/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;
/** The recovery codes' alphabet: Crockford's base32 (no I, L, O, U). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const IV_BYTES = 12;
const SEAL_PURPOSE = "admin-totp-secret/v1";
const RECOVERY_PURPOSE = "admin-recovery-code/v1";

/** The keys of one APP_SECRET. */
export interface TwoFactorKeys {
  seal: CryptoKey;
  recovery: CryptoKey;
}

// Bound: one set of keys per APP_SECRET, so one entry in a server (a few in tests).
const cache = new Map<string, Promise<TwoFactorKeys>>();

/**
 * The two-factor keys derived from `appSecret` (cached).
 *
 * @example
 * ```ts
 * const keys = await twoFactorKeys(config.appSecret);
 * ```
 */
export function twoFactorKeys(appSecret: string): Promise<TwoFactorKeys> {
  let keys = cache.get(appSecret);
  if (!keys) {
    keys = (async () => ({
      seal: await crypto.subtle.importKey(
        "raw",
        new Uint8Array(await deriveKey(appSecret, SEAL_PURPOSE)),
        "AES-GCM",
        false,
        ["encrypt", "decrypt"],
      ),
      recovery: await crypto.subtle.importKey(
        "raw",
        new Uint8Array(await deriveKey(appSecret, RECOVERY_PURPOSE)),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      ),
    }))();
    cache.set(appSecret, keys);
  }
  return keys;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A new random TOTP secret (160 bits), in base32 as apps take it. */
export const newTotpSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

/**
 * Seals a base32 secret for `adminId`: `v1.<iv>.<ciphertext>` (base64).
 *
 * @example
 * ```ts
 * const sealed = await sealSecret(keys, admin.id, newTotpSecret());
 * ```
 */
export async function sealSecret(keys: TwoFactorKeys, adminId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(adminId) },
    keys.seal,
    new TextEncoder().encode(secret),
  );
  return `v1.${b64(iv)}.${b64(new Uint8Array(sealed))}`;
}

/** The base32 secret sealed for `adminId`, or null when it does not open (another key or account). */
export async function openSecret(
  keys: TwoFactorKeys,
  adminId: string,
  sealed: string,
): Promise<string | null> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) return null;
  try {
    const opened = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: unb64(iv), additionalData: new TextEncoder().encode(adminId) },
      keys.seal,
      unb64(data),
    );
    return new TextDecoder().decode(opened);
  } catch {
    return null;
  }
}

/** The TOTP of a secret, labelled for an authenticator app. */
export function totpOf(secret: string, issuer: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** Whether `code` looks like a TOTP code (6 digits, spaces allowed) rather than a recovery code. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ""));

/**
 * The time step `code` belongs to (the current one or its neighbours, for clocks a little apart),
 * or null when it matches none.
 *
 * @example
 * ```ts
 * const step = matchingStep(secret, "123456", Date.now());
 * ```
 */
export function matchingStep(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret, "-", "-").validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** A recovery code as typed, canonical: upper case, without spaces or dashes; null if it cannot be one. */
export function canonicalRecoveryCode(code: string): string | null {
  const plain = code.toUpperCase().replace(/[\s-]/g, "");
  return plain.length === 10 && [...plain].every((c) => ALPHABET.includes(c)) ? plain : null;
}

/**
 * New recovery codes, as shown to the admin (`XXXXX-XXXXX`).
 *
 * @example
 * ```ts
 * newRecoveryCodes(); // ["7K2QM-ZP4XA", …] (10)
 * ```
 */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    // 32 letters: each random byte's low five bits pick one uniformly.
    const chars = [...crypto.getRandomValues(new Uint8Array(10))].map((b) => ALPHABET[b & 31]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The keyed hash (64 hex digits) stored for a recovery code; null when `code` cannot be one. */
export async function recoveryHash(keys: TwoFactorKeys, code: string): Promise<string | null> {
  const plain = canonicalRecoveryCode(code);
  if (plain === null) return null;
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", keys.recovery, new TextEncoder().encode(plain)),
  );
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}
