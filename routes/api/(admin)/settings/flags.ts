import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { FlagChangeSchema } from "@/lib/settings/schemas.ts";
import { changeFlag, flagSettings } from "@/lib/settings/settings.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";

export { settingsFlagsDocs as docs } from "@/lib/settings/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: OWNERS, POST: OWNERS } satisfies RouteRoles;

/** `GET /api/settings/flags` → the flags; `POST` `{ flag, enabled }` → switched (owners). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(await flagSettings(ctx.state.services.store), {
      headers: { "cache-control": "no-store" },
    });
  },
  async POST(req, ctx) {
    const { flag, enabled } = await readJson(req, FlagChangeSchema);
    const actor = signedInActor(ctx);
    const { store, config } = ctx.state.services;
    return Response.json(await changeFlag(store, actor, flag, enabled, config.enforcedFeatures));
  },
});
