import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { HttpError, readId, validate } from "@/lib/http/validation.ts";
import { renewPairingCode } from "@/lib/kiosk/devices.ts";
import { PairingCodeRequestSchema, PairingCodeSchema } from "@/lib/kiosk/schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { withLink } from "@/routes/api/(admin)/kiosk-devices/_pairing.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "A new pairing code for a kiosk device",
    description:
      "Answers a new one-time pairing code and link (15 minutes; the earlier code stops working). " +
      "Pairing with it replaces the device's credential: the kiosk that held it is no longer paired. " +
      "Audited (`kiosk-paired`).",
    tags: ["kiosks"],
    auth: "bearer",
    body: PairingCodeRequestSchema,
    responses: {
      200: { description: "The pairing code", schema: PairingCodeSchema },
      403: { description: "The caller is not approved" },
      404: { description: "No such device" },
      409: { description: "The device was revoked" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: ADMINS } satisfies RouteRoles;

/** `POST /api/kiosk-devices/{id}/pairing-code` → a new pairing code (approved admins). */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const actor = signedInActor(ctx);
    const id = readId(ctx.params.id, "kiosk device");
    // The body is optional (it only names the link's language).
    const text = await req.text();
    let raw: unknown = {};
    try {
      if (text.trim() !== "") raw = JSON.parse(text);
    } catch {
      throw new HttpError(400, "The request body is not valid JSON");
    }
    const body = validate(PairingCodeRequestSchema, raw);
    const pairing = await renewPairingCode(ctx.state.services.store, id, actor);
    ctx.state.log.info("kiosk pairing code issued", { deviceId: id, by: actor.admin.id });
    return Response.json(withLink(pairing, ctx.state, ctx.url, body.language));
  },
});
