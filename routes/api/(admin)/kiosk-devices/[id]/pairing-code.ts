import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { HttpError, readId, validate } from "@/lib/http/validation.ts";
import { renewPairingCode } from "@/lib/kiosk/devices.ts";
import { PairingCodeRequestSchema } from "@/lib/kiosk/schemas.ts";
import { withLink } from "@/routes/api/(admin)/kiosk-devices/_pairing.ts";

export { pairingCodeDocs as docs } from "@/lib/kiosk/api_docs.ts";

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
