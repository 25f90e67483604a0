import { createContext } from "preact";
import { useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { DailyTotalsAnswer as DailyTotals } from "@/lib/shared/daily_totals.ts";
import { listAmount } from "@/lib/shared/format.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import type { Lang } from "@/lib/shared/languages.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { pace } from "@/islands/shared/pace.ts";
import { isolate, messageText, type Translate } from "@/islands/shared/texts.ts";
import { chartWidth } from "@/lib/shared/axis_labels.ts";
import { chartModel } from "./daily_totals_chart.ts";
import { DailyTotalsChart } from "./DailyTotalsChart.tsx";
import { DataTable } from "./DataTable.tsx";

/**
 * The chart's skeleton (`chartSkeleton` in components/DailyTotalsSkeleton.tsx), given by the page
 * on the server. A context, not a prop: island props travel to the browser in the page, and the browser never
 * renders this markup again (hydration keeps the server's). Without it (in the browser) the
 * waiting chart is an empty box of the chart's size.
 */
export const ChartSkeleton = createContext("");

/** The table's days: short month and day, as under the chart. */
const SHORT_DAY: Intl.DateTimeFormatOptions = { month: "short", day: "numeric" };

/**
 * Daily donation totals of the last 30 days: the chart, drawn here from the API's figures (our own
 * small SVG chart, no chart library; its texts are the page's `chart.*`), and, for screen readers
 * and anyone who wants the figures, the same numbers as a table. Loads once `ready`; until then
 * shows the chart's skeleton, its frame without figures.
 */
export function DailyTotalsPanel(props: { api: ApiClient; t: Translate; lang: string; ready: boolean }) {
  const { api, t, lang, ready } = props;
  const skeleton = useContext(ChartSkeleton);
  const dates = useDates();
  const [data, setData] = useState<DailyTotals | null>(null);
  const [failure, setFailure] = useState("");
  const [tableOpen, setTableOpen] = useState(false);
  // The chart is laid out at its box's width, so its type keeps its size on a phone.
  const box = useRef<HTMLElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const section = box.current;
    if (!section) return;
    const measure = () => setWidth(chartWidth(section.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(section);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!ready) return;
    api.request<DailyTotals>("/api/transaction/daily-totals?days=30").then((data) =>
      pace(() => setData(data))
    ).catch((
      error,
    ) => setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, [ready]);
  const chart = useMemo(
    () => data && chartModel(data.days, data.currencies, lang as Lang, t, chartWidth(width)),
    [data, width],
  );

  const cell = (day: DailyTotals["days"][number], currency: 1 | 2) => {
    const total = day.totals.find((x) => x.currency === currency);
    return total ? `${listAmount(total.amount, currency, lang)} (${total.count})` : "–";
  };

  return (
    <section class="daily-totals" aria-labelledby="daily-title" ref={box}>
      <h2 id="daily-title">{t("dailyTotals.title")}</h2>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      {/* The chart's skeleton (server-made, decorative) holds its room while it loads. */}
      {!data && !failure && (
        <div class="chart-loading" role="status">
          <span class="visually-hidden">{t("dailyTotals.loading")}</span>
          <div class="chart" dangerouslySetInnerHTML={{ __html: skeleton }} />
        </div>
      )}
      {data && chart && (
        <>
          <div class="chart">
            <DailyTotalsChart model={chart} />
          </div>
          <details
            class="chart-table"
            onToggle={(e) => setTableOpen((e.currentTarget as HTMLDetailsElement).open)}
          >
            <summary>{t("dailyTotals.tableSummary")}</summary>
            {/* Built when opened: 30 rows nobody sees cost the page's load a render pass. */}
            {tableOpen && (
              <DataTable
                id="daily-caption"
                caption={t("dailyTotals.caption", { timeZone: isolate(data.timeZone) })}
                columns={[
                  t("dailyTotals.day"),
                  ...data.currencies.map((c) => (
                    <>{t("dailyTotals.donations")} ({c === 1 ? "ILS" : "USD"})</>
                  )),
                ]}
                rows={data.days}
                row={(day) => (
                  <tr key={day.date}>
                    <th scope="row">
                      <time dateTime={day.date}>{dates.day(day.date, SHORT_DAY) ?? day.date}</time>
                    </th>
                    {data.currencies.map((c) => <td key={c}>{cell(day, c)}</td>)}
                  </tr>
                )}
              />
            )}
          </details>
        </>
      )}
    </section>
  );
}
