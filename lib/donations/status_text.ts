/**
 * The error catalogue's words for a payment status code, in one language, on the server: what the
 * back office shows for a failed payment beside the provider's own message (issue 26), so that an
 * island gets the one text it shows and not the catalogue.
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { errorMessageKey } from "./error_codes.ts";

/**
 * The catalogue's text for `code` in `lang` (the donor-facing message of `transactionError.errors`),
 * or the generic `transactionError.default` for a code the catalogue does not know.
 *
 * @example
 * ```ts
 * statusText("033", "en"); // "The card is not valid; please check the card number and try again, …"
 * statusText("777", "he"); // the generic Hebrew text
 * ```
 */
export function statusText(code: string | null | undefined, lang: Lang): string {
  return translator(lang)(errorMessageKey(code));
}
