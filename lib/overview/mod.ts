/**
 * The overview: the back office's "what needs me today" (issue 26), per role.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { type OverviewContext, readOverview } from "./overview.ts";
export { OverviewQuerySchema, OverviewSchema } from "./schemas.ts";
