import { useEffect, useRef, useState } from "preact/hooks";
import { listFailure, type Message } from "@/islands/shared/account_forms.ts";
import {
  DEFAULT_VIEW,
  exportQuery,
  type HistoryView,
  listQueries,
  pageCount,
  readView,
  viewQuery,
  withFilters,
} from "@/lib/shared/transaction_filters.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { pace } from "@/islands/shared/pace.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { saveDownload } from "./download.ts";
import { FilterBar } from "./FilterBar.tsx";
import { Pagination } from "./Pagination.tsx";
import {
  type ErrorItem,
  type ReceiptActions,
  type Row,
  type SuccessItem,
  TransactionTable,
} from "./TransactionTable.tsx";

interface ListPage<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

type Lists =
  | { state: "loading" }
  | { state: "failed"; message: Message }
  /**
   * `query`: the view these lists were loaded for (as `viewQuery` writes it); `whole`: every row
   * is on screen (see {@link FIRST_ROWS}).
   */
  | {
    state: "ready";
    query: string;
    success: ListPage<SuccessItem>;
    error: ListPage<ErrorItem>;
    whole: boolean;
  };

/**
 * The refund dialogs (issue 16), loaded the first time one opens: most visits refund nothing, and
 * a viewer never can; the transactions section ships without them (issue 26, its byte budget).
 */
const loadDialogs = () =>
  Promise.all([import("./RefundForm.tsx"), import("./RefundOutcomeForm.tsx")])
    .then(([a, b]) => ({ RefundForm: a.RefundForm, RefundOutcomeForm: b.RefundOutcomeForm }));
type Dialogs = Awaited<ReturnType<typeof loadDialogs>>;

/**
 * Rows put on screen with the answer; the rest follow in a frame of their own (`pace`). Twenty new
 * rows and their layout in one go were the page's longest task.
 */
const FIRST_ROWS = 10;

/**
 * The transaction history (spec sections 2 and 4): counters, 'Page x of y', the filter bar, the
 * table and pagination. The view (filters and page) lives in the URL query: every change pushes
 * a history entry, Back and Forward restore the view, and a bookmarked link opens it again. Any
 * filter change goes back to page 1; every change reloads both lists (the counters show both
 * totals). Answers that arrive after a newer request are dropped.
 *
 * 'Export CSV' downloads every row matching the filters from the server's streamed export. Each
 * successful gift's receipt downloads from its row, which can also resend the receipt email.
 *
 * Rendered by the server too, with its waiting state (`search`: the page's query); the lists load
 * once `ready`, and the counters' line keeps its room until they have.
 */
