import type { Period, Selection } from "@/lib/shared/donation.ts";
import { setSelection, useSelection } from "./donation_state.ts";

/** The texts of the period tabs, translated on the server. */
export interface PeriodTexts {
  legend: string;
  oneTime: string;
  monthly: string;
}

/**
 * The one-time / monthly switch: two radio buttons styled as tabs, so the form works without
 * JavaScript; with it, switching the period clears the tier and the other amount (spec section 4).
 * Rendered only while the MONTHLY_PAYMENT flag is on, by the contribution picker's island (it was
 * an island of its own: one more file for the page to load, issue 29).
 */
export default function PeriodTabs(props: { initial: Selection } & PeriodTexts) {
  const sel = useSelection(props.initial);
  const choose = (period: Period) => {
    if (period !== sel.period) setSelection({ period, tier: null, otherAmount: "" });
  };
  const option = (period: Period, label: string) => (
    <label class="tab">
      <input
        type="radio"
        name="period"
        value={period}
        checked={sel.period === period}
        onChange={() => choose(period)}
      />
      <span>{label}</span>
    </label>
  );
  return (
    <fieldset class="period-tabs">
      <legend class="visually-hidden">{props.legend}</legend>
      {option("one-time", props.oneTime)}
      {option("monthly", props.monthly)}
    </fieldset>
  );
}
