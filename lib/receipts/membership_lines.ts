/**
 * What a receipt of a gift at a membership level prints about the level (`Receipt.membership`, kept
 * as issued, `membership.ts`), in the receipt's language: shared by the PDF and the receipt email,
 * so both say the same. Only the receipt's own figures and `locales/` (`membershipReceipt`).
 *
 * - US (dollar) receipts: the goods or services provided (the level's benefits), their estimated
 *   value and the deductible amount, with the IRS's quid-pro-quo statement (in place of "no goods or
 *   services were provided").
 * - Israeli (shekel) receipts: the level and the share of the payment that is a donation.
 *
 * @module
 */
import { isolate, type Lang } from "@/lib/shared/languages.ts";
import type { Receipt } from "@/lib/storage/types.ts";
import { amountInFigures, percent } from "./format.ts";

/** A translator of the receipt's language (`labels.ts`). */
type T = (key: string, values?: Record<string, string>) => string;

/** The membership's rows (label, value) and its statement on a receipt. */
export interface MembershipLines {
  rows: [label: string, value: string][];
  statement: string;
}

/**
 * The rows and statement of `receipt`'s membership level in `lang`, or null for a plain donation.
 *
 * @example
 * ```ts
 * const lines = membershipLines(receipt, "en", receiptLabels("en"));
 * lines?.rows[3]; // ["Deductible amount", "$10.00"]
 * ```
 */
export function membershipLines(receipt: Receipt, lang: Lang, t: T): MembershipLines | null {
  const m = receipt.membership;
  if (!m) return null;
  const level = m.levelName[lang] ?? m.levelName.en ?? Object.values(m.levelName)[0] ?? String(m.levelId);
  const money = (minor: number) => amountInFigures(minor, receipt.currency, lang);
  if (receipt.currency === "USD") {
    return {
      rows: [
        [t("membershipReceipt.level"), level],
        [t("membershipReceipt.goods"), t("membershipReceipt.goodsValue", { level: isolate(level) })],
        [t("membershipReceipt.value"), money(m.benefitsValue)],
        [t("membershipReceipt.deductible"), money(m.donation)],
      ],
      statement: t("membershipReceipt.quidProQuo", {
        name: isolate(receipt.issuer.legalName),
        level: isolate(level),
        value: isolate(money(m.benefitsValue)),
        deductible: isolate(money(m.donation)),
      }),
    };
  }
  const share = isolate(percent(m.donationShare, lang));
  return {
    rows: [
      [t("membershipReceipt.level"), level],
      [
        t("membershipReceipt.donation"),
        t("membershipReceipt.donationValue", { amount: money(m.donation), share }),
      ],
    ],
    statement: m.donationShare === 100
      ? t("membershipReceipt.shareWhole", { level: isolate(level) })
      : t("membershipReceipt.shareStatement", {
        level: isolate(level),
        amount: isolate(money(m.donation)),
        share,
      }),
  };
}