export function TransactionHistory(
  props: {
    api: ApiClient;
    t: Translate;
    lang: string;
    path: string;
    search: string;
    ready: boolean;
    /** Export and receipts (a viewer has neither: `lib/staff/roles.ts`). */
    personalData: boolean;
  },
) {
  const { api, t, lang, path, ready } = props;
  // From the query the server rendered (not `location`), so that hydration finds the same view.
  const [view, setView] = useState<HistoryView>(() => readView(props.search));
  const [lists, setLists] = useState<Lists>({ state: "loading" });
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState("");
  const [resending, setResending] = useState(false);
  // The gift whose refund form is open (issue 16), and a count that reloads the lists after a refund.
  const [refunding, setRefunding] = useState<SuccessItem | null>(null);
  const [resolving, setResolving] = useState<SuccessItem | null>(null);
  const [reloads, setReloads] = useState(0);
  const [dialogs, setDialogs] = useState<Dialogs | null>(null);
  const latest = useRef(0);

  useEffect(() => {
    const restore = () => setView(readView(location.search));
    addEventListener("popstate", restore);
    return () => removeEventListener("popstate", restore);
  }, []);

  useEffect(() => {
    if (!ready) return;
    const request = ++latest.current;
    // The same object when already loading: no render pass for nothing.
    setLists((lists) => lists.state === "loading" ? lists : { state: "loading" });
    const query = listQueries(view);
    Promise.all([
      api.request<ListPage<SuccessItem>>(`/api/transaction/get-all-success-transactions?${query.success}`),
      // The catalogue's words for each code come in the page's language (issue 26). Not asked for
      // when only gifts can match (a refund pending).
      query.error === null
        ? Promise.resolve<ListPage<ErrorItem>>({ data: [], page: view.page, limit: 0, total: 0 })
        : api.request<ListPage<ErrorItem>>(
          `/api/transaction/get-all-error-transactions?${query.error}&lang=${lang}`,
        ),
    ]).then(([success, error]) => {
      if (request !== latest.current) return;
      const pages = pageCount(view.type, { success: success.total, error: error.total });
      // A link to a page past the end (rows were removed, or a hand-edited URL) shows the last.
      if (pages >= 1 && view.page > pages) return show({ ...view, page: pages }, "replace");
      const whole = success.data.length + error.data.length <= FIRST_ROWS;
      const loaded: Lists = { state: "ready", query: viewQuery(view), success, error, whole };
      pace(() => request === latest.current && setLists(loaded));
      if (!whole) pace(() => setLists((lists) => lists === loaded ? { ...loaded, whole: true } : lists));
    }).catch((error) => {
      if (request === latest.current) setLists({ state: "failed", message: listFailure(error) });
    });
  }, [ready, view.type, view.payment, view.search, view.from, view.to, view.refund, view.page, reloads]);

  function show(next: HistoryView, how: "push" | "replace" = "push") {
    const url = `${path}${viewQuery(next)}`;
    if (how === "push") history.pushState(null, "", url);
    else history.replaceState(null, "", url);
    setView(next);
  }

  const failed = (error: unknown) =>
    setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));

  async function exportCsv() {
    setExporting(true);
    setNotice(t("transactions.exporting"));
    try {
      const file = await saveDownload(
        await api.response(`/api/transaction/export?${exportQuery(view, lang)}`),
        "transactions.csv",
      );
      setNotice(t("transactions.exported", { file }));
    } catch (error) {
      failed(error);
    } finally {
      setExporting(false);
    }
  }

  const receipts: ReceiptActions = {
    busy: resending,
    async download(item) {
      setNotice(t("backofficeMail.downloading"));
      try {
        const file = await saveDownload(
          await api.response(`${item.receipt!.url}?lang=${lang}`),
          "receipt.pdf",
        );
        setNotice(t("transactions.exported", { file }));
      } catch (error) {
        failed(error);
      }
    },
    async resend(item) {
      const email = item.user.email;
      if (!confirm(t("backofficeMail.confirmResend", { email }))) return;
      setResending(true);
      try {
        const answer = await api.request<{ repeated: boolean }>(
          `/api/transaction/${encodeURIComponent(item.id)}/resend-receipt`,
          { method: "POST" },
        );
        setNotice(t(answer.repeated ? "backofficeMail.resentAlready" : "backofficeMail.resent", { email }));
      } catch (error) {
        failed(error);
      } finally {
        setResending(false);
      }
    },
    refund: (item) => opening(() => setRefunding(item)),
    resolve: (item) => opening(() => setResolving(item)),
  };

  // A refund dialog: its code first, the first time.
  function opening(open: () => void) {
    if (dialogs) return open();
    loadDialogs().then((loaded) => {
      setDialogs(loaded);
      open();
    }).catch(failed);
  }

  // A refund dialog closed: with what was done, said and the lists read again.
  const closed = (close: (item: null) => void) => (done: string | null) => {
    close(null);
    if (done) {
      setNotice(done);
      setReloads((n) => n + 1);
    }
  };

  const loadedLists = lists.state === "ready" ? lists : null;
  const pages = loadedLists
    ? pageCount(view.type, { success: loadedLists.success.total, error: loadedLists.error.total })
    : 0;
  const rows: Row[] = loadedLists
    ? [
      ...(view.type === "error"
        ? []
        : loadedLists.success.data.map((item) => ({ kind: "success" as const, item }))),
      ...(view.type === "success"
        ? []
        : loadedLists.error.data.map((item) => ({ kind: "error" as const, item }))),
    ]
    : [];

  return (
    // `data-loaded`: which view the rows on screen belong to, once they all are (tests wait for it).
    <section
      class="history"
      aria-labelledby="history-title"
      data-loaded={loadedLists?.whole ? loadedLists.query : undefined}
    >
      <div class="history-head">
        <h2 id="history-title">{t("transactions.title")}</h2>
        {props.personalData && (
          <button
            type="button"
            class="button button-outline"
            disabled={exporting || !ready}
            onClick={exportCsv}
          >
            {t("transactions.exportCsv")}
          </button>
        )}
      </div>
      <p class="export-notice" role="status">{notice}</p>
      <p class="counters">
        {loadedLists && (
          <>
            <span class="counter counter-success">
              {t("transactions.successCount", { count: loadedLists.success.total })}
            </span>
            <span class="counter counter-error">
              {t("transactions.errorCount", { count: loadedLists.error.total })}
            </span>
            {pages > 1 && <span class="page-of">{t("transactions.pageOf", { page: view.page, pages })}</span>}
          </>
        )}
      </p>
      <FilterBar
        view={view}
        t={t}
        namesOnly={!props.personalData}
        onFilters={(change) => show(withFilters(view, change))}
        onClearAll={() => show(DEFAULT_VIEW)}
      />
      <div aria-live="polite" aria-busy={lists.state === "loading" ? "true" : "false"}>
        {lists.state === "loading" && (
          <div class="loading" role="status">
            <span class="spinner" aria-hidden="true" />
            <span>{t("transactions.loading")}</span>
          </div>
        )}
        {lists.state === "failed" && (
          <p class="form-alert" role="alert">
            {t("transactions.errorPrefix")}
            {messageText(t, lists.message)}
          </p>
        )}
      </div>
      {loadedLists && (
        <TransactionTable
          rows={rows}
          shown={loadedLists.whole ? rows.length : FIRST_ROWS}
          t={t}
          lang={lang}
          receipts={props.personalData ? receipts : undefined}
          donorLinks={props.personalData}
        />
      )}
      {refunding && dialogs && (
        <dialogs.RefundForm
          item={refunding}
          api={api}
          t={t}
          lang={lang}
          onClose={closed(setRefunding)}
        />
      )}
      {resolving && dialogs && (
        <dialogs.RefundOutcomeForm
          item={resolving}
          api={api}
          t={t}
          lang={lang}
          onClose={closed(setResolving)}
        />
      )}
      {loadedLists && (
        <Pagination
          page={view.page}
          pages={pages}
          t={t}
          onPage={(page) => show({ ...view, page })}
        />
      )}
    </section>
  );
}
