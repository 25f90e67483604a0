/**
 * The API's field schemas every concept's payloads are made of: bounded, trimmed text without control
 * characters or lone surrogates, emails, languages. Messages are the API's (English).
 *
 * @module
 */
import { z } from "zod";
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "@/lib/shared/donation.ts";

export { EMAIL_PATTERN };
/**
 * C0 and C1 control characters (tab, newline, NUL, …); format characters such as the
 * right-to-left mark are allowed, since Hebrew text may carry them.
 */
// deno-lint-ignore no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A UTF-16 surrogate without its pair: not text. PostgreSQL would store U+FFFD in its place where
 * Deno KV keeps it, so the two backends would disagree about the same input.
 */
export const LONE_SURROGATE = /(?:^|[^\ud800-\udbff])[\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])/;

// Every length check below aborts (`abort: true`): zod otherwise goes on to run the field's
// patterns and refinements on input it has already refused, so a 64 KB field cost a pattern's
// worst case on 64 KB instead of nothing. Length first, then anything that reads the characters.
export const required = (label: string) => ({ error: `${label} is required`, abort: true });
export const atMost = (label: string, max: number, what = `${label} must be at most ${max} characters`) => ({
  error: what,
  abort: true,
});

/** A required, trimmed, bounded text field without control characters or lone surrogates. */
export function text(label: string, max: number) {
  return z.string({ error: `${label} must be a string` })
    .trim()
    .min(1, required(label))
    .max(max, atMost(label, max))
    .refine((s) => !CONTROL.test(s), `${label} must not contain control characters`)
    .refine((s) => !LONE_SURROGATE.test(s), `${label} must be valid Unicode text`);
}

/**
 * A required email, trimmed and lower-cased. The pattern lets any non-space through, so control
 * characters (a NUL fails PostgreSQL's text) and lone surrogates are refused on their own.
 */
export const email = () =>
  z.string({ error: "email must be a string" })
    .trim()
    .min(1, required("email"))
    .max(EMAIL_MAX_LENGTH, atMost("email", EMAIL_MAX_LENGTH))
    .regex(EMAIL_PATTERN, "email is not a valid email address")
    .refine((s) => !CONTROL.test(s) && !LONE_SURROGATE.test(s), "email is not a valid email address")
    .transform((s) => s.toLowerCase());

/** A language query parameter: one of the site's five. */
export const langParam = z.enum(["en", "he", "ru", "pt", "es"], {
  error: "lang must be en, he, ru, pt or es",
});
