import { useEffect, useRef, useState } from "preact/hooks";
import { chartWidth } from "@/lib/shared/axis_labels.ts";
import { FINANCE } from "@/lib/shared/admin_roles.ts";
import type { CurrencyFigures, MonthFigures, MonthlyReport } from "@/lib/shared/monthly_report.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { CancelReasons } from "@/islands/admin/CancelReasons.tsx";
import { MembershipReport } from "@/islands/admin/MembershipReport.tsx";
import { VisitReport } from "@/islands/admin/VisitReport.tsx";
import { DataTable } from "@/islands/admin/DataTable.tsx";
import { saveDownload } from "@/islands/admin/download.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import { formatCalendarMonth } from "@/lib/shared/dates.ts";
import { isolate, messageText, type Translate } from "@/islands/shared/texts.ts";

/** The page's language, the months asked for (the page's `?from` and `?to`, or null) and the texts. */
export interface AdminReportsProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  from: string | null;
  to: string | null;
  texts: Record<string, string>;
}

type Load =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; report: MonthlyReport; chart: string };

/** `YYYY-MM` as "January 2026" in `lang`. */
const monthName = (month: string, lang: string) => formatCalendarMonth(month, lang) ?? month;

/** One currency's months: donations, refunds, net, new and cancelled monthly gifts, and the total. */
function MoneyTable(props: { report: MonthlyReport; currency: 1 | 2; t: Translate; lang: string }) {
  const { report, currency, t, lang } = props;
  const money = (minor: number) => formatMoney(minor, currency, lang);
  const sum = (s: { amount: number; count: number }) =>
    t("reports.withCount", { amount: money(s.amount), count: s.count });
  const id = `report-money-${currency}`;
  const cells = (c: CurrencyFigures) => (
    <>
      <td class="tx-amount">{sum(c.donations.oneTime)}</td>
      <td class="tx-amount">{sum(c.donations.monthly)}</td>
      <td class="tx-amount">{sum(c.donations.total)}</td>
      <td class="tx-amount">{sum(c.refunds.total)}</td>
      <td class="tx-amount">{money(c.net.total)}</td>
      <td class="tx-amount">{sum(c.newMonthly)}</td>
      <td class="tx-amount">{sum(c.cancelledMonthly)}</td>
    </>
  );
  const of = (m: MonthFigures) => m.money.find((c) => c.currency === currency)!;
  return (
    <DataTable
      id={id}
      class="report-table"
      caption={t("reports.moneyCaption", {
        currency: t(currency === 1 ? "chart.currency.nis" : "chart.currency.usd"),
      })}
      columns={[
        "month",
        "oneTime",
        "monthly",
        "donations",
        "refunds",
        "net",
        "newMonthly",
        "cancelledMonthly",
      ].map((key) => t(`reports.columns.${key}`))}
      rows={report.months}
      row={(m) => (
        <tr key={m.month} data-month={m.month}>
          <th scope="row">{monthName(m.month, lang)}</th>
          {cells(of(m))}
        </tr>
      )}
      foot={
        <tr>
          <th scope="row">{t("reports.total")}</th>
          {cells(report.totals.find((c) => c.currency === currency)!)}
        </tr>
      }
    />
  );
}

/** Donors and failed charges per month. */
function ActivityTable(props: { report: MonthlyReport; t: Translate; lang: string }) {
  const { report, t, lang } = props;
  return (
    <DataTable
      id="report-activity"
      class="report-table"
      caption={t("reports.activityCaption")}
      columns={["month", "donors", "failedOneTime", "failedMonthly"].map((key) =>
        t(`reports.columns.${key}`)
      )}
      rows={report.months}
      row={(m) => (
        <tr key={m.month}>
          <th scope="row">{monthName(m.month, lang)}</th>
          <td class="tx-amount">{m.donors}</td>
          <td class="tx-amount">{m.failedCharges.oneTime}</td>
          <td class="tx-amount">{m.failedCharges.monthly}</td>
        </tr>
      )}
    />
  );
}

/**
 * The reports section (issues 16 and 26), `/{lang}/admin/reports?from=YYYY-MM&to=YYYY-MM`, for
 * every role: the accountant's monthly report for those who see money (owners, admins, finance;
 * the API refuses viewers) and, for everyone, why monthly donors cancelled (`admin/CancelReasons.tsx`).
 */
