/**
 * Reading the museum's settings: what is stored, or the defaults of a fresh install. Payments and
 * the admin API read storage every time (the server decides prices from what is saved now); pages
 * share one read per instance per second ({@link readMuseumSettingsForPages}), as they do for the
 * feature flags, so an owner's change shows everywhere within seconds, and the page cache keys its
 * pages by the settings' version.
 *
 * @module
 */
import { sharedRead } from "@/lib/core/shared_read.ts";
import { coloursOf, type MuseumSettings } from "@/lib/shared/museum.ts";
import type { Store } from "@/lib/storage/types.ts";
import { defaultHero, defaultMuseumSettings } from "./defaults.ts";

/**
 * The museum's settings as stored (with today's colours when none were saved), or the defaults
 * (version 0) when none were saved.
 *
 * @example
 * ```ts
 * const { levels } = await readMuseumSettings(store);
 * ```
 */
export async function readMuseumSettings(store: Pick<Store, "museum">): Promise<MuseumSettings> {
  const stored = await store.museum.get();
  if (!stored) return defaultMuseumSettings();
  // A record saved before the brand colours or the hero existed has today's look and texts.
  return {
    ...stored,
    identity: { ...stored.identity, colours: coloursOf(stored) },
    hero: stored.hero ?? defaultHero(),
  };
}

/** How long a page may still show the settings before an owner's change, on any instance. */
export const PAGE_MUSEUM_MAX_AGE_MS = 1000;

/**
 * The settings for rendering a page: {@link readMuseumSettings}, shared by the requests of up to
 * {@link PAGE_MUSEUM_MAX_AGE_MS}; the settings themselves once read, a promise while not.
 *
 * @example
 * ```ts
 * const museum = await readMuseumSettingsForPages(store); // at most a second old
 * ```
 */
export const readMuseumSettingsForPages: (
  store: Store,
  now?: number,
) => MuseumSettings | Promise<MuseumSettings> = sharedRead(readMuseumSettings, PAGE_MUSEUM_MAX_AGE_MS);
