import { LinkAnswer, type LinkView } from "@/components/DonorAccess.tsx";
import type { SignInNotice } from "@/components/DonorPortal.tsx";
import { openManageLink } from "@/lib/donor_portal/link_sign_in.ts";
import { currentSession } from "@/lib/donor_portal/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/donor_cookie.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import type { AppState } from "@/lib/app/state.ts";
import { formOf, seeOther } from "./_access.ts";

/** What the page shows: the choice again (`link`), or the form with why the link opened nothing. */
type Data = { link: LinkView | null; notice: SignInNotice };

/**
 * `POST /{lang}/account/link`: the button of a manage link's page (`/{lang}/account?token=…`;
 * same-origin only, checked by `_middleware.ts`, so another site cannot sign a browser in; no
 * JavaScript needed). Fields: `token`, and `switch=1` when the donor chose to leave the session of
 * another address (`lib/donor_portal/link_sign_in.ts`). Opened: a `manage` session's cookie and 303 to
 * the account page; the session already reaching the gift: 303 there, nothing new; signed in as
 * another address without `switch`: the choice again (409); too many sign-ins by this link or from
 * this client: the sign-in form saying so (429, `Retry-After`); a link that opens nothing: the
 * sign-in form saying so (400 changed or cut, 410 expired or its gift gone). GET: the account page.
 */
export const handler: Handlers<Data, AppState> = {
  GET(_req, ctx) {
    return seeOther(`/${ctx.state.lang}/account`);
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    const form = await formOf(req);
    const token = (form.get("token") ?? "").trim().slice(0, 200);
    const opened = await openManageLink(
      { store: services.store, manageKey: await manageLinkKey(services.config.appSecret) },
      {
        token,
        address: clientAddress(ctx.hono, services.config.trustProxy),
        current: await currentSession(services.store, readSessionCookie(req)),
        switchTo: form.get("switch") === "1",
      },
    );
    log.info("manage link opened", { outcome: opened.kind });
    const noStore = { "cache-control": "no-store" };
    switch (opened.kind) {
      case "signed-in": {
        const cookie = sessionCookie(opened.token, opened.session.expiresAt, services.config);
        return new Response(null, {
          status: 303,
          headers: { location: `/${lang}/account`, "set-cookie": cookie, ...noStore },
        });
      }
      case "covered":
        return seeOther(`/${lang}/account`);
      case "choose": {
        const link = { token, email: opened.email, current: opened.current };
        return ctx.render({ link, notice: { kind: "manageLinkRefused" } }, { status: 409, headers: noStore });
      }
      case "rate-limited": {
        const minutes = Math.max(1, Math.ceil(opened.retryAfterMs / 60_000));
        const retryAfter = String(Math.ceil(opened.retryAfterMs / 1000));
        return ctx.render({ link: null, notice: { kind: "linkRateLimited", minutes } }, {
          status: 429,
          headers: { "retry-after": retryAfter, ...noStore },
        });
      }
      case "refused":
        return ctx.render({ link: null, notice: { kind: "manageLinkRefused" } }, {
          status: opened.reason === "invalid" ? 400 : 410,
        });
    }
  },
};

/** The choice, or the sign-in form with the refusal. */
export default function ManageLinkPage({ state, data }: PageProps<Data, AppState>) {
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <LinkAnswer t={state.t} lang={state.lang} kind="manage" link={data.link} notice={data.notice} />
    </>
  );
}
