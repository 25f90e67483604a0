/**
 * The readers every group of settings shares (`lib/app/config.ts`, `lib/providers/config.ts`): the error
 * that names a bad setting in one line, booleans and whole numbers.
 *
 * @module
 */

/** A setting is missing or invalid; the message is one line and names it. */
export class ConfigError extends Error {
  constructor(readonly setting: string, detail: string) {
    super(`${setting}: ${detail}`);
  }
}

/** The environment as read: variable name → value. */
export type Env = Record<string, string | undefined>;

const TRUE = new Set(["1", "true", "on", "yes"]);
const FALSE = new Set(["0", "false", "off", "no"]);

/** A boolean setting: `1/0`, `true/false`, `on/off`, `yes/no`; `fallback` when unset. */
export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (TRUE.has(raw)) return true;
  if (FALSE.has(raw)) return false;
  throw new ConfigError(name, `must be one of 1, 0, true, false, on, off, yes, no (got "${env[name]}")`);
}

/** A whole-number setting from `min` to `max`, `fallback` when unset. */
export function wholeNumber(
  setting: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  const value = raw?.trim() || String(fallback);
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(setting, `must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}
