import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/donor?email=…`: where the donor's view was before the back office had sections
 * (issue 26). Moved for good to `/{lang}/admin/donors`, the query kept, so bookmarks and shared
 * links still open it.
 */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    return new Response(null, {
      status: 301,
      headers: { location: `/${ctx.state.lang}/admin/donors${ctx.url.search}` },
    });
  },
};
