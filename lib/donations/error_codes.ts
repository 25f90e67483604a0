/**
 * The error catalogue (spec section 8): the payment status codes that have a translated message
 * under `transactionError.errors.<code>` in every locale, and the lookup from a code to its
 * translation key. Pure data and functions, safe for islands (no i18next, no server code).
 *
 * @module
 */

/** `"025"`…`"032"` style: every code from `from` to `to`, as 3-digit strings. */
function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(3, "0"));
}

/**
 * Every status code with a message, sorted: the spec's named codes (003, 004, 006, 033, 039,
 * 057–059, 101), its numbered ranges, the terminal-side codes (503, 505–510, 597–599, 999), and
 * the codes our own product produces: 301 (payment page timed out), 512 (terminal did not answer
 * in time), 555 (the donor cancelled) and `MISMATCH` (the amount charged did not match).
 */
export const SPEC_ERROR_CODES: readonly string[] = Object.freeze(
  [
    ...["003", "004", "006", "033", "039", "057", "058", "059", "101"],
    ...range(25, 32),
    ...range(34, 38),
    ...range(40, 47),
    ...range(51, 53),
    ...range(60, 77),
    "079",
    "080",
    ...range(90, 92),
    "099",
    ...range(106, 180),
    "200",
    "201",
    "205",
    "306",
    "308",
    "404",
    ...range(500, 503),
    ...range(505, 510),
    "597",
    "598",
    "599",
    "999",
    "301",
    "512",
    "555",
    "MISMATCH",
  ].sort(),
);

const KNOWN: ReadonlySet<string> = new Set(SPEC_ERROR_CODES);

/** The key of the message shown for a code the catalogue does not know. */
export const DEFAULT_ERROR_KEY = "transactionError.default";

/**
 * The translation key of the donor-facing message for a payment status code:
 * `transactionError.errors.<code>` for a code in {@link SPEC_ERROR_CODES}, otherwise
 * `transactionError.default`. Surrounding whitespace is ignored; anything else must match exactly
 * (`"3"` is not `"003"`).
 *
 * @example
 * ```ts
 * errorMessageKey("036"); // "transactionError.errors.036"
 * errorMessageKey(" MISMATCH "); // "transactionError.errors.MISMATCH"
 * errorMessageKey("12345"); // "transactionError.default"
 * errorMessageKey(null); // "transactionError.default"
 * ```
 */
export function errorMessageKey(code: string | null | undefined): string {
  const trimmed = typeof code === "string" ? code.trim() : "";
  return KNOWN.has(trimmed) ? `transactionError.errors.${trimmed}` : DEFAULT_ERROR_KEY;
}
