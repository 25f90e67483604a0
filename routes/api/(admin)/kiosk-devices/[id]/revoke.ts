import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readId } from "@/lib/http/validation.ts";
import { revokeKioskDevice } from "@/lib/kiosk/devices.ts";
import { KioskDeviceSchema } from "@/lib/kiosk/schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Revoke a kiosk device",
    description: "The device's credential and pairing code stop working at once, for good: the kiosk can " +
      "no longer start card sales. Revoking again changes nothing. The revocation is audited (`kiosk-revoked`).",
    tags: ["kiosks"],
    auth: "bearer",
    responses: {
      200: { description: "The device, revoked", schema: KioskDeviceSchema },
      403: { description: "The caller is not approved" },
      404: { description: "No such device" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: ADMINS } satisfies RouteRoles;

/** `POST /api/kiosk-devices/{id}/revoke` → the device, revoked (approved admins). */
export const handler = withRoles(roles, {
  async POST(_req, ctx) {
    const actor = signedInActor(ctx);
    const id = readId(ctx.params.id, "kiosk device");
    const device = await revokeKioskDevice(ctx.state.services.store, id, actor);
    ctx.state.log.info("kiosk device revoked", { deviceId: device.id, by: actor.admin.id });
    return Response.json(device);
  },
});
