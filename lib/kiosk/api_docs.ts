/**
 * The kiosk devices' API operations as the OpenAPI document describes them: one export per route, which the
 * route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import {
  CreatedKioskDeviceSchema,
  CreateKioskDeviceSchema,
  KioskDeviceSchema,
  KioskListQuerySchema,
  PairingCodeRequestSchema,
  PairingCodeSchema,
} from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/kiosk-devices`, `POST /api/kiosk-devices`. */
export const kioskDevicesDocs: RouteDocs = {
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

/** `POST /api/kiosk-devices/{id}/pairing-code`. */
export const pairingCodeDocs: RouteDocs = {
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

/** `POST /api/kiosk-devices/{id}/revoke`. */
export const revokeKioskDeviceDocs: RouteDocs = {
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
