import { useEffect, useState } from "preact/hooks";
import {
  cleanSearch,
  filtersActive,
  type HistoryView,
  type PaymentFilter,
  SEARCH_MAX_LENGTH,
  type TransactionType,
} from "@/lib/shared/transaction_filters.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import type { Translate } from "@/islands/shared/texts.ts";

const TYPES: [TransactionType, string][] = [
  ["all", "transactions.all"],
  ["success", "transactions.success"],
  ["error", "transactions.errors"],
];
const PAYMENTS: [PaymentFilter, string][] = [
  ["all", "transactions.allPayments"],
  ["monthly", "transactions.monthly"],
  ["one-time", "transactions.oneTime"],
];

/**
 * The filter bar of spec section 2: a search applied on Enter with a clear button, the type and
 * payment toggle buttons (`aria-pressed`), and 'Clear all filters' while any filter is active.
 * Every change goes to `onFilters`; the history resets the page and reloads.
 */
export function FilterBar(props: {
  view: HistoryView;
  onFilters: (change: Partial<Omit<HistoryView, "page">>) => void;
  onClearAll: () => void;
  t: Translate;
  /** The search matches names only (a viewer's: `lib/reports/transactions.ts` `searchScopeOf`). */
  namesOnly?: boolean;
}) {
  const { view, onFilters, t } = props;
  const dates = useDates();
  const day = (d: string) => dates.day(d) ?? d;
  const days = view.from && view.to
    ? (view.from === view.to
      ? day(view.from)
      : t("overview.filter.range", { from: day(view.from), to: day(view.to) }))
    : view.from
    ? t("overview.filter.from", { from: day(view.from) })
    : view.to
    ? t("overview.filter.to", { to: day(view.to) })
    : "";
  // A filter the overview's links set (issue 26), shown with a button that removes it.
  const chip = (text: string, remove: Partial<Omit<HistoryView, "page">>) => (
    <span class="filter-chip">
      <span>{text}</span>
      <button
        type="button"
        class="filter-chip-remove"
        aria-label={t("overview.filter.remove", { filter: text })}
        onClick={() => onFilters(remove)}
      >
        ×
      </button>
    </span>
  );
  const [text, setText] = useState(view.search);
  // The URL decides (Back, Clear all filters): the box follows it.
  useEffect(() => setText(view.search), [view.search]);

  const toggles = <V extends string>(
    label: string,
    options: [V, string][],
    current: V,
    pick: (v: V) => void,
  ) => (
    <div class="toggle-group" role="group" aria-label={t(label)}>
      {options.map(([value, key]) => (
        <button
          key={value}
          type="button"
          class="toggle"
          aria-pressed={value === current ? "true" : "false"}
          onClick={() => value !== current && pick(value)}
        >
          {t(key)}
        </button>
      ))}
    </div>
  );

  return (
    <div class="filter-bar" role="group" aria-label={t("transactions.filters")}>
      <form
        role="search"
        class="search-box"
        onSubmit={(e) => {
          e.preventDefault();
          const search = cleanSearch(text);
          setText(search);
          if (search !== view.search) onFilters({ search });
        }}
      >
        <label class="visually-hidden" for="tx-search">{t("transactions.searchLabel")}</label>
        <input
          id="tx-search"
          type="search"
          enterKeyHint="search"
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={t(
            props.namesOnly ? "transactions.searchPlaceholderNames" : "transactions.searchPlaceholder",
          )}
          value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        {(text || view.search) && (
          <button
            type="button"
            class="search-clear"
            onClick={() => {
              setText("");
              if (view.search) onFilters({ search: "" });
            }}
          >
            {t("transactions.clearSearch")}
          </button>
        )}
      </form>
      {toggles("transactions.typeGroup", TYPES, view.type, (type) => onFilters({ type }))}
      {toggles("transactions.paymentGroup", PAYMENTS, view.payment, (payment) => onFilters({ payment }))}
      {(days || view.refund) && (
        <p class="filter-chips">
          {days && chip(days, { from: undefined, to: undefined })}
          {view.refund && chip(t("overview.filter.refundPending"), { refund: undefined })}
        </p>
      )}
      {filtersActive(view) && (
        <button type="button" class="button button-outline clear-all" onClick={props.onClearAll}>
          {t("transactions.clearAll")}
        </button>
      )}
    </div>
  );
}
