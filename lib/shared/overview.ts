/**
 * The back office's overview (issue 26, "what needs me today"): what `GET /api/overview` answers,
 * read by the overview island, and which roles see each part. The server builds it in
 * `lib/overview/`; each figure carries the link (`href`) to the filtered list behind it.
 *
 * @module
 */

/** 1 = NIS, 2 = USD. */
export type OverviewCurrency = 1 | 2;

/** One currency's sum: how many and how much, in minor units. */
export interface CurrencyTotal {
  currency: OverviewCurrency;
  count: number;
  amount: number;
}

/** Successful gifts of a run of the museum's days, per currency, and the list of them. */
export interface PeriodTotals {
  /** The first and the last museum day counted, `YYYY-MM-DD`. */
  from: string;
  to: string;
  /** Ascending by currency; only currencies with gifts. */
  totals: CurrencyTotal[];
  /** The transaction history filtered to these gifts. */
  href: string;
}

/** Gifts today and this month against last month. */
export interface OverviewGifts {
  today: PeriodTotals;
  /** From the 1st to today. */
  thisMonth: PeriodTotals;
  /** Last month from the 1st to the same day of the month (its last day when it is shorter). */
  lastMonthSameDays: PeriodTotals;
  /** The whole of last month. */
  lastMonth: PeriodTotals;
}

/** A monthly gift whose last charge was declined and that will be charged again. */
export interface RetryingGift {
  /** When it is next charged (ISO); in the past when the next billing pass will. */
  nextTryAt: string;
  /** Declined attempts of this month's charge so far. */
  failedAttempts: number;
  amount: number;
  currency: OverviewCurrency;
}

/** Monthly charges failing, and when each is tried again. */
export interface OverviewMonthlyFailing {
  count: number;
  /** True when there were more than could be counted ({@link OVERVIEW_LIST_CAP}). */
  capped: boolean;
  /** The first few to be tried again, earliest first. */
  next: RetryingGift[];
  /** The failed monthly charges since the earliest of these gifts' due dates. */
  href: string;
}

/** Refunds waiting for the provider's answer. */
export interface OverviewRefunds {
  count: number;
  capped: boolean;
  /** The pending refunds' sums per currency. */
  pending: CurrencyTotal[];
  /** The gifts with a refund pending. */
  href: string;
}

/** Outgoing email in trouble since a day. */
export interface OverviewEmail {
  /** Failed for good, or waiting to be tried again after a failed attempt. */
  count: number;
  failed: number;
  retrying: number;
  capped: boolean;
  /** The first museum day counted, `YYYY-MM-DD` (a week ago). */
  since: string;
  href: string;
}

/** Accounts waiting for an owner's approval. */
export interface OverviewApprovals {
  count: number;
  href: string;
}

/** A paired kiosk with no sale or pairing for a day. */
export interface UnseenKiosk {
  name: string;
  shopNumber: string;
  /** Its last sale, else its pairing (ISO). */
  lastSeenAt: string | null;
}

/** Kiosks not seen for a day. */
export interface OverviewKiosks {
  count: number;
  /** The first few, longest unseen first. */
  devices: UnseenKiosk[];
  href: string;
}

/** What `GET /api/overview` answers: each part only for the roles of {@link OVERVIEW_PARTS}. */
export interface Overview {
  /** The museum's time zone, in which days and months are counted. */
  timeZone: string;
  /** Today in that zone, `YYYY-MM-DD`. */
  today: string;
  /** When the figures were read (ISO). */
  at: string;
  gifts?: OverviewGifts;
  monthlyFailing?: OverviewMonthlyFailing;
  refunds?: OverviewRefunds;
  email?: OverviewEmail;
  approvals?: OverviewApprovals;
  kiosks?: OverviewKiosks;
}

/** The parts of the overview, in the order shown. */
export type OverviewPart = "gifts" | "monthlyFailing" | "refunds" | "email" | "approvals" | "kiosks";

/**
 * Who sees each part: the role sets of `lib/staff/roles.ts` (every role, FINANCE, ADMINS, OWNERS),
 * written out here because islands cannot import them (a test checks they are the same).
 */
export const OVERVIEW_PARTS: Readonly<Record<OverviewPart, readonly string[]>> = {
  gifts: ["owner", "admin", "finance", "viewer"],
  monthlyFailing: ["owner", "admin", "finance", "viewer"],
  refunds: ["owner", "admin", "finance"],
  email: ["owner", "admin"],
  approvals: ["owner"],
  kiosks: ["owner", "admin"],
};

/** The parts a role sees, in the order shown. */
export function partsFor(role: string): OverviewPart[] {
  return (Object.keys(OVERVIEW_PARTS) as OverviewPart[]).filter((part) =>
    OVERVIEW_PARTS[part].includes(role)
  );
}

/** The most records one figure counts (more show as "200+"). */
export const OVERVIEW_LIST_CAP = 200;
