import { AccessNotice, LinkPage, type LinkView } from "@/components/DonorAccess.tsx";
import { DonorHistoryView, SignedIn, SignInForm, type SignInNotice } from "@/components/DonorPortal.tsx";
import { mailAddress } from "@/lib/outbox/config.ts";
import { giftDoneNotice, type GiftNotice } from "@/lib/donor_portal/gift_actions.ts";
import { PrivacySection } from "@/components/DonorPrivacy.tsx";
import { cardNoticeOf, CardUpdateNotice } from "@/components/CardUpdate.tsx";
import { sessionHistory, sessionLimit } from "@/lib/donor_portal/access.ts";
import type { DonorHistory } from "@/lib/donor_portal/history.ts";
import { viewManageLink } from "@/lib/donor_portal/link_sign_in.ts";
import { currentSession, requestSignIn, signInKey } from "@/lib/donor_portal/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { isEmail } from "@/lib/shared/donation.ts";
import type { AppState } from "@/lib/app/state.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";

/** What the page shows. */
export type AccountPageData =
  | { kind: "form"; email: string; notice: SignInNotice | null }
  /** A manage link's page: its button, or the choice when signed in as `current`. */
  | { kind: "link" } & LinkView
  | {
    kind: "account";
    email: string;
    history: DonorHistory;
    notice?: GiftNotice | null;
    limit: "manage" | "stale" | null;
  };

/**
 * `/{lang}/account`: the donor portal (issue 15). Signed out, a form asks for an email address; its
 * POST (no JavaScript needed; same-origin, checked by `_middleware.ts`) answers the same page
 * whether or not the address has donations (`lib/donor_portal/sign_in.ts`), 400 for a malformed address
 * and 429 when the client or the address asked too often. Signed in (the `donor_session` cookie),
 * the donor's page: the records the session reaches, and what it may not do
 * (`lib/donor_portal/access.ts`). `?token=` (the manage link of every donor email) signs nobody in: it
 * shows the link's button (`link.tsx` takes its POST), or the choice when the browser is signed in
 * as another address, or, when the session already reaches the link's gift, redirects here
 * without it; an invalid or expired link shows the form, saying the link no longer works.
 * `?done=<action>` is where a monthly gift's form (`gifts/[id]/[action].tsx`) redirects: the page
 * confirms the change.
 */
export const handler: Handlers<AccountPageData, AppState> = {
  async GET(req, ctx) {
    const { services, lang } = ctx.state;
    const token = ctx.url.searchParams.get("token")?.trim().slice(0, 200);
    const session = await currentSession(services.store, readSessionCookie(req));
    const noStore = { headers: { "cache-control": "no-store" } };
    if (token) {
      const manageKey = await manageLinkKey(services.config.appSecret);
      const view = await viewManageLink({ store: services.store, manageKey }, token, session);
      if (view.kind === "covered") {
        return new Response(null, {
          status: 303,
          headers: { location: `/${lang}/account`, ...noStore.headers },
        });
      }
      if (view.kind !== "refused") {
        const current = view.kind === "choose" ? view.current : null;
        return ctx.render({ kind: "link", token, email: view.email, current }, noStore);
      }
    }
    if (session) {
      const history = await sessionHistory(services.store, services.config.appSecret, session, lang);
      const notice = giftDoneNotice(ctx.url);
      return ctx.render(
        { kind: "account", email: session.email, history, notice, limit: sessionLimit(session) },
        noStore,
      );
    }
    // A manage link that opens nothing (expired, cut, changed): say so above the form.
    const notice: SignInNotice | null = token
      ? { kind: "manageLinkRefused" }
      : ctx.url.searchParams.has("signedOut")
      ? { kind: "signedOut" }
      : null;
    return ctx.render({ kind: "form", email: "", notice });
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    let raw = "";
    try {
      const value = (await req.formData()).get("email");
      raw = typeof value === "string" ? value.slice(0, 1000) : "";
    } catch { /* an unreadable form is a missing address */ }
    const email = normalizeEmail(raw);
    if (!isEmail(email)) {
      return ctx.render({ kind: "form", email: raw.trim(), notice: { kind: "invalidEmail" } }, {
        status: 400,
      });
    }
    const answer = await requestSignIn(
      {
        store: services.store,
        key: await signInKey(services.config.appSecret),
      },
      { email, lang, address: clientAddress(ctx.hono, services.config.trustProxy) },
    );
    log.info("donor sign-in link asked for", { outcome: answer.outcome }); // never the address
    if (answer.outcome === "rate-limited") {
      const minutes = Math.max(1, Math.ceil(answer.retryAfterMs / 60_000));
      return ctx.render({ kind: "form", email, notice: { kind: "rateLimited", minutes } }, {
        status: 429,
        headers: { "retry-after": String(Math.ceil(answer.retryAfterMs / 1000)) },
      });
    }
    return ctx.render({ kind: "form", email: "", notice: { kind: "sent", email } });
  },
};

/** The donor portal's page. */
export default function AccountPage({ state, data, url }: PageProps<AccountPageData, AppState>) {
  const { t, lang } = state;
  const head = (
    <Head>
      <meta name="robots" content="noindex" />
    </Head>
  );
  if (data.kind === "link") {
    return (
      <>
        {head}
        <LinkPage
          t={t}
          lang={lang}
          kind="manage"
          token={data.token}
          email={data.email}
          current={data.current}
        />
      </>
    );
  }
  if (data.kind === "account") {
    return (
      <>
        {head}
        <SignedIn t={t} lang={lang} email={data.email}>
          <AccessNotice t={t} lang={lang} kind={data.limit} />
          <p>
            <a href={`/${lang}/account/membership`}>{t("portalMembership.link")}</a>
          </p>
          <CardUpdateNotice t={t} notice={cardNoticeOf(url)} />
          <DonorHistoryView
            t={t}
            lang={lang}
            history={data.history}
            notice={data.notice}
            contact={mailAddress(state.services.config.mail.from)}
          />
          <PrivacySection t={t} lang={lang} receiptYears={data.history.receiptYears} />
        </SignedIn>
      </>
    );
  }
  return (
    <>
      {head}
      <SignInForm t={t} lang={lang} email={data.email} notice={data.notice} />
    </>
  );
}
