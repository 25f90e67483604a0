/**
 * Receipts of gifts at a membership level (issue 27): what the receipt keeps of the level, decided
 * once, when the receipt is issued, and kept with it (`Receipt.membership`), because an owner may
 * edit a level's name, value or donation share later and an issued receipt must keep saying what
 * it said (as it keeps the issuer's legal details).
 *
 * The gift's level is its membership term's: the term whose `transactionId` is the gift's (the term
 * a one-time gift bought, or a monthly gift's latest charge, which is the charge whose receipt email
 * is rendered right after it). A gift at no level, an address erased since, or a level removed
 * since, has none: its receipt is a plain donation's.
 *
 * - **US (dollar) receipts**: a payment over $75 that buys goods or services is a quid-pro-quo
 *   contribution (IRC §6115): the receipt states the goods or services (the level's benefits), a
 *   good-faith estimate of their value (the level's `benefitsValue.dollars`; a monthly charge buys
 *   one month of a term, so its share of the term's value, rounded up) and the deductible amount,
 *   the payment less that value, never below zero.
 * - **Israeli (shekel) receipts** (Section 46): the level's `donationShare` (percent, 100 unless the
 *   museum set it) of the payment is the donation, rounded down to the agora.
 *
 * @module
 */
import { levelById } from "@/lib/shared/museum.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { ReceiptMembership, Store, Transaction } from "@/lib/storage/types.ts";

/**
 * What the receipt of `tx` (a successful gift of `amount` in `currency`) keeps of the membership
 * level it was at, or undefined when it was at none.
 *
 * @example
 * ```ts
 * const membership = await receiptMembership(store, tx, 25_000, "USD");
 * membership?.donation; // 15_000: $250 less benefits worth $100
 * ```
 */
export async function receiptMembership(
  store: Pick<Store, "memberships" | "museum">,
  tx: Pick<Transaction, "id" | "user">,
  amount: number,
  currency: "ILS" | "USD",
): Promise<ReceiptMembership | undefined> {
  if (!tx.user.email) return undefined;
  const term = (await store.memberships.get(tx.user.email))?.terms.find((t) => t.transactionId === tx.id);
  if (!term) return undefined;
  const level = levelById((await readMuseumSettings(store)).levels, term.levelId);
  if (!level) return undefined;
  const termValue = level.benefitsValue[currency === "USD" ? "dollars" : "nis"];
  // A monthly charge buys one month of the level's term: its share of the term's benefits.
  const benefitsValue = term.subscriptionId === null ? termValue : Math.ceil(termValue / level.termMonths);
  const donationShare = level.donationShare ?? 100;
  return {
    levelId: level.id,
    levelName: { ...level.name },
    benefitsValue,
    donationShare,
    donation: currency === "USD"
      ? Math.max(0, amount - benefitsValue)
      : Math.floor((amount * donationShare) / 100),
  };
}
