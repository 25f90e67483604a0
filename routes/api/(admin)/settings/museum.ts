import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { changeMuseumSettings, readMuseumSettings } from "@/lib/museum/mod.ts";
import { MuseumSettingsChangeSchema } from "@/lib/museum/schemas.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";

export { museumSettingsDocs as docs } from "@/lib/museum/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: OWNERS, PUT: OWNERS } satisfies RouteRoles;

/** `GET /api/settings/museum` → the museum's name and levels; `PUT` the whole of them (owners). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(await readMuseumSettings(ctx.state.services.store), {
      headers: { "cache-control": "no-store" },
    });
  },
  async PUT(req, ctx) {
    const change = await readJson(req, MuseumSettingsChangeSchema);
    const { store, config } = ctx.state.services;
    const saved = await changeMuseumSettings(store, signedInActor(ctx), change, {
      maxAmount: config.payments.maxAmount,
    });
    return Response.json(saved, { headers: { "cache-control": "no-store" } });
  },
});
