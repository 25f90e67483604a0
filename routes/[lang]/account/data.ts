import { donorDataExport } from "@/lib/account/data_export.ts";
import { currentSession } from "@/lib/account/sign_in.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * `/{lang}/account/data`: the signed-in donor's personal data as a JSON file
 * (`lib/account/data_export.ts`): an attachment, never cached. Signed out: back to the sign-in
 * form (303).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(req, ctx) {
    const { services, lang, log } = ctx.state;
    const session = await currentSession(services.store, readSessionCookie(req));
    if (!session) {
      return new Response(null, {
        status: 303,
        headers: { location: `/${lang}/account`, "cache-control": "no-store" },
      });
    }
    const data = await donorDataExport(services.store, session.email);
    log.info("donor downloaded their data");
    return new Response(JSON.stringify(data, null, 2), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="my-donor-data-${data.exportedAt.slice(0, 10)}.json"`,
        "cache-control": "no-store",
        "x-robots-tag": "noindex",
      },
    });
  },
};
