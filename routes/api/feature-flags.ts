import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

export { featureFlagsDocs as docs } from "@/lib/settings/api_docs.ts";

/**
 * `GET /api/feature-flags`: every flag from storage, as the spec's list of items each with a
 * field `flag`, plus whether it is on: `[{ "flag": "MONTHLY_PAYMENT", "enabled": true }, …]`.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const flags = await ctx.state.services.store.flags.list();
    return Response.json(flags.map(({ flag, enabled }) => ({ flag, enabled })), {
      headers: { "cache-control": "no-store" },
    });
  },
};
