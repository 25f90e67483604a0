/**
 * The transaction history's view (spec sections 2, 4 and 9): filters and page, kept in the URL
 * query so a view can be bookmarked, shared and restored with the back button; and the
 * pagination arithmetic. Pure, shared by the dashboard island and its tests.
 *
 * Query: `type=success|error` (absent: all), `payment=monthly|one-time` (absent: all payments),
 * `search=…`, `from=YYYY-MM-DD` and `to=YYYY-MM-DD` (the museum's days, either or both: the
 * overview's links, issue 26), `refund=pending` (the gifts with a refund waiting for the provider),
 * `page=N` (absent: 1). Anything unreadable falls back to its default, so a mangled link still
 * opens the history.
 *
 * @module
 */

import { isDay } from "./calendar_day.ts";

// Its home is calendar_day.ts (a section that checks a day ships no history filters); answered here too.
export { isDay };

/** Spec section 9: 10 rows per list page, a window of 5 page numbers. */
export const PAGE_SIZE = 10;
export const PAGE_WINDOW = 5;
/** The API's limit on `searchString`. */
export const SEARCH_MAX_LENGTH = 100;

export type TransactionType = "all" | "success" | "error";
export type PaymentFilter = "all" | "monthly" | "one-time";

/** What the history shows. */
export interface HistoryView {
  type: TransactionType;
  payment: PaymentFilter;
  /** Trimmed; "" for none. */
  search: string;
  /** 1-based. */
  page: number;
  /** The first museum day shown, `YYYY-MM-DD`; absent for no bound. */
  from?: string;
  /** The last museum day shown, `YYYY-MM-DD`; absent for no bound. */
  to?: string;
  /** `pending`: only the gifts with a refund waiting for the provider's answer. */
  refund?: "pending";
}

export const DEFAULT_VIEW: HistoryView = { type: "all", payment: "all", search: "", page: 1 };

const TYPES: readonly TransactionType[] = ["all", "success", "error"];
const PAYMENTS: readonly PaymentFilter[] = ["all", "monthly", "one-time"];
const MAX_PAGE = 1_000_000;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * The view a URL query asks for.
 *
 * @example
 * ```ts
 * readView("?type=success&payment=monthly&page=3");
 * // { type: "success", payment: "monthly", search: "", page: 3 }
 * readView("?page=-2&type=bogus"); // DEFAULT_VIEW
 * ```
 */
export function readView(query: string | URLSearchParams): HistoryView {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  const type = params.get("type") as TransactionType;
  const payment = params.get("payment") as PaymentFilter;
  const page = /^\d{1,7}$/.test(params.get("page") ?? "") ? Number(params.get("page")) : 1;
  const view: HistoryView = {
    type: TYPES.includes(type) ? type : "all",
    payment: PAYMENTS.includes(payment) ? payment : "all",
    search: cleanSearch(params.get("search") ?? ""),
    page: page >= 1 && page <= MAX_PAGE ? page : 1,
  };
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  // Days that exist, in order; a reversed pair is dropped whole (neither bound is sure).
  if (!(isDay(from) && isDay(to) && from > to)) {
    if (isDay(from)) view.from = from;
    if (isDay(to)) view.to = to;
  }
  if (params.get("refund") === "pending") view.refund = "pending";
  return view;
}

/**
 * A search as the API takes it: no control characters, trimmed, at most 100 characters.
 *
 * @example
 * ```ts
 * cleanSearch("  levi\n"); // "levi"
 * ```
 */
export function cleanSearch(text: string): string {
  return [...text.replace(CONTROL, " ").trim()].slice(0, SEARCH_MAX_LENGTH).join("").trim();
}

/**
 * The URL query of a view, leaving defaults out ("" for the default view).
 *
 * @example
 * ```ts
 * viewQuery({ type: "error", payment: "all", search: "dana", page: 1 }); // "?type=error&search=dana"
 * ```
 */
