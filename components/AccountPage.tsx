import AccountForm from "@/islands/AccountForm.tsx";
import type { TFunction } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { PageTitle } from "./PageTitle.tsx";

/** Every key the account form may show: labels, rules, busy states and the error catalogue. */
const FORM_KEYS = [
  "login.email",
  "login.password",
  "login.showPassword",
  "login.hidePassword",
  "login.submit",
  "login.signingIn",
  "login.noAccount",
  "login.registerLink",
  "login.emailRequired",
  "login.emailInvalid",
  "login.passwordRequired",
  "login.passwordMinLength",
  "login.passwordMaxLength",
  "login.invalidEmailOrPassword",
  "login.notApproved",
  "register.name",
  "register.confirm",
  "register.showConfirm",
  "register.hideConfirm",
  "register.submit",
  "register.creating",
  "register.haveAccount",
  "register.loginLink",
  "register.nameRequired",
  "register.nameMinLength",
  "register.nameMaxLength",
  "register.confirmRequired",
  "register.passwordsDoNotMatch",
  "register.passwordRejected",
  "register.emailTaken",
  "register.closed",
  "apiErrors.invalidCredentials",
  "apiErrors.invalidData",
  "apiErrors.checkInput",
  "apiErrors.server",
  "apiErrors.network",
  "apiErrors.unexpected",
  "apiErrors.invalidResponse",
  "apiErrors.tooManyAttempts",
  "auth.busy",
  "auth.tooManyRegistrations",
  // The code step of a sign-in with two-factor (`islands/shared/SecondFactorStep.tsx`).
  "twoFactor.stepTitle",
  "twoFactor.stepIntro",
  "twoFactor.codeLabel",
  "twoFactor.codeHint",
  "twoFactor.codeRequired",
  "twoFactor.verify",
  "twoFactor.verifying",
  "twoFactor.wrongCode",
  "twoFactor.expired",
  "twoFactor.startOver",
];

/**
 * The sign-in or register page: its title, the form island with its texts translated here, and a
 * note for browsers without JavaScript (the session lives in local storage, spec section 3).
 */
export function AccountPage(props: { lang: Lang; t: TFunction; mode: "login" | "register" }) {
  const { t, mode } = props;
  const texts = Object.fromEntries(FORM_KEYS.map((key) => [key, t(key)]));
  return (
    <section class="account">
      <PageTitle
        title={t(mode === "login" ? "login.heading" : "register.heading")}
        siteName={t("meta.siteName")}
      />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AccountForm lang={props.lang} mode={mode} texts={texts} />
    </section>
  );
}
