import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { FlagChangeSchema, SettingsFlagsSchema } from "@/lib/settings/schemas.ts";
import { changeFlag, flagSettings } from "@/lib/settings/settings.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The feature flags, for the settings",
    description: "Every flag the product knows, whether it is on and when it last changed.",
    tags: ["settings"],
    auth: "bearer",
    responses: {
      200: { description: "The flags", schema: SettingsFlagsSchema },
      403: { description: "The caller is not an owner" },
    },
  },
  POST: {
    summary: "Switch a feature flag",
    description: "Sets `MONTHLY_PAYMENT` or `TEST_TERMINAL_PAYMENT` on or off, audited (`flag-changed`, " +
      "from/to) in the same write; the same value again changes nothing. Every instance sees the change " +
      "within about a second (pages) or at once (the API and payments).",
    tags: ["settings"],
    auth: "bearer",
    body: FlagChangeSchema,
    responses: {
      200: { description: "The flags after the change", schema: SettingsFlagsSchema },
      400: { description: "An unknown flag or a value that is not true or false" },
      403: { description: "The caller is not an owner" },
      409: {
        description: "Someone else changed the flag at the same moment (reload and try again), or the " +
          "server's configuration holds it (test terminals in production without FEATURE_TEST_TERMINAL_PAYMENT)",
      },
    },
  },
};

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
