import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readId } from "@/lib/http/validation.ts";
import { revokeKioskDevice } from "@/lib/kiosk/devices.ts";

export { revokeKioskDeviceDocs as docs } from "@/lib/kiosk/api_docs.ts";

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
