import { DESK, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readJson, readQuery } from "@/lib/http/validation.ts";
import { isLang } from "@/lib/shared/languages.ts";
import { checkIn, visitsOfDay } from "@/lib/visits/mod.ts";
import { CheckInBodySchema, VisitListQuerySchema } from "@/lib/visits/schemas.ts";

export { visitsDocs as docs } from "@/lib/visits/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): the front desk, admins, owners. */
export const roles = { GET: DESK, POST: DESK } satisfies RouteRoles;

const noStore = { "cache-control": "no-store" };

/** `GET /api/visits?day&limit&cursor&lang` → a day's visits; `POST /api/visits` → a visit recorded. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const query = readQuery(ctx.url, VisitListQuerySchema);
    const page = await visitsOfDay(store, { ...query, timeZone: config.museumTimeZone }, new Date());
    return Response.json(page, { headers: noStore });
  },
  async POST(req, ctx) {
    const { store, config } = ctx.state.services;
    const body = await readJson(req, CheckInBodySchema);
    const asked = ctx.url.searchParams.get("lang") ?? "en";
    const lang = isLang(asked) ? asked : "en";
    const actor = signedInActor(ctx);
    const answer = await checkIn(
      { store, graceDays: config.memberships.graceDays },
      body,
      actor,
      new Date(),
      lang,
    );
    ctx.state.log.info("visit", { kind: answer.visit.kind, by: actor.admin.id, repeated: answer.repeated });
    return Response.json(answer, { status: answer.repeated ? 200 : 201, headers: noStore });
  },
});