export function viewQuery(view: HistoryView): string {
  const params = new URLSearchParams();
  if (view.type !== "all") params.set("type", view.type);
  if (view.payment !== "all") params.set("payment", view.payment);
  if (view.search) params.set("search", view.search);
  if (view.from) params.set("from", view.from);
  if (view.to) params.set("to", view.to);
  if (view.refund) params.set("refund", view.refund);
  if (view.page > 1) params.set("page", String(view.page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * Whether any filter is set (the page does not count): shows 'Clear all filters'.
 *
 * @example
 * ```ts
 * filtersActive({ ...DEFAULT_VIEW, page: 4 }); // false
 * ```
 */
export function filtersActive(view: HistoryView): boolean {
  return view.type !== "all" || view.payment !== "all" || view.search !== "" || !!view.from || !!view.to ||
    !!view.refund;
}

/**
 * A filter change: back to page 1 (spec section 4).
 *
 * @example
 * ```ts
 * withFilters({ ...DEFAULT_VIEW, page: 3 }, { payment: "monthly" }); // { …, payment: "monthly", page: 1 }
 * ```
 */
export function withFilters(view: HistoryView, change: Partial<Omit<HistoryView, "page">>): HistoryView {
  return { ...view, ...change, page: 1 };
}

/**
 * The API queries of both lists for a view (both always load: the counters show both totals).
 * The payment filter applies to both lists.
 *
 * @example
 * ```ts
 * listQueries({ type: "all", payment: "monthly", search: "", page: 2 });
 * // { success: "page=2&limit=10&isMonthly=true", error: "page=2&limit=10&isMonthly=true" }
 * ```
 */
export function listQueries(
  view: HistoryView,
  limit = PAGE_SIZE,
): { success: string; error: string | null } {
  const params = new URLSearchParams({ page: String(view.page), limit: String(limit) });
  if (view.payment !== "all") params.set("isMonthly", String(view.payment === "monthly"));
  if (view.search) params.set("searchString", view.search);
  if (view.from) params.set("from", view.from);
  if (view.to) params.set("to", view.to);
  const query = params.toString();
  // Refunds are on gifts only: no failed transaction has one.
  if (view.refund) return { success: `${query}&refund=${view.refund}`, error: null };
  return { success: query, error: query };
}

/**
 * The export's query for a view: every matching row of the shown type, in the page's language.
 *
 * @example
 * ```ts
 * exportQuery({ type: "success", payment: "all", search: "", page: 3 }, "he"); // "type=success&lang=he"
 * ```
 */
export function exportQuery(view: HistoryView, lang: string): string {
  const params = new URLSearchParams({ type: view.type });
  if (view.payment !== "all") params.set("isMonthly", String(view.payment === "monthly"));
  if (view.search) params.set("searchString", view.search);
  if (view.from) params.set("from", view.from);
  if (view.to) params.set("to", view.to);
  if (view.refund) params.set("refund", view.refund);
  params.set("lang", lang);
  return params.toString();
}

/**
 * How many pages the shown lists have: with both lists shown, the longer one decides.
 *
 * @example
 * ```ts
 * pageCount("all", { success: 31, error: 4 }); // 4
 * pageCount("error", { success: 31, error: 4 }); // 1
 * ```
 */
export function pageCount(
  type: TransactionType,
  totals: { success: number; error: number },
  limit = PAGE_SIZE,
): number {
  const pages = (n: number) => Math.ceil(Math.max(0, n) / limit);
  if (type === "success") return pages(totals.success);
  if (type === "error") return pages(totals.error);
  return Math.max(pages(totals.success), pages(totals.error));
}

/**
 * The page numbers to offer: at most `size`, around the current page, within 1…pages.
 *
 * @example
 * ```ts
 * pageWindow(1, 12); // [1, 2, 3, 4, 5]
 * pageWindow(7, 12); // [5, 6, 7, 8, 9]
 * pageWindow(12, 12); // [8, 9, 10, 11, 12]
 * pageWindow(1, 1); // [1]
 * ```
 */
export function pageWindow(current: number, pages: number, size = PAGE_WINDOW): number[] {
  if (pages < 1) return [];
  const count = Math.min(size, pages);
  const first = Math.min(Math.max(1, current - Math.floor(size / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

/**
 * Whether a page change is allowed (spec section 5: only between 1 and the page count).
 *
 * @example
 * ```ts
 * canGoTo(0, 5); // false
 * ```
 */
export function canGoTo(page: number, pages: number): boolean {
  return Number.isInteger(page) && page >= 1 && page <= pages;
}
