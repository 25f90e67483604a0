/**
 * What counts as an email address, in the donation form, the staff's sign-in and register forms
 * and on the server. Its own module: an island that checks an address ships only this.
 *
 * @module
 */

/** The longest email address accepted (RFC 5321's path limit); longer input is not matched at all. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * The spec's simple address pattern: non-space, @, domain, dot, suffix. It accepts exactly what
 * `^[^\s@]+@[^\s@]+\.[^\s@]+$` did (a domain with a dot that is neither its first nor its last
 * character), written so that no two quantifiers can share a character: the domain's first
 * character, then non-dots up to its first later dot, then the rest. The old form took quadratic
 * time on `a@` + dots + `@` (seconds at 64 KB); this one is linear (`lib/app/input_patterns_test.ts`).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

/**
 * Whether a (trimmed) text is an email address: at most {@link EMAIL_MAX_LENGTH} characters, checked
 * first, and {@link EMAIL_PATTERN}.
 *
 * @example
 * ```ts
 * isEmail("dana@museum.org"); // true
 * isEmail("dana@museum"); // false
 * ```
 */
export function isEmail(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(text);
}
