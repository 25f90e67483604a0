/**
 * The daily totals chart drawn on the server: the chart itself (`GET /api/transaction/daily-totals.svg`,
 * issue 29: the transactions section ships no chart code and puts the markup in as it comes), and
 * its waiting state, drawn with the admin page: the chart's frame
 * and date labels for the last `days` days in the museum's time zone, a loading text in place of the first panel's
 * heading, no money and no bars (`skeletonModel`). The page hands it to the dashboard island as
 * markup (`ChartSkeleton` in `islands/admin/DailyTotals.tsx`), which keeps it until the figures come.
 * Decorative (`aria-hidden`): the page says `loading` to assistive technology itself.
 *
 * @module
 */
import { renderToString } from "preact-render-to-string";
import { DailyTotalsChart } from "@/islands/admin/DailyTotalsChart.tsx";
import { chartModel, skeletonModel } from "@/islands/admin/daily_totals_chart.ts";
import { translator } from "@/islands/shared/texts.ts";
import { fillDays, totalsWindow } from "@/lib/reports/daily_totals.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { DailyTotalsAnswer } from "@/lib/shared/daily_totals.ts";

/**
 * The skeleton as SVG markup, in `lang` (its date labels), for the `days` days in `timeZone` (the
 * museum's, as the API counts them) ending `now`.
 *
 * @example
 * ```ts
 * chartSkeleton("en", "Loading the chart…", "Asia/Jerusalem"); // '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 464" …'
 * ```
 */
export function chartSkeleton(
  lang: Lang,
  loading: string,
  timeZone: string,
  days = 30,
  now: Date = new Date(),
): string {
  const t = translator(textsUnder(lang, ["chart"]));
  const model = chartModel(fillDays([], totalsWindow(days, now, timeZone).days), [1, 2], lang, t);
  return renderToString(<DailyTotalsChart model={skeletonModel(model, loading)} decorative />);
}

/**
 * The chart of `totals` (the daily totals' answer) as SVG markup, its words in `lang`, laid out for
 * a box `width` CSS pixels wide: the chart the page drew in the browser before (same model, same
 * component), named by its title and description.
 *
 * @example
 * ```ts
 * dailyTotalsChartSvg(await dailyTotals(store, { days: 30 }, zone), "he", 390); // '<svg … direction="rtl" …'
 * ```
 */
export function dailyTotalsChartSvg(totals: DailyTotalsAnswer, lang: Lang, width?: number): string {
  const t = translator(textsUnder(lang, ["chart"]));
  return renderToString(
    <DailyTotalsChart model={chartModel(totals.days, totals.currencies, lang, t, width)} />,
  );
}
