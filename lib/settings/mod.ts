/**
 * Settings: the feature flags and the back office's switches for them.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { FLAG_NAMES } from "./flags.ts";
