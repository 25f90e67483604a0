/**
 * Comparing secrets (MACs, tokens that carry one, password hashes) in time that depends only on
 * their lengths: `===` stops at the first difference, so its time tells a caller how much of a
 * forgery is right. `lint/constant_time.ts` refuses a MAC compared with `===` in the app's code.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Compares two byte arrays in time that depends only on their length.
 *
 * @example
 * ```ts
 * timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])); // true
 * timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])); // false
 * ```
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Whether two strings holding a secret (a MAC, a signed token) are the same, compared as UTF-8 in
 * time that depends only on their lengths (a length is no secret: every MAC of a kind has one).
 *
 * @example
 * ```ts
 * equalSecrets(await signInToken(key, id), token); // true when the token is ours
 * ```
 */
export function equalSecrets(a: string, b: string): boolean {
  return timingSafeEqual(encoder.encode(a), encoder.encode(b));
}
