/**
 * `GET /api/feature-flags`'s answer.
 *
 * @module
 */
import { z } from "zod";

/** Every flag and whether it is on. */
export const FeatureFlagsSchema = z.array(z.object({ flag: z.string(), enabled: z.boolean() })).meta({
  id: "FeatureFlags",
});
