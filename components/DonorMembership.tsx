/**
 * The donor portal's membership page (issue 27): the membership's level, state, valid-until date
 * and number, a card per cardholder (PDF and picture, and "Add to Apple Wallet" when the museum has
 * set its pass certificates), "renew now", and for a level covering more than one person the form
 * naming the cardholders. Plain links and a plain form: no JavaScript.
 *
 * @module
 */
import type { TFunction } from "i18next";
import { membershipDate, type NextAutoRenewal } from "@/lib/memberships/mod.ts";
import { AutoRenewStatus } from "./AutoRenewStatus.tsx";
import type { PortalMembership } from "@/lib/donor_portal/mod.ts";
import { isLang, type Lang } from "@/lib/shared/languages.ts";

/** What the page says after a form: saved, or the names refused. */
export type MembershipNotice = "saved" | "invalid" | "autoRenewOff" | null;

/** The membership page's body. */
export function MembershipView(props: {
  t: TFunction;
  lang: string;
  membership: PortalMembership | null;
  /** The names the cards carry, in order. */
  names: string[];
  /** Whether this session may change the cardholders (else the form links to the step-up page). */
  mayName: boolean;
  /** Whether the cards come as Apple Wallet passes too (the museum set its pass certificates). */
  wallet: boolean;
  notice: MembershipNotice;
  /** The next automatic renewal charge, null while it is off. */
  autoRenew: NextAutoRenewal | null;
}) {
  const { t, lang, membership, names } = props;
  const back = (
    <p>
      <a href={`/${lang}/account`}>{t("portalMembership.back")}</a>
    </p>
  );
  if (!membership) {
    return (
      <section class="user-info membership" aria-labelledby="membership-title">
        <h2 id="membership-title">{t("portalMembership.title")}</h2>
        <p>{t("portalMembership.none")}</p>
        <p>
          <a href={`/${lang}/`}>{t("portalMembership.noneLink")}</a>
        </p>
        {back}
      </section>
    );
  }
  const l: Lang = isLang(lang) ? lang : "en";
  const date = (iso: string) => membershipDate(iso, l);
  const covers = membership.level?.cardholders ?? 1;
  const level = membership.level?.name[l] ?? "";
  return (
    <section class="user-info membership" aria-labelledby="membership-title">
      <h2 id="membership-title">{t("portalMembership.title")}</h2>
      {props.notice === "saved" && <p class="notice-success" role="status">{t("portalMembership.saved")}</p>}
      {props.notice === "invalid" && <p class="form-alert" role="alert">{t("portalMembership.invalid")}</p>}
      <dl class="details-list">
        <dt>{t("portalMembership.level")}</dt>
        <dd>{level}</dd>
        <dt>{t("portalMembership.state")}</dt>
        <dd>{t(`portalMembership.states.${membership.state}`)}</dd>
        <dt>{t("portalMembership.validUntil")}</dt>
        <dd>{date(membership.validUntil)}</dd>
        <dt>{t("portalMembership.number")}</dt>
        <dd>
          <bdi dir="ltr">{membership.membership.number}</bdi>
        </dd>
      </dl>
      {membership.state === "grace" && (
        <p>
          {t("portalMembership.graceNote", {
            date: date(membership.validUntil),
            grace: date(membership.graceUntil),
          })}
        </p>
      )}
      {membership.state === "lapsed" && (
        <p>{t("portalMembership.lapsedNote", { date: date(membership.validUntil) })}</p>
      )}
      <p>
        <a class="button button-primary" href={`/${lang}/?level=${membership.levelId}`}>
          {t("portalMembership.renew")}
        </a>
      </p>
      <AutoRenewStatus
        t={t}
        lang={lang}
        next={props.autoRenew}
        action={`/${lang}/account/membership`}
        levelId={membership.levelId}
        turnedOff={props.notice === "autoRenewOff"}
      />
      {names.length > 0 && (
        <>
          <h3>{t("portalMembership.cards")}</h3>
          <ul class="membership-cards">
            {names.map((name, i) => (
              <li key={i}>
                <strong>{t("portalMembership.cardFor", { name })}</strong>
                <br />
                <a href={`/${lang}/account/membership/card.pdf?holder=${i + 1}`}>
                  {t("portalMembership.pdfFor", { name })}
                </a>
                <br />
                <a href={`/${lang}/account/membership/card.png?holder=${i + 1}`}>
                  {t("portalMembership.pngFor", { name })}
                </a>
                {props.wallet && (
                  <>
                    <br />
                    <a
                      class="wallet-badge"
                      href={`/${lang}/account/membership/wallet.pkpass?holder=${i + 1}`}
                      aria-label={t("walletPass.addFor", { name })}
                    >
                      {t("walletPass.add")}
                    </a>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {covers > 1 && <CardholdersForm {...props} covers={covers} level={level} />}
      {back}
    </section>
  );
}

function CardholdersForm(
  props: { t: TFunction; lang: string; names: string[]; mayName: boolean; covers: number; level: string },
) {
  const { t, lang } = props;
  return (
    <>
      <h3 id="cardholders-title">{t("portalMembership.cardholders")}</h3>
      <p>{t("portalMembership.cardholdersHint", { level: props.level, count: props.covers })}</p>
      {props.mayName
        ? (
          <form method="post" action={`/${lang}/account/membership`} aria-labelledby="cardholders-title">
            {Array.from({ length: props.covers }, (_, i) => (
              <div class="field" key={i}>
                <label for={`holder${i + 1}`}>{t("portalMembership.cardholder", { n: i + 1 })}</label>
                <input
                  id={`holder${i + 1}`}
                  name={`holder${i + 1}`}
                  type="text"
                  maxLength={100}
                  autocomplete="off"
                  value={props.names[i] ?? ""}
                />
              </div>
            ))}
            <button type="submit" class="button">{t("portalMembership.save")}</button>
          </form>
        )
        : (
          <form method="post" action={`/${lang}/account/confirm`}>
            <input type="hidden" name="for" value="cardholders" />
            <p>{t("portalMembership.signInToChange")}</p>
            <button type="submit" class="button">{t("portalAccess.stepUpButton")}</button>
          </form>
        )}
    </>
  );
}
