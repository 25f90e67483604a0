/**
 * A membership's automatic renewal as the donor portal and the turn-off page show it (issue 27,
 * items 5 and 7): on (the card, the amount and the date of the next charge) or off, and the plain
 * form that turns it off (no JavaScript).
 *
 * @module
 */
import type { TFunction } from "i18next";
import { membershipDate, type NextAutoRenewal } from "@/lib/memberships/mod.ts";
import { isLang, type Lang } from "@/lib/shared/languages.ts";
import { formatMoney } from "@/lib/shared/money.ts";

/** The sentence saying what will be charged, to which card, when. */
export function autoRenewSentence(t: TFunction, lang: string, next: NextAutoRenewal): string {
  const l: Lang = isLang(lang) ? lang : "en";
  const vars = {
    date: membershipDate(next.date, l),
    amount: next.amount === null ? "" : formatMoney(next.amount, next.currency, l),
    last4: next.last4 ?? "",
  };
  return t(
    next.last4 ? "membershipAutoRenew.portal.onDetail" : "membershipAutoRenew.portal.onDetailNoCard",
    vars,
  );
}

/** The portal's panel: on or off, and the form that turns it off (posting `turn=off` to `action`). */
export function AutoRenewStatus(props: {
  t: TFunction;
  lang: string;
  next: NextAutoRenewal | null;
  /** Where the form posts; the turn-on link opens the donation page at this level. */
  action: string;
  levelId: number;
  turnedOff: boolean;
}) {
  const { t, lang, next } = props;
  return (
    <section class="auto-renew" aria-labelledby="auto-renew-title">
      <h3 id="auto-renew-title">
        {t("membershipAutoRenew.portal.title")}:{" "}
        <span class={next ? "auto-renew-on" : "auto-renew-off"}>
          {t(next ? "membershipAutoRenew.portal.on" : "membershipAutoRenew.portal.off")}
        </span>
      </h3>
      {props.turnedOff && (
        <p class="notice-success" role="status">{t("membershipAutoRenew.portal.turnedOff")}</p>
      )}
      {next
        ? (
          <form method="post" action={props.action}>
            <p>{autoRenewSentence(t, lang, next)}</p>
            <input type="hidden" name="turn" value="off" />
            <button type="submit" class="button">{t("membershipAutoRenew.portal.turnOff")}</button>
          </form>
        )
        : (
          <>
            <p>{t("membershipAutoRenew.portal.offDetail")}</p>
            <p>
              <a class="button" href={`/${lang}/?level=${props.levelId}&autoRenew=1`}>
                {t("membershipAutoRenew.portal.turnOn")}
              </a>
            </p>
          </>
        )}
    </section>
  );
}
