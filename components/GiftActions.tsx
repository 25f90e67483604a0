/**
 * The donor portal's forms for one active monthly gift (issue 15): its state (active, paused until a
 * date, next charge skipped), then change the amount, pause or skip, resume, and cancel with an
 * optional reason. Each is a plain `<form method="post">` to `/{lang}/account/gifts/{id}/{action}`
 * (`lib/donor_portal/gift_actions.ts`), inside a `<details>` so the page stays short: all of it works
 * without JavaScript. The amount form chooses nothing beforehand (the current amount is shown
 * above it): a donor who types another amount without choosing "another amount" gets what they
 * typed, not a tier left chosen. Also the notice a form leaves: its confirmation after the redirect, or its
 * refusal (shown beside the gift's forms, that form open and its field marked).
 *
 * @module
 */
import type { GiftAction, GiftNotice } from "@/lib/donor_portal/gift_actions.ts";
import type { MonthlyRow } from "@/lib/donor_portal/history.ts";
import type { TFunction } from "@/lib/core/i18n.ts";
import { CANCEL_REASONS, PAUSE_MONTHS } from "@/lib/monthly_gifts/subscription_changes.ts";
import { formatMoney } from "@/lib/shared/money.ts";

// Bound: one entry per site language (5).
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A charge date as the portal shows it (UTC, like the rest of the page). */
function giftDate(iso: string, lang: string): string {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
    dateFormats.set(lang, format);
  }
  return format.format(new Date(iso));
}

/** The error of `gift`'s forms, when the page answers one of them. */
function errorOf(notice: GiftNotice | null | undefined, giftId: string) {
  return notice?.kind === "error" && notice.giftId === giftId ? notice : null;
}

/**
 * The notice above the monthly gifts: a form's confirmation, or a refusal that concerns no gift on
 * the page (an unknown gift, one that has ended). Nothing otherwise.
 */
export function GiftNoticeBanner(
  props: { t: TFunction; notice: GiftNotice | null | undefined; monthly: MonthlyRow[] },
) {
  const { t, notice } = props;
  if (!notice) return null;
  if (notice.kind === "done") {
    return <p class="notice-success" role="status">{t(`portalGifts.done.${notice.action}`)}</p>;
  }
  if (props.monthly.some((m) => m.id === notice.giftId)) return null;
  return <p class="form-alert" role="alert">{t(`portalGifts.errors.${notice.key}`, notice.values ?? {})}</p>;
}

/** The gift's state in words. */
function GiftState(props: { t: TFunction; lang: string; gift: MonthlyRow }) {
  const { t, lang, gift } = props;
  const text = gift.pause === null
    ? t("portalGifts.stateActive")
    : gift.pause.periods === 1
    ? t("portalGifts.stateSkipped", {
      date: giftDate(gift.pause.from, lang),
      next: giftDate(gift.nextCharge, lang),
    })
    : t("portalGifts.statePaused", { date: giftDate(gift.nextCharge, lang) });
  return <p class="gift-state">{text}</p>;
}

/** The forms of one active monthly gift, with its state and the refusal of one of them, if any. */
export function GiftActions(
  props: { t: TFunction; lang: string; gift: MonthlyRow; notice?: GiftNotice | null },
) {
  const { t, lang, gift } = props;
  const error = errorOf(props.notice, gift.id);
  const base = `/${lang}/account/gifts/${encodeURIComponent(gift.id)}`;
  const id = (what: string) => `gift-${gift.id}-${what}`;
  const open = (action: GiftAction | GiftAction[]) =>
    error !== null && [action].flat().includes(error.action) ? true : undefined;
  const alert = error && (
    <p class="form-alert" role="alert" id={id("error")}>
      {t(`portalGifts.errors.${error.key}`, error.values ?? {})}
    </p>
  );
  const invalid = (field: string) =>
    error?.field === field ? { "aria-invalid": "true" as const, "aria-describedby": id("error") } : {};
  // The museum's levels offered monthly, priced in the gift's currency (minor units).
  const tiers = [...new Set(gift.amountChoices)];
  return (
    <div class="gift-actions">
      <GiftState t={t} lang={lang} gift={gift} />
      {alert}
      <details class="result-details" open={open("amount")}>
        <summary>{t("portalGifts.amountTitle")}</summary>
        <form method="post" action={`${base}/amount`} class="gift-form">
          <fieldset class="gift-amounts">
            <legend>{t("portalGifts.amountLegend")}</legend>
            {tiers.map((price) => (
              <label key={price} class="gift-choice">
                <input type="radio" name="amount" value={String(price / 100)} />
                {formatMoney(price, gift.currency, lang)}
              </label>
            ))}
            <label class="gift-choice">
              <input type="radio" name="amount" value="other" />
              {t("portalGifts.otherAmount")}
            </label>
            <div class="field">
              <label for={id("other")}>{t("portalGifts.otherAmountLabel")}</label>
              <input
                id={id("other")}
                name="otherAmount"
                inputMode="decimal"
                dir="ltr"
                maxLength={20}
                {...invalid("amount")}
              />
            </div>
          </fieldset>
          <button type="submit" class="button button-primary">{t("portalGifts.amountButton")}</button>
        </form>
      </details>
      <details class="result-details" open={open(["pause", "skip"])}>
        <summary>{t("portalGifts.pauseTitle")}</summary>
        <form method="post" action={`${base}/pause`} class="gift-form">
          <div class="field">
            <label for={id("months")}>{t("portalGifts.pauseLabel")}</label>
            <select id={id("months")} name="months" {...invalid("months")}>
              {PAUSE_MONTHS.map((n) => (
                <option key={n} value={String(n)}>{t(`portalGifts.months${n}`)}</option>
              ))}
            </select>
          </div>
          <button type="submit" class="button">{t("portalGifts.pauseButton")}</button>
        </form>
        <form method="post" action={`${base}/skip`} class="gift-form">
          <input type="hidden" name="period" value={gift.nextCharge} />
          <button type="submit" class="button">
            {t("portalGifts.skipButton", { date: giftDate(gift.nextCharge, lang) })}
          </button>
        </form>
      </details>
      {gift.pause !== null && (
        <form method="post" action={`${base}/resume`} class="gift-form">
          <button type="submit" class="button button-primary">{t("portalGifts.resumeButton")}</button>
        </form>
      )}
      <details class="result-details" open={open("cancel")}>
        <summary>{t("portalGifts.cancelTitle")}</summary>
        <form method="post" action={`${base}/cancel`} class="gift-form">
          <div class="field">
            <label for={id("reason")}>{t("portalGifts.reasonLabel")}</label>
            <select id={id("reason")} name="reason" {...invalid("reason")}>
              <option value="">{t("portalGifts.reasonNone")}</option>
              {CANCEL_REASONS.map((r) => <option key={r} value={r}>{t(`portalGifts.reasons.${r}`)}</option>)}
            </select>
          </div>
          <button type="submit" class="button button-cancel">{t("portalGifts.cancelButton")}</button>
        </form>
      </details>
    </div>
  );
}
