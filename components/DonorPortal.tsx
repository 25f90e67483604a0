/**
 * The donor portal's views (`/{lang}/account`, issue 15): the sign-in form (an email address, no
 * password, no JavaScript) and the signed-in page: the donor's active monthly gifts and every gift
 * with its receipt's PDF link. An emailed link's page and the step-up page are `DonorAccess.tsx`'s.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { GiftNotice } from "@/lib/donor_portal/gift_actions.ts";
import type { DonorHistory } from "@/lib/donor_portal/history.ts";
import type { TFunction } from "@/lib/core/i18n.ts";
import { portalDate } from "@/lib/shared/format.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { GiftActions, GiftNoticeBanner } from "./GiftActions.tsx";
import { PageTitle } from "./PageTitle.tsx";
import { CardLockNote, CardUpdateForm } from "./CardUpdate.tsx";

/** What the sign-in form says above it. */
export type SignInNotice =
  | { kind: "sent"; email: string }
  | { kind: "invalidEmail" }
  | { kind: "rateLimited"; minutes: number }
  | { kind: "linkRefused" }
  | { kind: "manageLinkRefused" }
  | { kind: "linkRateLimited"; minutes: number }
  | { kind: "signedOut" };

/** The portal's page frame: its title and content. */
export function PortalFrame(props: { t: TFunction; children: ComponentChildren }) {
  return (
    <section class="cancel account">
      <PageTitle title={props.t("account.title")} siteName={props.t("meta.siteName")} />
      {props.children}
    </section>
  );
}

/** The form asking for an email address (and, after a POST, the answer). */
export function SignInForm(
  props: { t: TFunction; lang: string; email: string; notice: SignInNotice | null },
) {
  const { t, notice } = props;
  const invalid = notice?.kind === "invalidEmail";
  return (
    <PortalFrame t={t}>
      {notice?.kind === "sent" && (
        <p class="notice-success" role="status">
          {t("account.sent", { email: notice.email })}
        </p>
      )}
      {notice?.kind === "signedOut" && <p class="notice-success" role="status">{t("account.signedOut")}</p>}
      {notice?.kind === "rateLimited" && (
        <p class="form-alert" role="alert">{t("account.rateLimited", { minutes: notice.minutes })}</p>
      )}
      {notice?.kind === "linkRefused" && <p class="form-alert" role="alert">{t("account.linkRefused")}</p>}
      {notice?.kind === "manageLinkRefused" && (
        <p class="form-alert" role="alert">{t("portalGifts.manageLinkRefused")}</p>
      )}
      {notice?.kind === "linkRateLimited" && (
        <p class="form-alert" role="alert">{t("portalAccess.rateLimited", { minutes: notice.minutes })}</p>
      )}
      <p>{t("account.intro")}</p>
      {invalid && <p class="form-alert" role="alert" id="account-email-error">{t("account.invalidEmail")}</p>}
      <form method="post" action={`/${props.lang}/account`}>
        <div class="field">
          <label for="account-email">{t("account.emailLabel")}</label>
          <input
            id="account-email"
            name="email"
            type="email"
            dir="ltr"
            required
            maxLength={254}
            autoComplete="email"
            value={props.email}
            aria-invalid={invalid ? "true" : undefined}
            aria-describedby={invalid ? "account-email-error" : undefined}
          />
        </div>
        <button type="submit" class="button button-primary">{t("account.submit")}</button>
      </form>
    </PortalFrame>
  );
}

/** The signed-in header: who, and the sign-out form. */
export function SignedIn(props: { t: TFunction; lang: string; email: string; children?: ComponentChildren }) {
  const { t } = props;
  return (
    <PortalFrame t={t}>
      <p>
        {t("account.signedInAs")} <bdi dir="ltr">{props.email}</bdi>
      </p>
      {props.children}
      <form method="post" action={`/${props.lang}/account/sign-out`}>
        <button type="submit" class="button">{t("account.signOut")}</button>
      </form>
    </PortalFrame>
  );
}

