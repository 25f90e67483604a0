import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/` goes to the visitor's language: the `lng` query parameter, then the saved choice (cookie),
 * then the browser's languages, then English. Other query parameters are kept.
 */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    const params = new URLSearchParams(ctx.url.search);
    params.delete("lng");
    const query = params.size > 0 ? `?${params}` : "";
    return new Response(null, {
      status: 302,
      headers: {
        location: `/${ctx.state.lang}/${query}`,
        vary: "Accept-Language, Cookie",
        "cache-control": "no-store",
      },
    });
  },
};
