/**
 * Kiosks: the devices staff pair with a shop's card terminal, and the terminal sales they start.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { lastSeenAt, UNSEEN_AFTER_MS, unseenDevices } from "./devices.ts";