/** Below the receipts of a page that masks the ID number: how to download them with it. */
export function TaxIdMaskedNote(props: { t: TFunction; lang: string }) {
  return (
    <p>
      {props.t("portalAccess.taxIdMasked")}{" "}
      <a href={`/${props.lang}/account/confirm?for=taxId`}>{props.t("portalAccess.taxIdLink")}</a>
    </p>
  );
}

/**
 * The signed-in donor's gifts and active monthly gifts (with their forms, and a form's notice).
 * `contact` is the museum's address a donor writes to (a gift whose card updates are locked says it).
 */
export function DonorHistoryView(
  props: { t: TFunction; lang: string; history: DonorHistory; contact: string; notice?: GiftNotice | null },
) {
  const { t, lang, history } = props;
  const money = (amount: number | null, currency: 1 | 2 | null) =>
    amount !== null && currency !== null ? formatMoney(amount, currency, lang) : t("common.notAvailable");
  return (
    <>
      <section class="user-info" aria-labelledby="account-monthly-title">
        <h2 id="account-monthly-title">{t("account.monthlyTitle")}</h2>
        <GiftNoticeBanner t={t} notice={props.notice} monthly={history.monthly} />
        {history.monthly.length === 0 ? <p>{t("account.noMonthly")}</p> : (
          <ul class="monthly-list">
            {history.monthly.map((m) => (
              <li key={m.id}>
                <dl class="details-list">
                  <div>
                    <dt>{t("account.amount")}</dt>
                    <dd>{formatMoney(m.amount, m.currency, lang)}</dd>
                  </div>
                  <div>
                    <dt>{t("account.nextCharge")}</dt>
                    <dd>{portalDate(m.nextCharge, lang)}</dd>
                  </div>
                  <div>
                    <dt>{t("account.card")}</dt>
                    <dd>
                      {m.card
                        ? t("account.cardLine", {
                          brand: m.card.brand ?? t("account.card"),
                          last4: m.card.last4,
                        })
                        : t("account.cardUnknown")}
                    </dd>
                  </div>
                </dl>
                <GiftActions t={t} lang={lang} gift={m} notice={props.notice} />
                {m.cardLockedUntil
                  ? <CardLockNote t={t} lang={lang} until={m.cardLockedUntil} contact={props.contact} />
                  : (
                    <CardUpdateForm
                      t={t}
                      lang={lang}
                      subscriptionId={m.id}
                      amount={m.amount}
                      currency={m.currency}
                    />
                  )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="user-info" aria-labelledby="account-gifts-title">
        <h2 id="account-gifts-title">{t("account.giftsTitle")}</h2>
        {history.gifts.length === 0 ? <p>{t("account.noGifts")}</p> : (
          <table class="gift-table">
            <thead>
              <tr>
                <th scope="col">{t("account.date")}</th>
                <th scope="col">{t("account.amount")}</th>
                <th scope="col">{t("account.type")}</th>
                <th scope="col">{t("account.status")}</th>
                <th scope="col">{t("account.receipt")}</th>
              </tr>
            </thead>
            <tbody>
              {history.gifts.map((g, i) => (
                <tr key={i}>
                  <td>{portalDate(g.date, lang)}</td>
                  <td>{money(g.amount, g.currency)}</td>
                  <td>{t(g.monthly ? "account.monthly" : "account.oneTime")}</td>
                  <td>{t(g.status === "success" ? "account.statusSuccess" : "account.statusFailed")}</td>
                  <td>
                    {g.receipt
                      ? (
                        <a href={g.receipt.href} download>
                          {t("account.receiptLink", { number: g.receipt.number })}
                        </a>
                      )
                      : t("account.noReceipt")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {history.taxIdMasked && <TaxIdMaskedNote t={t} lang={lang} />}
      </section>
    </>
  );
}
