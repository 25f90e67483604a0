/**
 * The donor portal's views (`/{lang}/account`, issue 15): the sign-in form (an email address, no
 * password, no JavaScript), the sign-in link's confirmation, and the signed-in page.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { TFunction } from "../lib/i18n.ts";
import { PageTitle } from "./PageTitle.tsx";

/** What the sign-in form says above it. */
export type SignInNotice =
  | { kind: "sent"; email: string }
  | { kind: "invalidEmail" }
  | { kind: "rateLimited"; minutes: number }
  | { kind: "linkRefused" }
  | { kind: "signedOut" };

function Frame(props: { t: TFunction; children: ComponentChildren }) {
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
    <Frame t={t}>
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
    </Frame>
  );
}

/**
 * The sign-in link's page: a button that signs in (a POST), so a mail scanner that opens the link
 * does not use it up.
 */
export function SignInConfirm(props: { t: TFunction; lang: string; token: string }) {
  const { t } = props;
  return (
    <Frame t={t}>
      <form method="post" action={`/${props.lang}/account/sign-in`}>
        <input type="hidden" name="t" value={props.token} />
        <button type="submit" class="button button-primary">{t("account.email.button")}</button>
      </form>
    </Frame>
  );
}

/** The signed-in header: who, and the sign-out form. */
export function SignedIn(props: { t: TFunction; lang: string; email: string; children?: ComponentChildren }) {
  const { t } = props;
  return (
    <Frame t={t}>
      <p>
        {t("account.signedInAs")} <bdi dir="ltr">{props.email}</bdi>
      </p>
      {props.children}
      <form method="post" action={`/${props.lang}/account/sign-out`}>
        <button type="submit" class="button">{t("account.signOut")}</button>
      </form>
    </Frame>
  );
}
