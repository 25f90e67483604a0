/**
 * The audit log: who did what in the back office, and how staff actions are written to it.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { type Actor, actorEntry } from "./actor.ts";
