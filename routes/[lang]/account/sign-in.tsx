import { LinkAnswer, type LinkView } from "@/components/DonorAccess.tsx";
import { currentSession, signIn, signInKey, viewSignIn } from "@/lib/donor_portal/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { readSessionCookie, sessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/app/state.ts";
import { formOf } from "./_access.ts";

/**
 * What the page shows: the sign-in button (with the choice when the browser is signed in as
 * `current`, another address), or (`null`) the refusal, with the form to ask again.
 */
type Data = LinkView | null;

/** Status of a refused link: a tampered or malformed one (400), or a used or expired one (410). */
const REFUSED_STATUS = { invalid: 400, unknown: 400, used: 410, expired: 410 } as const;

/**
 * `/{lang}/account/sign-in?t=…`: the emailed link. GET reads only: it shows the address the link
 * signs in as and a button (a mail scanner opening the link does not use it up, and another site
 * cannot sign a browser in by linking here), or, when the browser is signed in as another address,
 * the choice: keep that session, or switch. The button's POST (same-origin, checked by
 * `_middleware.ts`; no JavaScript) uses the link (once, within 30 minutes), sets a full session's
 * cookie, ends the browser's previous session, and goes to `/{lang}/account`; signed in as another
 * address without `switch=1`, it uses nothing and shows the choice again (409). A used, expired or
 * tampered link gets a translated refusal and the form.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const { services } = ctx.state;
    const token = (ctx.url.searchParams.get("t") ?? "").trim().slice(0, 200);
    const key = await signInKey(services.config.appSecret);
    const current = await currentSession(services.store, readSessionCookie(req));
    const view = await viewSignIn({ store: services.store, key }, token, current);
    if (view.kind === "refused") {
      return ctx.render(null, { status: REFUSED_STATUS[view.reason] });
    }
    return ctx.render(
      { token, email: view.email, current: view.kind === "choose" ? view.current : null },
      { headers: { "cache-control": "no-store" } },
    );
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    const form = await formOf(req);
    const token = (form.get("t") ?? "").trim().slice(0, 200);
    const key = await signInKey(services.config.appSecret);
    const current = await currentSession(services.store, readSessionCookie(req));
    const result = await signIn({ store: services.store, key }, token, {
      current,
      switchTo: form.get("switch") === "1",
    });
    if (!result.ok && result.reason === "choose") {
      return ctx.render({ token, email: result.email, current: result.current }, {
        status: 409,
        headers: { "cache-control": "no-store" },
      });
    }
    if (!result.ok) {
      log.warn("donor sign-in refused", { reason: result.reason });
      return ctx.render(null, { status: REFUSED_STATUS[result.reason] });
    }
    log.info("donor signed in");
    return new Response(null, {
      status: 303,
      headers: {
        location: `/${lang}/account`,
        "set-cookie": sessionCookie(result.token, result.session.expiresAt, services.config),
        "cache-control": "no-store",
      },
    });
  },
};

/** The sign-in link's page. */
export default function SignInPage({ state, data }: PageProps<Data, AppState>) {
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <LinkAnswer t={state.t} lang={state.lang} kind="sign-in" link={data} notice={{ kind: "linkRefused" }} />
    </>
  );
}
