/**
 * Admin password hashing (argon2id, OWASP parameters, PHC strings) and the policy a new password
 * must meet. Server only.
 *
 * The hashing itself runs where the caller's {@link Argon2Runner} says: the server passes its
 * password pool (`password_pool.ts`: workers, off the event loop, with a bounded queue); scripts and
 * tests may leave the default, the calling thread.
 *
 * Passwords are NFKC-normalized before hashing, counting and list look-up (NIST SP 800-63B), so the
 * same password typed on a keyboard that composes characters differently still matches.
 *
 * @module
 */

// The 1,000 most common passwords: the head of zxcvbn-ts's frequency-ranked `passwords-common`
// list (@zxcvbn-ts/language-common, MIT), lower-cased, kept here as a file because importing that
// package decompresses all of its dictionaries, about 100 ms of every server start. A test checks
// the file against the package.
import commonPasswords from "./common_passwords.json" with { type: "json" };
import { PasswordsBusyError } from "./errors.ts";
import { type Argon2Runner, IN_THREAD } from "./password_pool.ts";
import { timingSafeEqual } from "@/lib/core/constant_time.ts";

/** Current argon2id parameters: OWASP's first recommendation (19 MiB, 2 passes, 1 lane). */
export const ARGON2_PARAMS = {
  memoryKiB: 19_456,
  iterations: 2,
  parallelism: 1,
  saltBytes: 16,
  hashBytes: 32,
} as const;

// Bounds accepted when reading a stored hash. The upper ones stop a tampered hash from making a
// login burn memory or CPU; they leave room to raise the parameters later.
const MAX_MEMORY_KIB = 262_144; // 256 MiB
const MAX_ITERATIONS = 16;
const MAX_PARALLELISM = 8;
const MIN_SALT_BYTES = 8;
const MAX_SALT_BYTES = 64;
const MIN_HASH_BYTES = 16;
const MAX_HASH_BYTES = 64;

/** Shortest and longest acceptable new password, in Unicode code points. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

/** The API's messages for an unacceptable new password. */
export const PASSWORD_MESSAGES = {
  required: "Password is required",
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  common: "This password is one of the 1,000 most common passwords; choose a less common one",
} as const;

// Looked up per registration; all lower case.
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(commonPasswords);

/**
 * A fixed, valid hash of a random password nobody knows, with the current parameters. Verifying
 * against it costs what a real verification costs. A literal rather than computed at start-up, so
 * the first unknown-email login is not slower than later ones (a test keeps it on current params).
 */
export const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$Tyg76kzF2XKaiyleDAlDEg$5n00f5wwbgDUoUbMEGPMpyXRicsVTdaVWnvOTuwWAu0";

interface ParsedHash {
  memoryKiB: number;
  iterations: number;
  parallelism: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

const PHC_PATTERN =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,88})\$([A-Za-z0-9+/]{22,88})$/;

/**
 * Hashes a password with argon2id and the current parameters.
 *
 * @example
 * ```ts
 * const phc = await hashPassword("correct horse battery staple", services.passwords);
 * // "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>"
 * ```
 */
export async function hashPassword(password: string, runner: Argon2Runner = IN_THREAD): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(ARGON2_PARAMS.saltBytes));
  const hash = await runner.argon2id({
    password: normalize(password),
    salt,
    memorySize: ARGON2_PARAMS.memoryKiB,
    iterations: ARGON2_PARAMS.iterations,
    parallelism: ARGON2_PARAMS.parallelism,
    hashLength: ARGON2_PARAMS.hashBytes,
  });
  return formatPhc({
    memoryKiB: ARGON2_PARAMS.memoryKiB,
    iterations: ARGON2_PARAMS.iterations,
    parallelism: ARGON2_PARAMS.parallelism,
    salt,
    hash,
  });
}

/**
 * Whether `password` matches a stored PHC hash. Anything but a well-formed argon2id hash within
 * sane bounds answers false; the only error it throws is the runner's
 * {@link PasswordsBusyError} (nothing was compared).
 *
 * @example
 * ```ts
 * const phc = await hashPassword("s3cret-enough");
 * await verifyPassword("s3cret-enough", phc); // true
 * await verifyPassword("wrong", phc); // false
 * await verifyPassword("x", "not a hash"); // false
 * ```
 */
