import { SignInConfirm, SignInForm } from "@/components/DonorPortal.tsx";
import { isSignedToken, signIn, signInKey } from "@/lib/account/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { sessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/state.ts";

/** What the page shows: the sign-in button, or the refusal (with the form to ask again). */
type Data = { kind: "confirm"; token: string } | { kind: "refused" };

/** Status of a refused link: a tampered or malformed one (400), or a used or expired one (410). */
const REFUSED_STATUS = { invalid: 400, unknown: 400, used: 410, expired: 410 } as const;

/**
 * `/{lang}/account/sign-in?t=…`: the emailed link. GET checks the token's signature only and shows
 * a sign-in button (a mail scanner opening the link does not use it up); the button's POST (no
 * JavaScript) uses the link (once, within 30 minutes), sets the session cookie and goes to
 * `/{lang}/account`. A used, expired or tampered link gets a translated refusal and the form.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const token = (ctx.url.searchParams.get("t") ?? "").trim().slice(0, 200);
    const key = await signInKey(ctx.state.services.config.appSecret);
    if (!(await isSignedToken(key, token))) return ctx.render({ kind: "refused" }, { status: 400 });
    return ctx.render({ kind: "confirm", token });
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    let token = "";
    try {
      const value = (await req.formData()).get("t");
      token = typeof value === "string" ? value.trim().slice(0, 200) : "";
    } catch { /* an unreadable form is a missing token */ }
    const key = await signInKey(services.config.appSecret);
    const result = await signIn({ store: services.store, key }, token);
    if (!result.ok) {
      log.warn("donor sign-in refused", { reason: result.reason });
      return ctx.render({ kind: "refused" }, { status: REFUSED_STATUS[result.reason] });
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
  const { t, lang } = state;
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      {data.kind === "confirm"
        ? <SignInConfirm t={t} lang={lang} token={data.token} />
        : <SignInForm t={t} lang={lang} email="" notice={{ kind: "linkRefused" }} />}
    </>
  );
}
