import type { Period, Selection } from "@/lib/shared/donation.ts";
import { setSelection, useSelection } from "@/islands/shared/donation_state.ts";

/**
 * The one-time / monthly switch: two radio buttons styled as tabs, so the form works without
 * JavaScript; with it, switching the period clears the tier and the other amount (spec section 4).
 * Rendered only while the MONTHLY_PAYMENT flag is on.
 */
export default function PeriodTabs(
  props: { initial: Selection; legend: string; oneTime: string; monthly: string },
) {
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
