import { ADMINS, type RouteRoles } from "@/lib/auth/roles.ts";
import { withRoles } from "@/lib/http/admin_auth.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { readId } from "@/lib/http/validation.ts";
import { revokeKioskDevice } from "@/lib/kiosk/devices.ts";
import { KioskDeviceSchema } from "@/lib/kiosk/schemas.ts";
import type { RouteDocs } from "@/lib/openapi.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Revoke a kiosk device",
    description: "The device's credential and pairing code stop working at once, for good: the kiosk can " +
      "no longer start card sales. Revoking again changes nothing.",
    tags: ["kiosks"],
    auth: "bearer",
    responses: {
      200: { description: "The device, revoked", schema: KioskDeviceSchema },
      403: { description: "The caller is not approved" },
      404: { description: "No such device" },
    },
  },
};

/** Who may call it (`lib/auth/roles.ts`). */
export const roles = { POST: ADMINS } satisfies RouteRoles;

/** `POST /api/kiosk-devices/{id}/revoke` → the device, revoked (approved admins). */
export const handler = withRoles(roles, {
  async POST(_req, ctx) {
    const admin = signedInAdmin(ctx.state);
    const device = await revokeKioskDevice(ctx.state.services.store, readId(ctx.params.id, "kiosk device"));
    ctx.state.log.info("kiosk device revoked", { deviceId: device.id, by: admin.id });
    return Response.json(device);
  },
});
