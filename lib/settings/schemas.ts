/**
 * The flags' API payloads: `GET /api/feature-flags`'s answer, and the back office's flag switch
 * (`GET`/`POST /api/settings/flags`, answered by `settings.ts`).
 *
 * @module
 */
import { z } from "zod";
import { FLAG_NAMES } from "./flags.ts";

/** Every flag and whether it is on. */
export const FeatureFlagsSchema = z.array(z.object({ flag: z.string(), enabled: z.boolean() })).meta({
  id: "FeatureFlags",
});

/** `POST /api/settings/flags` body. */
export const FlagChangeSchema = z.object({
  flag: z.enum(FLAG_NAMES, { error: `flag must be one of ${FLAG_NAMES.join(", ")}` }),
  enabled: z.boolean({ error: "enabled must be true or false" }),
});

/** `GET /api/settings/flags` and the answer of a change. */
export const SettingsFlagsSchema = z.array(z.object({
  flag: z.enum(FLAG_NAMES),
  enabled: z.boolean(),
  updatedAt: z.string().nullable().describe("When it last changed (ISO 8601); null if never stored"),
}));
