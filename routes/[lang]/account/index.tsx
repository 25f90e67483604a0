import { DonorHistoryView, SignedIn, SignInForm, type SignInNotice } from "@/components/DonorPortal.tsx";
import { mailAddress } from "@/lib/config_mail.ts";
import { giftDoneNotice, type GiftNotice } from "@/lib/account/gift_actions.ts";
import { PrivacySection } from "@/components/DonorPrivacy.tsx";
import { cardNoticeOf, CardUpdateNotice } from "@/components/CardUpdate.tsx";
import { type DonorHistory, donorHistory } from "@/lib/account/history.ts";
import { currentSession, requestSignIn, signInByManageToken, signInKey } from "@/lib/account/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/donor_cookie.ts";
import { manageLinkKey } from "@/lib/manage_link.ts";
import { isEmail } from "@/lib/shared/donation.ts";
import type { AppState } from "@/lib/state.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";

/** What the page shows. */
export type AccountPageData =
  | { kind: "form"; email: string; notice: SignInNotice | null }
  | { kind: "account"; email: string; history: DonorHistory; notice?: GiftNotice | null };

/**
 * `/{lang}/account`: the donor portal (issue 15). Signed out, a form asks for an email address; its
 * POST (no JavaScript needed; same-origin, checked by `_middleware.ts`) answers the same page
 * whether or not the address has donations (`lib/account/sign_in.ts`), 400 for a malformed address
 * and 429 when the client or the address asked too often. Signed in (the `donor_session` cookie),
 * the donor's page. `?token=` (a valid manage link from any donor email) signs its donor in and
 * redirects here without it (every donor email's manage link is this address); an invalid or
 * expired one shows the form, saying the link no longer works. `?done=<action>` is where a monthly
 * gift's form (`gifts/[id]/[action].tsx`) redirects: the page confirms the change.
 */
export const handler: Handlers<AccountPageData, AppState> = {
  async GET(req, ctx) {
    const { services, lang } = ctx.state;
    const token = ctx.url.searchParams.get("token");
    if (token) {
      const manageKey = await manageLinkKey(services.config.appSecret);
      const signed = await signInByManageToken({ store: services.store, manageKey }, token.trim());
      if (signed) {
        ctx.state.log.info("donor signed in by manage link");
        return new Response(null, {
          status: 303,
          headers: {
            location: `/${lang}/account`,
            "set-cookie": sessionCookie(signed.token, signed.session.expiresAt, services.config),
            "cache-control": "no-store",
          },
        });
      }
    }
    const session = await currentSession(services.store, readSessionCookie(req));
    if (session) {
      const history = await donorHistory(services.store, services.config.appSecret, session.email, lang);
      const notice = giftDoneNotice(ctx.url);
      return ctx.render({ kind: "account", email: session.email, history, notice }, {
        headers: { "cache-control": "no-store" },
      });
    }
    // A manage link that signed nobody in (expired, cut, changed): say so above the form.
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
  if (data.kind === "account") {
    return (
      <>
        {head}
        <SignedIn t={t} lang={lang} email={data.email}>
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
