import { donorDataExport } from "@/lib/donor_portal/data_export.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { steppedUpSession } from "./_access.ts";

/**
 * `/{lang}/account/data`: the signed-in donor's personal data as a JSON file
 * (`lib/donor_portal/data_export.ts`): an attachment, never cached. Signed out: back to the sign-in
 * form (303); signed in by a manage link or more than an hour ago: the step-up page (303).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(req, ctx) {
    const { services, log } = ctx.state;
    const session = await steppedUpSession(req, ctx.state, "data");
    if (session instanceof Response) return session;
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
