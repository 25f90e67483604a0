import { canGoTo, pageWindow } from "@/lib/shared/transaction_filters.ts";
import type { Translate } from "@/islands/shared/texts.ts";

/**
 * Previous, at most five page numbers around the current page, Next (spec section 2). Hidden
 * with one page or fewer; Previous is disabled on page 1 and Next on the last page.
 */
export function Pagination(
  props: { page: number; pages: number; onPage: (page: number) => void; t: Translate },
) {
  const { page, pages, onPage, t } = props;
  if (pages <= 1) return null;
  const go = (target: number) => canGoTo(target, pages) && target !== page && onPage(target);
  return (
    <nav class="pagination" aria-label={t("transactions.pagination")}>
      <button type="button" class="page-button" disabled={page <= 1} onClick={() => go(page - 1)}>
        {t("transactions.previous")}
      </button>
      <ul>
        {pageWindow(page, pages).map((n) => (
          <li key={n}>
            <button
              type="button"
              class="page-button"
              aria-label={t("transactions.goToPage", { page: n })}
              aria-current={n === page ? "page" : undefined}
              onClick={() => go(n)}
            >
              {n}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" class="page-button" disabled={page >= pages} onClick={() => go(page + 1)}>
        {t("transactions.next")}
      </button>
    </nav>
  );
}
