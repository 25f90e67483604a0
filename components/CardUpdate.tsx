/**
 * The donor portal's card update (issue 15): the "Update card" button of each active monthly gift
 * (a plain form: a POST that sends the browser to the provider's page in tokenization mode, no
 * JavaScript needed) and the notice the account page shows when the donor comes back.
 *
 * @module
 */
import type { TFunction } from "@/lib/core/i18n.ts";
import { portalDate } from "@/lib/shared/format.ts";
import { formatMoney } from "@/lib/shared/money.ts";

/** What a card update came to, as the account page's `?card=` names it. */
export const CARD_NOTICES = [
  "applied",
  "declined",
  "cancelled",
  "pending",
  "unavailable",
  "ended",
  "notFound",
  "otherProvider",
  "tooMany",
  "busy",
  "declines",
] as const;
export type CardNotice = typeof CARD_NOTICES[number];

/** The notice named by `url`'s `card` parameter, or null. */
export function cardNoticeOf(url: URL): CardNotice | null {
  const value = url.searchParams.get("card");
  return (CARD_NOTICES as readonly string[]).includes(value ?? "") ? value as CardNotice : null;
}

/** The notice of a card update: a status for good news, an alert otherwise. */
export function CardUpdateNotice(props: { t: TFunction; notice: CardNotice | null; minutes?: number }) {
  const { t, notice } = props;
  if (!notice) return null;
  if (notice === "applied") {
    return <p class="notice-success" role="status">{t("portalCard.applied")}</p>;
  }
  return <p class="form-alert" role="alert">{t(`portalCard.${notice}`, { minutes: props.minutes ?? 60 })}</p>;
}

/**
 * A gift's card updates are locked after declined cards (`lib/monthly_gifts/card_update_limits.ts`):
 * until when, that the gift keeps its card, and the museum's address to write to, as a link. An
 * alert where it answers the donor's press of the button; a plain note in the gift's place.
 */
export function CardLockNote(
  props: { t: TFunction; lang: string; until: string; contact: string; alert?: boolean },
) {
  const { t } = props;
  // The address becomes a link: the sentence is cut where the translation puts it.
  const [before, after = ""] = t("portalCard.locked", {
    date: portalDate(props.until, props.lang),
    contact: "\u0000",
  }).split("\u0000");
  return (
    <p class="card-locked" role={props.alert ? "alert" : undefined}>
      {before}
      <a href={`mailto:${props.contact}`} dir="ltr">{props.contact}</a>
      {after}
    </p>
  );
}

/** The "Update card" button of one monthly gift. */
export function CardUpdateForm(
  props: { t: TFunction; lang: string; subscriptionId: string; amount: number; currency: 1 | 2 },
) {
  const { t, lang } = props;
  const hintId = `card-hint-${props.subscriptionId}`;
  return (
    <form method="post" action={`/${lang}/account/card/${encodeURIComponent(props.subscriptionId)}`}>
      <p id={hintId} class="field-hint">{t("portalCard.hint")}</p>
      <button
        type="submit"
        class="button"
        aria-label={t("portalCard.buttonFor", { amount: formatMoney(props.amount, props.currency, lang) })}
        aria-describedby={hintId}
      >
        {t("portalCard.button")}
      </button>
    </form>
  );
}
