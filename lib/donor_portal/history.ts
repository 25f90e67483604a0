/**
 * What the donor portal shows a signed-in donor (issue 15): every gift under the session's email
 * address, across all the donor records of that address (a donor who filled in the form several
 * times is one donor here), each with its receipt's PDF link when one was issued, and each active
 * monthly gift with its amount, next charge date and card (and whether its card updates are locked).
 *
 * Every read is an index range (`donors.idsByEmail`, `transactions.listByDonors`,
 * `receipts.listByDonors`, `subscriptions.listByDonor`): the page costs work in proportion to the
 * donor's own records, never a scan. Every record of the address is read, however many it has
 * (`lib/donors/records.ts`: anyone may create records under any address, issue 23).
 *
 * @module
 */
import { receiptYears } from "./year_receipts.ts";
import { receiptDownloadCode } from "@/lib/receipts/mod.ts";
import { nextMonth } from "@/lib/monthly_gifts/mod.ts";
import { cardUpdateLocks } from "@/lib/monthly_gifts/mod.ts";
import { addressRecords, recordsOf } from "@/lib/donors/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";

/** The most gifts the page lists (newest first). */
export const MAX_GIFTS = 500;

/** One gift as the page lists it. */
export interface GiftRow {
  /** ISO 8601. */
  date: string;
  /** Minor units, or null when the record has none (a declined attempt). */
  amount: number | null;
  currency: 1 | 2 | null;
  monthly: boolean;
  status: "success" | "failed";
  /** The receipt's number and its PDF link (working for a day), when one was issued. */
  receipt: { number: string; href: string } | null;
}

/** An active monthly gift. */
export interface MonthlyRow {
  /** The subscription's id: what the gift's forms (`routes/[lang]/account/gifts/`, `…/card/`) name. */
  id: string;
  amount: number;
  currency: 1 | 2;
  /** ISO 8601. */
  nextCharge: string;
  /** The card's brand when its number tells it, and its last four digits, when known. */
  card: { brand: string | null; last4: string } | null;
  /**
   * While paused or skipped: the first charge left out and how many are (1 when only the next
   * charge is skipped); `nextCharge` is then the resume date. Null when not paused.
   */
  pause: { from: string; periods: number } | null;
  /**
   * When the gift's card updates are locked after declined cards (`card_update_limits.ts`): until
   * when (ISO 8601); null when the card can be updated.
   */
  cardLockedUntil: string | null;
  /**
   * The amounts its form offers to choose (minor units, in its currency): the prices of the
   * museum's membership levels offered monthly, as the donation page offers them.
   */
  amountChoices: number[];
}

/** The signed-in page's data. */
export interface DonorHistory {
  gifts: GiftRow[];
  monthly: MonthlyRow[];
  /** The years with receipts, newest first: each has a download of all its receipts (`year_receipts.ts`). */
  receiptYears: number[];
  /** Whether a receipt's link hides the Israeli ID number it carries (`lib/donor_portal/access.ts`). */
  taxIdMasked: boolean;
}

/** Which records {@link donorHistory} reads, and how its receipt links print the ID number. */
export interface HistoryOptions {
  /** The donor records to show (a session's, `lib/donor_portal/access.ts`); every record of the address by default. */
  donorIds?: readonly string[];
  /** Whether the receipts' links mask the Israeli ID number (download codes that say so). */
  maskTaxId?: boolean;
}

/**
 * A card's brand from the first digits of its masked number (`458045******4580` → Visa), or null
 * when they do not tell (a local brand such as Isracard, or no number).
 */
export function cardBrand(masked: string | null): string | null {
  if (!masked) return null;
  const two = Number(masked.slice(0, 2));
  const four = Number(masked.slice(0, 4));
  if (masked.startsWith("4")) return "Visa";
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "Mastercard";
  if (two === 34 || two === 37) return "American Express";
  return null;
}

/**
 * The pause a subscription is in at `now` (its resume date ahead, as `subscription_changes.ts`
 * decides it): the first period left out, and the periods left out up to the resume date.
 */
function pauseOf(s: Subscription, now: string): MonthlyRow["pause"] {
  if (s.pausedFrom === null || s.nextPaymentDate <= now) return null;
  let periods = 0;
  for (let p = s.pausedFrom; p < s.nextPaymentDate && periods < 24; p = nextMonth(p, s.createdAt)) periods++;
  return { from: s.pausedFrom, periods };
}

function lastFour(masked: string | null): string | null {
  const digits = [...(masked ?? "")].filter((c) => c >= "0" && c <= "9").join("");
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/**
 * The history of `email` (normalized), with receipt links in `lang`; `options` narrow it to some
 * of the address's donor records and mask the ID number on the receipts.
 *
 * @example
 * ```ts
 * const history = await donorHistory(store, config.appSecret, session.email, "he");
 * ```
 */
export async function donorHistory(
  store: Pick<Store, "donors" | "transactions" | "receipts" | "subscriptions" | "rateLimits" | "museum">,
  appSecret: string,
  email: string,
  lang: string,
  now: Date = new Date(),
  options: HistoryOptions = {},
): Promise<DonorHistory> {
  const masked = options.maskTaxId ?? false;
  const { transactions: txs, receipts, subscriptions } = options.donorIds
    ? await recordsOf(store, [...options.donorIds], MAX_GIFTS)
    : await addressRecords(store, email, MAX_GIFTS);
  const receiptOf = new Map(receipts.map((r) => [r.transactionId, r]));
  const gifts = txs.map((tx): GiftRow => {
    const receipt = receiptOf.get(tx.id);
    return {
      date: tx.createdAt,
      amount: tx.amount,
      currency: tx.currency,
      monthly: tx.isMonthly,
      status: tx.kind === "success" ? "success" : "failed",
      receipt: receipt
        ? {
          number: receipt.number,
          href: `/${lang}/receipts/download?c=${receiptDownloadCode(appSecret, receipt.id, now, masked)}`,
        }
        : null,
    };
  });
  const active = subscriptions.filter((s) => s.status === "active");
  const [locks, museum] = await Promise.all([
    cardUpdateLocks(store, active.map((s) => s.id), now),
    active.length > 0 ? readMuseumSettings(store) : null,
  ]);
  const offered = (museum?.levels ?? []).filter((level) => level.monthly);
  const monthly = active
    .sort((a, b) =>
      a.nextPaymentDate < b.nextPaymentDate ? -1 : a.nextPaymentDate > b.nextPaymentDate ? 1 : 0
    )
    .map((s): MonthlyRow => {
      const last4 = lastFour(s.cardMasked);
      return {
        id: s.id,
        amount: s.amount,
        currency: s.currency,
        nextCharge: s.nextPaymentDate,
        card: last4 ? { brand: cardBrand(s.cardMasked), last4 } : null,
        pause: pauseOf(s, now.toISOString()),
        cardLockedUntil: locks.get(s.id) ?? null,
        amountChoices: offered.map((level) => level.price[s.currency === 1 ? "nis" : "dollars"]),
      };
    });
  const taxIdMasked = masked && receipts.some((r) => r.donorTaxId !== null);
  return { gifts, monthly, receiptYears: receiptYears(receipts), taxIdMasked };
}
