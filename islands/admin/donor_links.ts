/**
 * What other sections take from the donor's view without its markup: the link to it and a cancel
 * reason's words. Their own module, so the transactions and reports sections do not ship the view
 * (a shared module lands whole in the chunk every importer loads; issue 29, the sections' bytes).
 *
 * @module
 */
import type { Translate } from "@/islands/shared/texts.ts";

/** The back office's link to a donor's view, from anywhere that shows their address. */
export const donorHref = (lang: string, email: string) =>
  `/${lang}/admin/donors?email=${encodeURIComponent(email.trim())}`;

/** A reason's words, or the reason itself when it has none (a reason added later, untranslated). */
export function reasonText(t: Translate, reason: string): string {
  const key = `backofficeDonor.reasons.${reason}`;
  const text = t(key);
  return text === key ? reason : text;
}
