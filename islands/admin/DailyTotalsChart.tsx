/**
 * The daily totals chart as SVG, from the layout `daily_totals_chart.ts` computes: one panel per
 * currency with its money lines, bars and dates, or one panel saying there were no donations. The
 * back office draws it in the browser from the API's figures (the API answers data, the page
 * draws); the page's server render uses it too, for the chart's waiting state
 * (`components/DailyTotalsSkeleton.tsx`). Preact escapes every text and attribute. The root carries
 * the language's direction, so text anchors (`start`, `end`) are logical and the chart reads the
 * same whatever page it is put in. Only presentation attributes and class names style it (the CSP
 * allows no inline styles): bars in colours of at least 3:1 against white, text of at least 4.5:1.
 * The image is one `role="img"` named by its `<title>` and `<desc>`; the same figures are offered
 * as a table by the page.
 *
 * @module
 */
import { CHART, type ChartModel } from "./daily_totals_chart.ts";

/** Ids of the title and description (one chart per page). */
export const CHART_TITLE_ID = "daily-totals-title";
export const CHART_DESC_ID = "daily-totals-desc";

/** Colours: bars per currency (1 = NIS, 2 = USD), text, axis and grid lines. */
export const CHART_COLORS = {
  bars: { 1: "#1d4ed8", 2: "#047857" },
  text: "#1f2937",
  axis: "#4b5563",
  grid: "#d1d5db",
} as const;

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

/** Rounds a coordinate to 0.1 unit, keeping the markup short. */
const r = (n: number) => Math.round(n * 10) / 10;

/**
 * The chart; `model` comes from `chartModel()`. `decorative`: hidden from assistive technology,
 * without title and description (the chart's waiting state, `skeletonModel()`).
 */
export function DailyTotalsChart({ model, decorative = false }: { model: ChartModel; decorative?: boolean }) {
  const { plot, rtl } = model;
  const named = decorative
    ? { "aria-hidden": "true" as const }
    : { role: "img" as const, "aria-labelledby": `${CHART_TITLE_ID} ${CHART_DESC_ID}` };
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${model.width} ${model.height}`}
      width="100%"
      {...named}
      class="daily-totals-chart"
      direction={rtl ? "rtl" : "ltr"}
      font-family={FONT}
      font-size="13"
    >
      {!decorative && <title id={CHART_TITLE_ID}>{model.title}</title>}
      {!decorative && <desc id={CHART_DESC_ID}>{model.description}</desc>}
      {model.empty !== null && (
        <g class="chart-empty">
          <rect
            x="0.5"
            y="0.5"
            width={model.width - 1}
            height={model.height - 1}
            fill="none"
            stroke={CHART_COLORS.grid}
          />
          <text
            x={model.width / 2}
            y={model.height / 2}
            text-anchor="middle"
            dominant-baseline="middle"
            fill={CHART_COLORS.text}
          >
            {model.empty}
          </text>
        </g>
      )}
      {model.panels.map((panel) => (
        <g class="chart-panel" transform={`translate(0 ${panel.top})`} key={panel.currency}>
          {/* A text per line: each is its own paragraph, right to left in Hebrew. */}
          <g class="chart-heading" font-weight="600" font-size={CHART.headingSize} fill={CHART_COLORS.text}>
            {panel.headingLines.map((line, i) => (
              <text
                key={i}
                x={rtl ? plot.right : plot.left}
                y={20 + i * CHART.headingLine}
                text-anchor="start"
              >
                {line}
              </text>
            ))}
          </g>
          <g class="chart-grid">
            {panel.ticks.map((tick) => (
              <g key={tick.y}>
                <line
                  x1={plot.left}
                  x2={plot.right}
                  y1={r(tick.y)}
                  y2={r(tick.y)}
                  stroke={tick.y === plot.bottom ? CHART_COLORS.axis : CHART_COLORS.grid}
                  stroke-width="1"
                />
                {tick.label && (
                  <text
                    x={model.tickX}
                    y={r(tick.y)}
                    text-anchor="end"
                    dominant-baseline="middle"
                    font-size="12"
                    fill={CHART_COLORS.text}
                  >
                    {tick.label}
                  </text>
                )}
              </g>
            ))}
          </g>
          <g class={`chart-bars chart-bars-${panel.currency}`} fill={CHART_COLORS.bars[panel.currency]}>
            {panel.bars.map((bar) => (
              <rect key={bar.x} x={r(bar.x)} y={r(bar.y)} width={r(bar.width)} height={r(bar.height)}>
                <title>{bar.label}</title>
              </rect>
            ))}
          </g>
          <g class="chart-dates" font-size={CHART.dateSize} fill={CHART_COLORS.text} text-anchor="middle">
            {panel.dates.map((date) => (
              <text key={date.x} x={r(date.x)} y={plot.bottom + 18}>{date.label}</text>
            ))}
          </g>
        </g>
      ))}
    </svg>
  );
}
