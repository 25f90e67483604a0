/**
 * The donor portal's views of what a session may do (issue 23, `lib/donor_portal/access.ts`): the page
 * an emailed link opens (a button, never a sign-in by GET; or the choice when the browser is signed
 * in as another address), the notice on a page opened by a manage link, and the step-up page that
 * emails a one-time sign-in link to the address on file. Plain forms: no JavaScript needed.
 *
 * @module
 */
import type { StepUpAction } from "@/lib/donor_portal/access.ts";
import type { TFunction } from "@/lib/core/i18n.ts";
import { PortalFrame, SignInForm, type SignInNotice } from "./DonorPortal.tsx";

/** Which link the page opens: a manage link (`/account/link`) or a one-time sign-in link. */
export type LinkKind = "manage" | "sign-in";

/** Where each link's button posts, and the name of its token's field. */
const LINK_FORM: Record<LinkKind, { path: string; field: string }> = {
  "manage": { path: "account/link", field: "token" },
  "sign-in": { path: "account/sign-in", field: "t" },
};

/**
 * An emailed link's page: who it is for and its button; or, when the browser is signed in as
 * another address (`current`), the choice: keep that session (a plain link to the account page),
 * or switch (the same button with `switch=1`).
 */
export function LinkPage(
  props: { t: TFunction; lang: string; kind: LinkKind; token: string; email: string; current: string | null },
) {
  const { t, lang, kind, current } = props;
  const form = LINK_FORM[kind];
  const email = <bdi dir="ltr">{props.email}</bdi>;
  return (
    <PortalFrame t={t}>
      {current === null
        ? (
          <p>
            {t(kind === "manage" ? "portalAccess.open.intro" : "portalAccess.signIn.intro")} {email}
          </p>
        )
        : (
          <>
            <p class="notice-info" role="status">
              {t("portalAccess.switch.intro", { current })}
            </p>
            <p>
              {t("portalAccess.switch.question")} {email}
            </p>
          </>
        )}
      <div class="result-actions">
        <form method="post" action={`/${lang}/${form.path}`}>
          <input type="hidden" name={form.field} value={props.token} />
          {current !== null && <input type="hidden" name="switch" value="1" />}
          <button type="submit" class="button button-primary">
            {current !== null
              ? t("portalAccess.switch.button")
              : t(kind === "manage" ? "portalAccess.open.button" : "account.email.button")}
          </button>
        </form>
        {current !== null && <a href={`/${lang}/account`}>{t("portalAccess.switch.keep", { current })}</a>}
      </div>
    </PortalFrame>
  );
}

/** An emailed link's page as {@link LinkPage} shows it: the token, its address, the browser's. */
export interface LinkView {
  token: string;
  email: string;
  current: string | null;
}

/** The answer to an emailed link: its page, or (`link` null) the sign-in form saying why not. */
export function LinkAnswer(
  props: { t: TFunction; lang: string; kind: LinkKind; link: LinkView | null; notice: SignInNotice },
) {
  const { t, lang, link } = props;
  return link
    ? <LinkPage t={t} lang={lang} kind={props.kind} {...link} />
    : <SignInForm t={t} lang={lang} email="" notice={props.notice} />;
}

/** The step-up form: one button, the address on file (never one the visitor types). */
function StepUpForm(props: { t: TFunction; lang: string; action: StepUpAction }) {
  return (
    <form method="post" action={`/${props.lang}/account/confirm`}>
      <input type="hidden" name="for" value={props.action} />
      <button type="submit" class="button">{props.t("portalAccess.stepUpButton")}</button>
    </form>
  );
}

/**
 * The notice above a page whose session may not do everything: a manage link's (it shows that
 * gift only) or a full sign-in older than an hour; each with the step-up button.
 */
export function AccessNotice(props: { t: TFunction; lang: string; kind: "manage" | "stale" | null }) {
  const { t, kind } = props;
  if (kind === null) return null;
  return (
    <div class="notice-info">
      <p>{t(kind === "manage" ? "portalAccess.manageNotice" : "portalAccess.staleNotice")}</p>
      <StepUpForm t={t} lang={props.lang} action="all" />
    </div>
  );
}

/** What the step-up page says after its button: sent (whatever happened), or too many asked. */
export type StepUpNotice = { kind: "sent"; email: string } | { kind: "rateLimited"; minutes: number };

/**
 * The step-up page (`/{lang}/account/confirm?for=…`): why this needs a fresh sign-in, where the
 * link will go, and the button; after it, that the link is on its way.
 */
export function StepUpPage(
  props: { t: TFunction; lang: string; action: StepUpAction; email: string; notice: StepUpNotice | null },
) {
  const { t, lang, notice } = props;
  return (
    <PortalFrame t={t}>
      <h2>{t("portalAccess.confirmTitle")}</h2>
      {notice?.kind === "sent" && (
        <p class="notice-success" role="status">{t("account.sent", { email: notice.email })}</p>
      )}
      {notice?.kind === "rateLimited" && (
        <p class="form-alert" role="alert">{t("account.rateLimited", { minutes: notice.minutes })}</p>
      )}
      <p>{t(`portalAccess.reason.${props.action}`)}</p>
      {notice?.kind !== "sent" && (
        <>
          <p>
            {t("portalAccess.confirmIntro")} <bdi dir="ltr">{props.email}</bdi>
          </p>
          <StepUpForm t={t} lang={lang} action={props.action} />
        </>
      )}
      <p>
        <a href={`/${lang}/account`}>{t("portalPrivacy.back")}</a>
      </p>
    </PortalFrame>
  );
}
