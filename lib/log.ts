/**
 * Structured logging: one JSON object per line on standard output, so any log collector can parse
 * it. Never log card data, secrets or donor details; log ids.
 *
 * @module
 */

export type Level = "debug" | "info" | "warn" | "error";

/** A logger bound to some fields (e.g. the request id). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` to every line. */
  with(fields: Record<string, unknown>): Logger;
}

/**
 * Creates a logger writing JSON lines to `write` (standard output by default).
 *
 * @example
 * ```ts
 * const log = createLogger();
 * log.with({ requestId: "abc" }).info("request", { status: 200 });
 * // {"time":"2026-11-22T10:00:00.000Z","level":"info","msg":"request","requestId":"abc","status":200}
 * ```
 */
export function createLogger(
  write: (line: string) => void = (line) => console.log(line),
  base: Record<string, unknown> = {},
  minLevel: Level = "info",
): Logger {
  const order: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  const emit = (level: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (order[level] < order[minLevel]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }, errorReplacer));
  };
  return {
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    with: (fields) => createLogger(write, { ...base, ...fields }, minLevel),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