export async function verifyPassword(
  password: string,
  phc: string,
  runner: Argon2Runner = IN_THREAD,
): Promise<boolean> {
  const parsed = parsePhc(phc);
  if (parsed === null || typeof password !== "string") return false;
  try {
    const computed = await runner.argon2id({
      password: normalize(password),
      salt: parsed.salt,
      memorySize: parsed.memoryKiB,
      iterations: parsed.iterations,
      parallelism: parsed.parallelism,
      hashLength: parsed.hash.length,
    });
    return timingSafeEqual(computed, parsed.hash);
  } catch (e) {
    if (e instanceof PasswordsBusyError) throw e;
    return false;
  }
}

/**
 * Runs a full verification against {@link DUMMY_HASH} and answers false, so a login for an unknown
 * email takes as long as one for a known email with a wrong password.
 *
 * @example
 * ```ts
 * const admin = await store.findAdminByEmail(email);
 * const ok = admin ? await verifyPassword(password, admin.passwordHash) : await verifyAgainstDummy(password);
 * ```
 */
export async function verifyAgainstDummy(password: string, runner: Argon2Runner = IN_THREAD): Promise<false> {
  await verifyPassword(password, DUMMY_HASH, runner);
  return false;
}

/**
 * Whether a stored hash should be replaced after a successful login: it is unreadable, or weaker
 * than the current parameters (less memory, fewer passes, shorter salt or hash).
 *
 * @example
 * ```ts
 * needsRehash(await hashPassword("s3cret-enough")); // false
 * needsRehash("$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA"); // true
 * ```
 */
export function needsRehash(phc: string): boolean {
  const parsed = parsePhc(phc);
  if (parsed === null) return true;
  return parsed.memoryKiB < ARGON2_PARAMS.memoryKiB ||
    parsed.iterations < ARGON2_PARAMS.iterations ||
    parsed.salt.length < ARGON2_PARAMS.saltBytes ||
    parsed.hash.length < ARGON2_PARAMS.hashBytes;
}

/**
 * Why a new password is not acceptable, as the API's message, or null when it is fine.
 *
 * @example
 * ```ts
 * passwordProblem(""); // "Password is required"
 * passwordProblem("abc"); // "Password must be at least 6 characters"
 * passwordProblem("Password"); // "This password is one of the 1,000 most common passwords; ..."
 * passwordProblem("violet-harbor-lantern"); // null
 * ```
 */
export function passwordProblem(password: string): string | null {
  if (typeof password !== "string" || password === "") return PASSWORD_MESSAGES.required;
  const normalized = normalize(password);
  // Code points, not UTF-16 units: an emoji is one character to the person typing it.
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (COMMON_PASSWORDS.has(normalized.toLowerCase())) return PASSWORD_MESSAGES.common;
  return null;
}

function normalize(password: string): string {
  return password.normalize("NFKC");
}

function parsePhc(phc: string): ParsedHash | null {
  if (typeof phc !== "string") return null;
  const match = PHC_PATTERN.exec(phc);
  if (match === null) return null;
  const memoryKiB = Number(match[1]);
  const iterations = Number(match[2]);
  const parallelism = Number(match[3]);
  if (parallelism < 1 || parallelism > MAX_PARALLELISM) return null;
  if (iterations < 1 || iterations > MAX_ITERATIONS) return null;
  // Argon2 itself requires at least 8 KiB per lane.
  if (memoryKiB < 8 * parallelism || memoryKiB > MAX_MEMORY_KIB) return null;
  const salt = decodeB64(match[4]);
  const hash = decodeB64(match[5]);
  if (salt === null || salt.length < MIN_SALT_BYTES || salt.length > MAX_SALT_BYTES) return null;
  if (hash === null || hash.length < MIN_HASH_BYTES || hash.length > MAX_HASH_BYTES) return null;
  return { memoryKiB, iterations, parallelism, salt, hash };
}

function formatPhc(p: ParsedHash): string {
  return `$argon2id$v=19$m=${p.memoryKiB},t=${p.iterations},p=${p.parallelism}$${encodeB64(p.salt)}$${
    encodeB64(p.hash)
  }`;
}

// PHC strings use standard base64 without padding.
function encodeB64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}

function decodeB64(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  try {
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    // Refuse non-canonical encodings (stray low bits) so one hash has exactly one spelling.
    return encodeB64(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}
