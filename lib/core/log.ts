/**
 * Structured logging: one JSON object per line on standard output, so any log collector can parse
 * it. Never log card data, secrets or donor details, nor a donor id (the key to the donor's data
 * and cancel button): log payment, transaction and subscription ids. Paths and URLs are redacted
 * here, for every line (`log_redact.ts`).
 *
 * Standard output is written in batches ({@link stdoutLines}): a line per request written on its own
 * cost a system call per request, several times a cached page's whole cost (`bench/README.md`,
 * request pipeline). A warning or an error is written at once, with whatever waits before it.
 *
 * @module
 */
import { redactPath, redactUrls } from "./log_redact.ts";

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
 * `JSON.stringify({ time, level, msg, ...fields })`, errors anywhere written as
 * `{ name, message, stack }`. The replacer (a call back for every member) only when a field is an
 * object that may hold one: never for a request's line. What the line says of URLs is redacted
 * (`log_redact.ts`): a `path` field loses its ids and query string, and a URL in any string (an
 * error's message and stack too) is written as its origin and redacted path.
 */
export function jsonLine(level: Level, msg: string, fields?: Record<string, unknown>): string {
  return flatLine(level, msg, fields) ?? objectLine(level, msg, fields);
}

/** Characters `JSON.stringify` writes escaped: quote, backslash, controls and surrogates. */
// deno-lint-ignore no-control-regex -- the characters JSON escapes are control characters
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Keys a line's own members take, or that an object orders before the others (integers). */
const SPECIAL_KEY = /^(time|level|msg|\d+)$/;

/**
 * The line written directly, as `JSON.stringify` writes it, for fields that are strings, finite
 * numbers, booleans or null with plain keys (a request's line): no object made and walked for it.
 * `null` for any other line.
 */
function flatLine(level: Level, msg: string, fields?: Record<string, unknown>): string | null {
  if (ESCAPED.test(msg)) return null;
  let line = `{"time":"${now()}","level":"${level}","msg":"${msg}"`;
  for (const key in fields) {
    if (SPECIAL_KEY.test(key) || ESCAPED.test(key)) return null;
    let value = fields[key];
    if (typeof value === "string") {
      if (key === "path") value = redactPath(value);
      else if (value.includes("://")) value = redactUrls(value);
      line += ESCAPED.test(value as string) ? `,"${key}":${JSON.stringify(value)}` : `,"${key}":"${value}"`;
    } else if (
      (typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean" || value === null
    ) {
      line += `,"${key}":${value}`;
    } else if (value !== undefined) return null;
  }
  return line + "}";
}

function objectLine(level: Level, msg: string, fields?: Record<string, unknown>): string {
  const line: Record<string, unknown> = { time: now(), level, msg, ...fields };
  let nested = false;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === "string") {
      if (key === "path") line.path = redactPath(value);
      else if (value.includes("://")) line[key] = redactUrls(value);
    } else if (typeof value === "object" && value !== null) nested = true;
  }
  return JSON.stringify(line, nested ? errorReplacer : undefined);
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

function errorReplacer(key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === "string") {
    if (key === "path") return redactPath(value);
    if (value.includes("://")) return redactUrls(value);
  }
  return value;
}

/**
 * Bytes waiting for standard output. A line is encoded into this buffer at once: strings kept until
 * the flush would survive young-generation collections and be copied by each (the batch costs less
 * than a write per line only if its lines cost nothing to keep).
 */
const buffer = new Uint8Array(64 * 1024);
let used = 0;
let scheduled = false;
/** How long a line may wait for its batch. */
const BATCH_MS = 10;
const encoder = new TextEncoder();

/** Writes the lines waiting for standard output, now. */
export function flushStdout(): void {
  writeAll(buffer.subarray(0, used));
  used = 0;
}

function writeAll(bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
}

function append(text: string): void {
  let { read, written } = encoder.encodeInto(text, buffer.subarray(used));
  if (read < text.length) {
    flushStdout();
    ({ read, written } = encoder.encodeInto(text, buffer));
    // A line longer than the whole buffer is written on its own.
    if (read < text.length) {
      used = 0;
      return writeAll(encoder.encode(text));
    }
  }
  used += written;
}

let flushOnExit = false;

/**
 * The sink of standard output: lines are kept and written together at most {@link BATCH_MS} later
 * (or once 64 KiB wait), warnings and errors at once; whatever waits is written when
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
    append(line + "\n");
    if (ORDER[level] >= ORDER.warn) return flushStdout();
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      flushStdout();
    }, BATCH_MS);
  };
}