export default function AdminReports(props: AdminReportsProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="reports" texts={props.texts}>
      {(view) => (
        <>
          {FINANCE.includes(view.role) && (
            <MonthlyReportView view={view} timeZone={props.timeZone} from={props.from} to={props.to} />
          )}
          {FINANCE.includes(view.role) && (
            <MembershipReport api={view.api} t={view.t} lang={view.lang} ready={view.ready} />
          )}
          <VisitReport api={view.api} t={view.t} lang={view.lang} ready={view.ready} />
          <CancelReasons api={view.api} t={view.t} ready={view.ready} />
        </>
      )}
    </AdminShell>
  );
}

/**
 * The monthly report: the months form (a plain GET form of the page, so a range is a link to
 * bookmark), the chart the server draws (`GET /api/reports/monthly.svg`, put in as it comes: our
 * own escaped SVG), a table per currency and one of donors and failed charges
 * (`GET /api/reports/monthly`), and the CSV (`.csv`). Loads once `ready`.
 */
function MonthlyReportView(
  props: { view: SectionView; timeZone: string; from: string | null; to: string | null },
) {
  const { api, t, lang, ready } = props.view;
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [notice, setNotice] = useState("");
  const box = useRef<HTMLElement>(null);
  const range = new URLSearchParams();
  if (props.from) range.set("from", props.from);
  if (props.to) range.set("to", props.to);
  useEffect(() => {
    if (!ready) return;
    const query = range.toString();
    Promise.all([
      api.request<MonthlyReport>(`/api/reports/monthly?${query}`),
      // Drawn for the box it is shown in, so its type keeps its size on a phone.
      api.response(
        `/api/reports/monthly.svg?${query}&lang=${lang}&width=${chartWidth(box.current?.clientWidth)}`,
      ).then((res) => res.text()),
    ]).then(([report, chart]) => setLoad({ state: "ready", report, chart }))
      .catch((error) => {
        const message = error instanceof ApiError && error.status === 400
          ? t("reports.invalidRange")
          : t("reports.failed") + " " + messageText(t, listFailure(error));
        setLoad({ state: "failed", message });
      });
  }, [ready]);

  async function downloadCsv(report: MonthlyReport) {
    try {
      await saveDownload(
        await api.response(`/api/reports/monthly.csv?from=${report.from}&to=${report.to}&lang=${lang}`),
        "report.csv",
      );
    } catch (error) {
      setNotice(t("reports.failed") + " " + messageText(t, listFailure(error)));
    }
  }

  const report = load.state === "ready" ? load.report : null;
  return (
    <section class="monthly-report" aria-labelledby="monthly-report-title" ref={box}>
      <h2 id="monthly-report-title">{t("reports.heading")}</h2>
      <p>{t("reports.intro", { timeZone: isolate(props.timeZone) })}</p>
      <form class="report-range" method="get" action={`/${lang}/admin/reports`}>
        <div class="field">
          <label for="report-from">{t("reports.from")}</label>
          <input
            id="report-from"
            name="from"
            type="month"
            dir="ltr"
            pattern="[0-9]{4}-[0-9]{2}"
            placeholder="YYYY-MM"
            value={report?.from ?? props.from ?? ""}
          />
        </div>
        <div class="field">
          <label for="report-to">{t("reports.to")}</label>
          <input
            id="report-to"
            name="to"
            type="month"
            dir="ltr"
            pattern="[0-9]{4}-[0-9]{2}"
            placeholder="YYYY-MM"
            value={report?.to ?? props.to ?? ""}
          />
        </div>
        <button type="submit" class="button button-primary">{t("reports.show")}</button>
      </form>
      {/* `data-loaded`: the answer is on screen (tests wait for it). */}
      <div
        class="report-view"
        aria-live="polite"
        aria-busy={load.state === "loading" ? "true" : "false"}
        data-loaded={load.state === "loading" ? undefined : ""}
      >
        {load.state === "loading" && (
          <div class="loading" role="status">
            <span class="spinner" aria-hidden="true" />
            <span>{t("reports.loading")}</span>
          </div>
        )}
        {load.state === "failed" && <p class="form-alert" role="alert">{load.message}</p>}
        {load.state === "ready" && (
          <>
            <p>
              <button type="button" class="button button-outline" onClick={() => downloadCsv(load.report)}>
                {t("reports.download")}
              </button>
            </p>
            <p class="export-notice" role="status">{notice}</p>
            <div class="report-chart-frame" dangerouslySetInnerHTML={{ __html: load.chart }} />
            {load.report.currencies.map((currency) => (
              <MoneyTable key={currency} report={load.report} currency={currency} t={t} lang={lang} />
            ))}
            <ActivityTable report={load.report} t={t} lang={lang} />
          </>
        )}
      </div>
    </section>
  );
}
