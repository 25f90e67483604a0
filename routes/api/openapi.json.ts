import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of the API routes, built once by the app
 * (`lib/app/api_docs.ts`) on the first request that asks for it.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    return new Response(await ctx.state.apiDocs.json(), {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
    });
  },
};
