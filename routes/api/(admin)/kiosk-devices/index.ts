import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { z } from "zod";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readJson, readQuery } from "@/lib/http/validation.ts";
import { createKioskDevice, listKioskDevices } from "@/lib/kiosk/devices.ts";
import {
  CreatedKioskDeviceSchema,
  CreateKioskDeviceSchema,
  KioskDeviceSchema,
  KioskListQuerySchema,
} from "@/lib/kiosk/schemas.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { withLink } from "./_pairing.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Kiosk devices",
    description: "Every kiosk device, newest first: paired or not, last use, revoked or not. " +
      "`unseen=true` keeps the paired, unrevoked ones with no sale or pairing for 24 hours, longest " +
      "unseen first (the overview's link).",
    tags: ["kiosks"],
    auth: "bearer",
    query: KioskListQuerySchema,
    responses: {
      200: { description: "The devices", schema: z.array(KioskDeviceSchema) },
      403: { description: "The caller is not approved" },
    },
  },
  POST: {
    summary: "Create a kiosk device",
    description: "Registers a kiosk for a shop with a card terminal (TERMINALS; any shop on the sandbox) " +
      "and answers its one-time pairing code and link, once: open the link on the kiosk (or enter the code " +
      "at /{lang}/kiosk-pair) within 15 minutes. Only a paired kiosk may start card sales for its shop. " +
      "Audited (`kiosk-paired`).",
    tags: ["kiosks"],
    auth: "bearer",
    body: CreateKioskDeviceSchema,
    responses: {
      201: { description: "The device and its pairing code", schema: CreatedKioskDeviceSchema },
      400: { description: "Invalid input, or no terminal is configured for the shop" },
      403: { description: "The caller is not approved" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS, POST: ADMINS } satisfies RouteRoles;

/** `GET /api/kiosk-devices` → devices; `POST` → a new device and its pairing code (approved admins). */
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
