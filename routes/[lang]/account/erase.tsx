import { EraseConfirm, EraseDone } from "@/components/DonorPrivacy.tsx";
import {
  eraseDonorData,
  ErasureNotConfirmedError,
  ErasureUnfinishedError,
} from "@/lib/donor_portal/erasure.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { clearedSessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/app/state.ts";
import { steppedUpSession } from "./_access.ts";

/** What the page shows. */
type Data = { kind: "confirm"; email: string; notConfirmed: boolean; unfinished?: boolean } | {
  kind: "done";
};

/**
 * `/{lang}/account/erase`: erasure at the donor's request (`lib/donor_portal/erasure.ts`). GET shows
 * what erasure does and a form whose box must be ticked; its POST (same-origin, checked by
 * `_middleware.ts`; no JavaScript needed) cancels the address's monthly gifts, erases its personal
 * data, ends every session of the address, clears the cookie and goes to `?done` (a translated confirmation).
 * Unticked: the form again with a translated error, 400. Records still being created under the
 * address after every sweep (`ErasureUnfinishedError`): the form again saying so, 409, the session
 * kept so the donor can finish. Signed out: the sign-in form (303); signed in by a manage link or
 * more than an hour ago: the step-up page (303), for both.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    if (ctx.url.searchParams.has("done")) {
      return ctx.render({ kind: "done" }, { headers: { "cache-control": "no-store" } });
    }
    const session = await steppedUpSession(req, ctx.state, "erase");
    if (session instanceof Response) return session;
    return ctx.render({ kind: "confirm", email: session.email, notConfirmed: false }, {
      headers: { "cache-control": "no-store" },
    });
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    const session = await steppedUpSession(req, ctx.state, "erase");
    let confirmation: unknown = null;
    try {
      confirmation = (await req.formData()).get("confirm");
    } catch { /* an unreadable form is no confirmation */ }
    if (session instanceof Response) return session;
    try {
      const report = await eraseDonorData(services.store, session.email, confirmation);
      log.info("donor data erased at the donor's request", { ...report });
    } catch (error) {
      if (error instanceof ErasureUnfinishedError) {
        log.warn("donor data erasure unfinished: records keep appearing", { ...error.report });
        return ctx.render({ kind: "confirm", email: session.email, notConfirmed: false, unfinished: true }, {
          status: 409,
          headers: { "cache-control": "no-store" },
        });
      }
      if (!(error instanceof ErasureNotConfirmedError)) throw error;
      return ctx.render({ kind: "confirm", email: session.email, notConfirmed: true }, {
        status: 400,
        headers: { "cache-control": "no-store" },
      });
    }
    return new Response(null, {
      status: 303,
      headers: {
        location: `/${lang}/account/erase?done`,
        "set-cookie": clearedSessionCookie(services.config),
        "cache-control": "no-store",
      },
    });
  },
};

/** The erasure's pages. */
export default function ErasePage({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      {data.kind === "done" ? <EraseDone t={t} /> : (
        <EraseConfirm
          t={t}
          lang={lang}
          email={data.email}
          notConfirmed={data.notConfirmed}
          unfinished={data.unfinished}
        />
      )}
    </>
  );
}
