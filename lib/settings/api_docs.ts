/**
 * The feature flags' API operations as the OpenAPI document describes them: one export per route, which the
 * route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { FeatureFlagsSchema, FlagChangeSchema, SettingsFlagsSchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/feature-flags`. */
export const featureFlagsDocs: RouteDocs = {
  GET: {
    summary: "Feature flags",
    tags: ["flags"],
    responses: { 200: { description: "Every flag and whether it is on", schema: FeatureFlagsSchema } },
  },
};

/** `GET /api/settings/flags`, `POST /api/settings/flags`. */
export const settingsFlagsDocs: RouteDocs = {
  GET: {
    summary: "The feature flags, for the settings",
    description: "Every flag the product knows, whether it is on and when it last changed.",
    tags: ["settings"],
    auth: "bearer",
    responses: {
      200: { description: "The flags", schema: SettingsFlagsSchema },
      403: { description: "The caller is not an owner" },
    },
  },
  POST: {
    summary: "Switch a feature flag",
    description: "Sets `MONTHLY_PAYMENT` or `TEST_TERMINAL_PAYMENT` on or off, audited (`flag-changed`, " +
      "from/to) in the same write; the same value again changes nothing. Every instance sees the change " +
      "within about a second (pages) or at once (the API and payments).",
    tags: ["settings"],
    auth: "bearer",
    body: FlagChangeSchema,
    responses: {
      200: { description: "The flags after the change", schema: SettingsFlagsSchema },
      400: { description: "An unknown flag or a value that is not true or false" },
      403: { description: "The caller is not an owner" },
      409: {
        description: "Someone else changed the flag at the same moment (reload and try again), or the " +
          "server's configuration holds it (test terminals in production without FEATURE_TEST_TERMINAL_PAYMENT)",
      },
    },
  },
};
