/**
 * The public face of the route layer, for route files and components:
 * types, `<Head>` and `asset()`.
 *
 * @module
 */
export type {
  CachedRender,
  Handler,
  Handlers,
  LayoutProps,
  Manifest,
  PageProps,
  RouteContext,
  RouteModule,
} from "./types.ts";
export { Head, HeadOutlet } from "./head.ts";
export { asset } from "./assets.ts";
export type { Slots } from "./page_cache.ts";
