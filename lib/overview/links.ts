/**
 * The overview's links: each figure opens the filtered list behind it on the back office's section
 * pages (issue 26's contract: `/{lang}/admin/transactions?…`, `/{lang}/admin/email?…`,
 * `/{lang}/admin/staff#approvals`, `/{lang}/admin/kiosks?…`). The transaction links are written by
 * the history's own `viewQuery`, so the page reads back exactly the view linked to.
 *
 * @module
 */
import type { Lang } from "@/lib/shared/languages.ts";
import { DEFAULT_VIEW, type HistoryView, viewQuery } from "@/lib/shared/transaction_filters.ts";

/** The transaction history showing `view` (over the default one). */
export const transactionsHref = (lang: Lang, view: Partial<HistoryView>): string =>
  `/${lang}/admin/transactions${viewQuery({ ...DEFAULT_VIEW, ...view })}`;

/** The outgoing email in trouble since the museum day `since`. */
export const emailHref = (lang: Lang, since: string): string =>
  `/${lang}/admin/email?${new URLSearchParams({ failingSince: since })}`;

/** The accounts waiting for approval, on the staff page. */
export const approvalsHref = (lang: Lang): string => `/${lang}/admin/staff#approvals`;

/** The kiosks not seen for a day. */
export const kiosksHref = (lang: Lang): string => `/${lang}/admin/kiosks?unseen=true`;
