import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readJson, readQuery } from "@/lib/http/validation.ts";
import { createKioskDevice, listKioskDevices } from "@/lib/kiosk/devices.ts";
import { CreateKioskDeviceSchema, KioskListQuerySchema } from "@/lib/kiosk/schemas.ts";
import { withLink } from "./_pairing.ts";

export { kioskDevicesDocs as docs } from "@/lib/kiosk/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS, POST: ADMINS } satisfies RouteRoles;

/** `GET /api/kiosk-devices?unseen` → devices; `POST` → a new device and its pairing code (approved admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { unseen } = readQuery(ctx.url, KioskListQuerySchema);
    return Response.json(await listKioskDevices(ctx.state.services.store, { unseen }));
  },
  async POST(req, ctx) {
    const actor = signedInActor(ctx);
    const admin = actor.admin;
    const body = await readJson(req, CreateKioskDeviceSchema);
    const { services } = ctx.state;
    const { device, pairing } = await createKioskDevice(services.store, services.config, actor, body);
    ctx.state.log.info("kiosk device created", {
      deviceId: device.id,
      shop: device.shopNumber,
      by: admin.id,
    });
    return Response.json({ device, pairing: withLink(pairing, ctx.state, ctx.url, body.language) }, {
      status: 201,
    });
  },
});
