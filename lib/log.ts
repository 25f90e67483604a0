/**
 * Structured logging: one JSON object per line on standard output, so any log collector can parse
 * it. Never log card data, secrets or donor details; log ids.
 *
 * Standard output is written in batches ({@link stdoutLines}): a line per request written on its own
 * cost a system call per request, several times a cached page's whole cost (`bench/README.md`,
 * request pipeline). A warning or an error is written at once, with whatever waits before it.
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

/** Where lines go: each line, and its level (a sink may write warnings and errors at once). */
export type LineSink = (line: string, level: Level) => void;

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Creates a logger writing JSON lines to `write` (standard output, in batches, by default).
 *
 * @example
 * ```ts
 * const log = createLogger();
 * log.with({ requestId: "abc" }).info("request", { status: 200 });
 * // {"time":"2026-11-22T10:00:00.000Z","level":"info","msg":"request","requestId":"abc","status":200}
 * ```
 */
export function createLogger(
  write: LineSink = stdoutLines(),
  base: Record<string, unknown> = {},
  minLevel: Level = "info",
): Logger {
  const plain = Object.keys(base).length === 0;
  const emit = (level: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[minLevel]) return;
    write(plain ? jsonLine(level, msg, fields) : jsonLine(level, msg, { ...base, ...fields }), level);
  };
  return {
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    with: (fields) => createLogger(write, { ...base, ...fields }, minLevel),
  };
}

/**
 * `JSON.stringify({ time, level, msg, ...fields })`, written member by member: a line per request
 * made through one object and the general stringifier cost several times this (`bench/README.md`,
 * request pipeline). The same JSON: members in the same order, `undefined` and functions left out,
 * non-finite numbers as `null`, errors as `{ name, message, stack }`. A field named `time`, `level`
 * or `msg` replaces the logger's own, as it did in the object.
 */
export function jsonLine(level: Level, msg: string, fields?: Record<string, unknown>): string {
  if (fields && ("time" in fields || "level" in fields || "msg" in fields)) {
    return JSON.stringify({ time: now(), level, msg, ...fields }, errorReplacer);
  }
  let out = `{"time":"${now()}","level":"${level}","msg":${JSON.stringify(msg)}`;
  for (const key in fields) {
    const value = fields[key];
    switch (typeof value) {
      case "string":
        out += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
        break;
      case "number":
        out += `,${JSON.stringify(key)}:${Number.isFinite(value) ? String(value) : "null"}`;
        break;
      case "boolean":
        out += `,${JSON.stringify(key)}:${value}`;
        break;
      case "undefined":
      case "function":
      case "symbol":
        break;
      default:
        out += `,${JSON.stringify(key)}:${JSON.stringify(value, errorReplacer)}`;
    }
  }
  return out + "}";
}

// The instant as ISO 8601, made once per millisecond (many lines share one under load).
let lastMs = NaN;
let lastIso = "";
function now(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** Lines waiting for standard output, and whether a flush is scheduled. */
let pending = "";
let scheduled = false;
/** The most a batch holds before it is written at once. */
const BATCH_BYTES = 32 * 1024;
/** How long a line may wait for its batch. */
const BATCH_MS = 10;
const encoder = new TextEncoder();

/** Writes the lines waiting for standard output, now. */
export function flushStdout(): void {
  if (pending === "") return;
  const bytes = encoder.encode(pending);
  pending = "";
  for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
}

let flushOnExit = false;

/**
 * The sink of standard output: lines are kept and written together at most {@link BATCH_MS} later
 * (or once {@link BATCH_BYTES} wait), warnings and errors at once; whatever waits is written when
 * the process exits, on `Deno.exit()`, an uncaught error or an unhandled rejection. Only a kill
 * that gives the process no chance (SIGKILL) can lose the last few milliseconds of lines.
 *
 * @example
 * ```ts
 * const log = createLogger(stdoutLines());
 * ```
 */
export function stdoutLines(): LineSink {
  if (!flushOnExit) {
    flushOnExit = true;
    for (const event of ["unload", "error", "unhandledrejection"]) {
      globalThis.addEventListener(event, flushStdout);
    }
  }
  return (line, level) => {
    pending += line + "\n";
    if (ORDER[level] >= ORDER.warn || pending.length >= BATCH_BYTES) return flushStdout();
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      flushStdout();
    }, BATCH_MS);
  };
}
