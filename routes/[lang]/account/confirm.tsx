import { type StepUpNotice, StepUpPage } from "@/components/DonorAccess.tsx";
import { isStepUpAction, steppedUp, type StepUpAction } from "@/lib/donor_portal/access.ts";
import { currentSession, requestSignIn, signInKey } from "@/lib/donor_portal/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/app/state.ts";
import { formOf, seeOther } from "./_access.ts";

/** What the page shows: why, where the link goes, and what its button did. */
interface Data {
  action: StepUpAction;
  email: string;
  notice: StepUpNotice | null;
}

/** The action a request names (`for`, in the query or the form); `all` when none or another. */
const actionOf = (value: string | null): StepUpAction => isStepUpAction(value) ? value : "all";

/**
 * `/{lang}/account/confirm?for=…`: the step-up page (`lib/donor_portal/access.ts`), where a session that
 * may not do something (a manage link's, or a full sign-in older than an hour) is sent. GET says why
 * and shows one button; its POST (same-origin, checked by `_middleware.ts`; no JavaScript) emails a
 * one-time sign-in link to the session's own address, the address on file (an address in the form
 * is never read), counted by the sign-in links' limits (429 with `Retry-After` beyond them), and the
 * page says it is on its way. Signed out: the sign-in form (303); a session that may already do it:
 * the account page (303).
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const { services, lang } = ctx.state;
    const session = await currentSession(services.store, readSessionCookie(req));
    if (!session || steppedUp(session)) return seeOther(`/${lang}/account`);
    return ctx.render(
      { action: actionOf(ctx.url.searchParams.get("for")), email: session.email, notice: null },
      { headers: { "cache-control": "no-store" } },
    );
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    const form = await formOf(req);
    const session = await currentSession(services.store, readSessionCookie(req));
    if (!session) return seeOther(`/${lang}/account`);
    const action = actionOf(form.get("for"));
    const answer = await requestSignIn(
      { store: services.store, key: await signInKey(services.config.appSecret) },
      { email: session.email, lang, address: clientAddress(ctx.hono, services.config.trustProxy) },
    );
    log.info("donor step-up link asked for", { outcome: answer.outcome, scope: session.scope });
    if (answer.outcome === "rate-limited") {
      const minutes = Math.max(1, Math.ceil(answer.retryAfterMs / 60_000));
      return ctx.render({ action, email: session.email, notice: { kind: "rateLimited", minutes } }, {
        status: 429,
        headers: {
          "retry-after": String(Math.ceil(answer.retryAfterMs / 1000)),
          "cache-control": "no-store",
        },
      });
    }
    return ctx.render({ action, email: session.email, notice: { kind: "sent", email: session.email } }, {
      headers: { "cache-control": "no-store" },
    });
  },
};

/** The step-up page. */
export default function ConfirmPage({ state, data }: PageProps<Data, AppState>) {
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <StepUpPage
        t={state.t}
        lang={state.lang}
        action={data.action}
        email={data.email}
        notice={data.notice}
      />
    </>
  );
}
