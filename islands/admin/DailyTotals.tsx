import { createContext } from "preact";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { DailyTotalsAnswer as DailyTotals } from "@/lib/shared/daily_totals.ts";
import { listAmount } from "@/lib/shared/format.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { pace } from "@/islands/shared/pace.ts";
import { isolate, messageText, type Translate } from "@/islands/shared/texts.ts";
import { chartWidth } from "@/lib/shared/axis_labels.ts";
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

/** How long the box's width stays put before the chart is asked for at the new width. */
const RESIZE_SETTLE_MS = 150;

/**
 * Daily donation totals of the last 30 days: the chart, drawn by the server for the box's width
 * (`GET /api/transaction/daily-totals.svg`, our own small SVG chart, no chart library: the section
 * ships no chart code, issue 29) and put in as it comes, and, for screen readers and anyone who
 * wants the figures, the same numbers as a table (`GET /api/transaction/daily-totals`). Loads once
 * `ready`; until then shows the chart's skeleton, its frame without figures. When the box's width
 * changes the chart is asked for again; the one shown scales until the new one comes
 * (`data-settled` marks the section once nothing more is on its way).
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

  const fail = (error: unknown) =>
    setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
  useEffect(() => {
    if (!ready) return;
    api.request<DailyTotals>("/api/transaction/daily-totals?days=30").then((data) =>
      pace(() => setData(data))
    ).catch(fail);
  }, [ready]);
  // The chart as drawn, and the width it was drawn for.
  const [drawn, setDrawn] = useState<{ svg: string; width: number } | null>(null);
  useEffect(() => {
    if (!ready || width === null) return;
    let current = true;
    const timer = setTimeout(() => {
      api.response(`/api/transaction/daily-totals.svg?days=30&lang=${lang}&width=${width}`)
        .then((res) => res.text()).then((svg) => current && setDrawn({ svg, width })).catch(fail);
    }, drawn === null ? 0 : RESIZE_SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [ready, width]);
  const shown = data !== null && drawn !== null;
  // Nothing more on its way: the figures and the chart for the box's width, or a failure.
  const settled = failure !== "" || (data !== null && drawn?.width === width);

  const cell = (day: DailyTotals["days"][number], currency: 1 | 2) => {
    const total = day.totals.find((x) => x.currency === currency);
    return total ? `${listAmount(total.amount, currency, lang)} (${total.count})` : "–";
  };

  return (
    <section
      class="daily-totals"
      aria-labelledby="daily-title"
      ref={box}
      data-settled={settled ? "" : undefined}
    >
      <h2 id="daily-title">{t("dailyTotals.title")}</h2>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      {/* The chart's skeleton (server-made, decorative) holds its room while it loads. */}
      {!shown && !failure && (
        <div class="chart-loading" role="status">
          <span class="visually-hidden">{t("dailyTotals.loading")}</span>
          <div class="chart" dangerouslySetInnerHTML={{ __html: skeleton }} />
        </div>
      )}
      {shown && (
        <>
          {/* The server's markup: its texts escaped there (components/DailyTotalsSkeleton.tsx). */}
          <div class="chart" dangerouslySetInnerHTML={{ __html: drawn.svg }} />
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
