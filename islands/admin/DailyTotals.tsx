import { useEffect, useState } from "react";
import { listFailure } from "../../lib/account_forms.ts";
import { listAmount, usShortDay } from "../../lib/format.ts";
import type { ApiClient } from "../shared/admin_api.ts";
import { messageText, type Translate } from "../shared/texts.ts";

/** `GET /api/transaction/daily-totals` (lib/daily_totals.ts). */
interface DailyTotals {
  from: string;
  to: string;
  currencies: (1 | 2)[];
  days: { date: string; totals: { currency: 1 | 2; amount: number; count: number }[] }[];
  /** The chart as SVG markup, rendered by the server from these numbers. */
  chart: string;
}

/**
 * Daily donation totals of the last 30 days: the chart the server drew (no chart library in the
 * browser) and, for screen readers and anyone who wants the figures, the same numbers as a table.
 */
export function DailyTotalsPanel(props: { api: ApiClient; t: Translate; lang: string }) {
  const { api, t, lang } = props;
  const [data, setData] = useState<DailyTotals | null>(null);
  const [failure, setFailure] = useState("");
  const [tableOpen, setTableOpen] = useState(false);

  useEffect(() => {
    api.request<DailyTotals>(`/api/transaction/daily-totals?days=30&lang=${lang}`).then(setData).catch((
      error,
    ) => setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, []);

  const cell = (day: DailyTotals["days"][number], currency: 1 | 2) => {
    const total = day.totals.find((x) => x.currency === currency);
    return total ? `${listAmount(total.amount, currency, lang)} (${total.count})` : "–";
  };

  return (
    <section class="daily-totals" aria-labelledby="daily-title">
      <h2 id="daily-title">{t("dailyTotals.title")}</h2>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      {/* Holds the chart's usual room while it loads, so the history below does not move. */}
      {!data && !failure && <p class="chart-loading" role="status">{t("dailyTotals.loading")}</p>}
      {data && (
        <>
          {/* Server-made markup from numbers and our own locale texts, escaped by Preact there. */}
          <div class="chart" dangerouslySetInnerHTML={{ __html: data.chart }} />
          <details
            class="chart-table"
            onToggle={(e) => setTableOpen((e.currentTarget as HTMLDetailsElement).open)}
          >
            <summary>{t("dailyTotals.tableSummary")}</summary>
            {/* Built when opened: 30 rows nobody sees cost the page's load a render pass. */}
            {tableOpen && (
              <div class="table-scroll" role="region" aria-labelledby="daily-caption" tabIndex={0}>
                <table>
                  <caption id="daily-caption">{t("dailyTotals.caption")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("dailyTotals.day")}</th>
                      {data.currencies.map((c) => (
                        <th scope="col" key={c}>{t("dailyTotals.donations")} ({c === 1 ? "ILS" : "USD"})</th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {data.days.map((day) => (
                      <tr key={day.date}>
                        <th scope="row">
                          <time dateTime={day.date}>{usShortDay(day.date) ?? day.date}</time>
                        </th>
                        {data.currencies.map((c) => <td key={c}>{cell(day, c)}</td>)}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </details>
        </>
      )}
    </section>
  );
}
