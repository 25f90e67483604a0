import { useRef } from "preact/hooks";
import type { Selection } from "@/lib/shared/donation.ts";
import type { CurrencyName } from "@/lib/shared/money.ts";
import { resetForm, scrollToPayment, setSelection, useSelection } from "@/islands/shared/donation_state.ts";
import PeriodTabs, { type PeriodTexts } from "@/islands/shared/PeriodTabs.tsx";

/** One tier card (a membership level) as the server formats it, in the page's language. */
export interface TierCard {
  id: number;
  /** e.g. "Friend". */
  name: string;
  /** e.g. "$5". */
  dollars: string;
  /** e.g. "₪20". */
  nis: string;
  /** Its benefits, one line each. */
  benefits: string[];
  /** Whether it is offered as a monthly gift too (the monthly tab shows only those). */
  monthly: boolean;
}

/** The texts of the picker, translated on the server. */
export interface ChoiceTexts {
  legend: string;
  other: string;
  amount: string;
  currency: string;
  dollars: string;
  nis: string;
  goToDonate: string;
}

/**
 * The tier cards (the museum's membership levels: name, prices and benefits) and the 'Other amount'
 * card; a level not offered monthly is hidden while the monthly tab is on (by the stylesheet
 * without JavaScript). Each card is a radio button (`choice`), the
 * amount a number input and the currency two radios, so the form works without JavaScript. With
 * it, the rules of spec section 4 apply: a tier turns 'other' off, resets the payment form and
 * scrolls to it (focus moves to its heading); choosing the selected tier again deselects it;
 * turning 'other' on or off clears the amount and the tier. A tier reached with the arrow keys is
 * chosen without leaving the group, so a keyboard user can move through the tiers.
 */
export default function ContributionChoice(
  props: {
    initial: Selection;
    tiers: TierCard[];
    texts: ChoiceTexts;
    paymentHref: string;
    /** The one-time / monthly tabs above the cards, while monthly gifts are offered; else null. */
    periods: PeriodTexts | null;
  },
) {
  const sel = useSelection(props.initial);
  const { texts } = props;
  // Whether the last key pressed in the grid was an arrow (a radio group moves with arrows).
  const byArrow = useRef(false);
  const chooseTier = (id: number) => {
    if (sel.tier === id && !sel.other) {
      setSelection({ tier: null });
      return;
    }
    setSelection({ tier: id, other: false, otherAmount: "" });
    resetForm();
    if (!byArrow.current) scrollToPayment();
  };
  // Clicking an already-checked radio fires no change event, so its click deselects it. (No
  // preventDefault: a cancelled click would restore the checked state after our render.)
  const onTierClick = (id: number) => () => {
    if (sel.tier === id && !sel.other) setSelection({ tier: null });
  };
  const otherOn = () => {
    if (!sel.other) setSelection({ other: true, tier: null, otherAmount: "" });
  };
  const currencyOption = (currency: CurrencyName, label: string) => (
    <label class="switch-option">
      <input
        type="radio"
        name="otherCurrency"
        value={currency}
        checked={sel.otherCurrency === currency}
        onChange={() => setSelection({ otherCurrency: currency })}
      />
      <span>{label}</span>
    </label>
  );
  const choices = (
    <fieldset class="choices">
      <legend class="visually-hidden">{texts.legend}</legend>
      <div
        class="tier-grid"
        onKeyDown={(e) => byArrow.current = e.key.startsWith("Arrow")}
        onPointerDown={() => byArrow.current = false}
      >
        {props.tiers.map((tier) => {
          const checked = !sel.other && sel.tier === tier.id;
          const id = (part: string) => `tier-${tier.id}-${part}`;
          return (
            <label
              class="tier-card"
              key={tier.id}
              data-monthly={tier.monthly ? undefined : "false"}
              hidden={!tier.monthly && sel.period === "monthly" ? true : undefined}
            >
              {/* Named by its name and prices; its benefits are its description, not its name. */}
              <input
                type="radio"
                name="choice"
                value={`tier-${tier.id}`}
                checked={checked}
                aria-labelledby={`${id("name")} ${id("price")} ${id("price-alt")}`}
                aria-describedby={tier.benefits.length > 0 ? id("benefits") : undefined}
                onClick={onTierClick(tier.id)}
                onChange={() => chooseTier(tier.id)}
              />
              <span class="tier-name" id={id("name")}>{tier.name}</span>
              <span class="tier-price" id={id("price")}>{tier.dollars}</span>
              <span class="tier-price-alt" id={id("price-alt")}>{tier.nis}</span>
              {tier.benefits.length > 0 && (
                <span class="tier-benefits" id={id("benefits")}>
                  {tier.benefits.map((line, i) => <span class="tier-benefit" key={i}>{line}</span>)}
                </span>
              )}
            </label>
          );
        })}
        <div class={`tier-card other-card${sel.other ? " is-selected" : ""}`}>
          <label class="other-toggle">
            <input
              type="radio"
              name="choice"
              value="other"
              checked={sel.other}
              onClick={() => {
                if (sel.other) setSelection({ other: false, tier: null, otherAmount: "" });
              }}
              onChange={otherOn}
            />
            <span class="tier-name">{texts.other}</span>
          </label>
          <fieldset class="currency-switch">
            <legend class="visually-hidden">{texts.currency}</legend>
            {currencyOption("dollars", texts.dollars)}
            {currencyOption("nis", texts.nis)}
          </fieldset>
          <label class="other-amount">
            <span class="visually-hidden">{texts.amount}</span>
            <input
              type="number"
              name="otherAmount"
              inputMode="decimal"
              min="1"
              step="any"
              placeholder={texts.amount}
              value={sel.otherAmount}
              onFocus={otherOn}
              onInput={(e) => {
                const value = (e.currentTarget as HTMLInputElement).value;
                setSelection(
                  sel.other ? { otherAmount: value } : { other: true, tier: null, otherAmount: value },
                );
              }}
            />
          </label>
          <a
            class="button button-secondary"
            href={props.paymentHref}
            onClick={(e) => {
              e.preventDefault();
              otherOn();
              scrollToPayment();
            }}
          >
            {texts.goToDonate}
          </a>
        </div>
      </div>
    </fieldset>
  );
  return props.periods
    ? (
      <>
        <PeriodTabs initial={props.initial} {...props.periods} />
        {choices}
      </>
    )
    : choices;
}
