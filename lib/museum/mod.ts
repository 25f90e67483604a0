/**
 * The museum: its identity and its membership levels (issue 27), the defaults of a fresh install,
 * reading them (pages a second late at most) and an owner's change.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 * The API schemas and route docs (`schemas.ts`, `api_docs.ts`) are not here: they load zod, which
 * pages reading the settings must not.
 *
 * @module
 */
export { DEFAULT_TERM_MONTHS, defaultMuseumSettings } from "./defaults.ts";
export { PAGE_MUSEUM_MAX_AGE_MS, readMuseumSettings, readMuseumSettingsForPages } from "./settings.ts";
export { changeMuseumSettings, type MuseumChangeLimits } from "./change.ts";
export { InvalidMuseumSettingsError, MuseumSettingsChangedMeanwhileError } from "./errors.ts";
export type { MuseumSettingsChange } from "./schemas.ts";
