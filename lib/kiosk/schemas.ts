/**
 * The kiosk devices API's request and answer schemas (`routes/api/kiosk-devices/`), which both
 * validate requests and document them in OpenAPI, beside the kiosk concept as every concept's are.
 *
 * @module
 */
import { z } from "zod";

const languageField = z.enum(["en", "he", "ru", "pt", "es"], {
  error: "language must be en, he, ru, pt or es",
}).describe("The language of the pairing link's page (default en)");

/** `POST /api/kiosk-devices`. */
export const CreateKioskDeviceSchema = z.object({
  name: z.string({ error: "name must be a string" }).trim()
    .min(1, "name is required")
    .max(60, "name must be at most 60 characters"),
  shopNumber: z.string({ error: "shopNumber must be a string" })
    .max(32, "shopNumber must be 1 to 32 letters, digits, _ or -")
    .regex(/^[A-Za-z0-9_-]{1,32}$/, "shopNumber must be 1 to 32 letters, digits, _ or -"),
  language: languageField.optional(),
}).meta({ id: "CreateKioskDevice" });

/** `POST /api/kiosk-devices/{id}/pairing-code`: an optional body. */
export const PairingCodeRequestSchema = z.object({
  language: languageField.optional(),
}).meta({ id: "PairingCodeRequest" });

/** A device as the back office lists it (no secrets, no hashes). */
/** `GET /api/kiosk-devices` query. */
export const KioskListQuerySchema = z.object({
  unseen: z.enum(["true", "false"], { error: "unseen must be true or false" }).optional()
    .transform((s) => s === "true").describe(
      "true: only the paired, unrevoked kiosks with no sale or pairing for 24 hours",
    ),
});

export const KioskDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  shopNumber: z.string(),
  terminalId: z.string(),
  createdAt: z.string(),
  paired: z.boolean().describe("Whether a kiosk holds its credential"),
  pairedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe("Its last sale or pairing (written at most once a minute)"),
  revokedAt: z.string().nullable(),
  pairingExpiresAt: z.string().nullable().describe("When its current pairing code stops working"),
}).meta({ id: "KioskDevice" });

/** A pairing code, answered once. */
export const PairingCodeSchema = z.object({
  code: z.string().describe("XXXX-XXXX-XXXX; works once, for 15 minutes"),
  expiresAt: z.string(),
  url: z.string().describe("The pairing link to open on the kiosk (it carries the code)"),
}).meta({ id: "PairingCode" });

/** What creating a device answers. */
export const CreatedKioskDeviceSchema = z.object({
  device: KioskDeviceSchema,
  pairing: PairingCodeSchema,
}).meta({ id: "CreatedKioskDevice" });
