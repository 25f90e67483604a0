/**
 * What the reliability fuzz and security tests share: a seeded PRNG (a failure is reproducible from
 * its seed and index), the route list discovered from the manifest and the OpenAPI document (a new
 * route is covered without editing a test), pools of hostile values, a request generator, a sender
 * that falls back to a raw HTTP/1.1 socket for what `fetch` would normalize or refuse (encoded
 * `..`, bodies on GET, bad header bytes, forged Host), and a scanner for secrets in built files.
 *
 * @module
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import manifest from "@/manifest.gen.ts";
import { classifyRouteFile } from "@/lib/framework/router.ts";
import type { Handlers, RouteModule } from "@/lib/framework/types.ts";
import { currentBuild } from "@/lib/framework/assets.ts";
import { bytesToHex, canonicalString, hexToBytes, hmacKey } from "@/lib/shared/signing.ts";
import type { TestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { adversarialStrings } from "@/tests/helpers/adversarial.ts";
import { createPayment, GOOD_CARD, newDonor } from "@/tests/helpers/payments.ts";

// ---- seeded randomness ------------------------------------------------------------------------

/** A small deterministic PRNG (mulberry32). */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/**
 * A PRNG for one seed.
 *
 * @example
 * ```ts
 * const r = rng(42);
 * r.pick(["a", "b"]); // the same on every run
 * ```
 */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

/** The PRNG of request `index` under `seed`: each request can be regenerated alone. */
export function requestRng(seed: number, index: number): Rng {
  return rng((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0);
}

// ---- routes ------------------------------------------------------------------------------------

/** A file route of the manifest. */
export interface DiscoveredRoute {
  file: string;
  /** Hono pattern, e.g. `/api/user/:id`, `/:lang/terminal-payment/:shopNumber?`. */
  pattern: string;
  /** OpenAPI-style template, e.g. `/api/user/{id}`. */
  template: string;
  params: { name: string; optional: boolean }[];
  /** Methods the route module answers (HEAD comes with GET). */
  methods: string[];
  api: boolean;
}

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Every route file of `manifest.gen.ts`, with the methods its module answers (as
 * `lib/framework/route_table.ts` compiles them).
 *
 * @example
 * ```ts
 * discoverRoutes().find((r) => r.template === "/api/user/{id}")?.methods; // ["GET"]
 * ```
 */
export function discoverRoutes(): DiscoveredRoute[] {
  const out: DiscoveredRoute[] = [];
  for (const [file, mod] of Object.entries(manifest.routes)) {
    const info = classifyRouteFile(file);
    if (!info || info.kind !== "route") continue;
    const handler = (mod as RouteModule).handler;
    const methods: string[] = typeof handler === "function"
      ? [...ROUTE_METHODS]
      : ROUTE_METHODS.filter((m) => typeof (handler as Handlers | undefined)?.[m] === "function");
    if ((mod as RouteModule).default && !methods.includes("GET")) methods.unshift("GET");
    if (methods.includes("GET")) methods.push("HEAD");
    const params = [...info.pattern.matchAll(/:(\w+)(\?)?/g)].map((m) => ({
      name: m[1],
      optional: m[2] === "?",
    }));
    out.push({
      file,
      pattern: info.pattern,
      template: info.pattern.replace(/:(\w+)\??/g, "{$1}"),
      params,
      methods,
      api: info.pattern === "/api" || info.pattern.startsWith("/api/"),
    });
  }
  return out.sort((a, b) => a.template.localeCompare(b.template));
}

/** A JSON Schema (as the OpenAPI document has it, `$ref`s resolved). */
export type JsonSchema = Record<string, unknown>;

/** One operation of the OpenAPI document. */
export interface ApiOperation {
  method: string;
  template: string;
  /** `security: bearerAuth`. */
  bearer: boolean;
  /** The body carries a request signature (spec section 7). */
  signed: boolean;
  body: JsonSchema | null;
  query: { name: string; required: boolean; schema: JsonSchema }[];
  responses: string[];
}

/**
 * The operations of an OpenAPI document, schemas resolved.
 *
 * @example
 * ```ts
 * const ops = apiOperations(await (await fetch(`${url}/api/openapi.json`)).json());
 * ops.filter((o) => o.bearer).map((o) => o.template);
 * ```
 */
export function apiOperations(doc: Record<string, unknown>): ApiOperation[] {
  const components = ((doc.components as JsonSchema)?.schemas ?? {}) as Record<string, JsonSchema>;
  const resolve = (schema: unknown, depth = 0): JsonSchema => {
    if (!schema || typeof schema !== "object" || depth > 20) return (schema ?? {}) as JsonSchema;
    if (Array.isArray(schema)) return schema.map((s) => resolve(s, depth + 1)) as unknown as JsonSchema;
    const s = schema as JsonSchema;
    if (typeof s.$ref === "string") {
      return resolve(components[s.$ref.replace("#/components/schemas/", "")], depth + 1);
    }
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, resolve(v, depth + 1)]));
  };
  const ops: ApiOperation[] = [];
  for (const [template, methods] of Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const body = op.requestBody
        ? resolve(
          ((op.requestBody as JsonSchema).content as Record<string, JsonSchema>)["application/json"]?.schema,
        )
        : null;
      const parameters = (op.parameters ?? []) as JsonSchema[];
      ops.push({
        method: method.toUpperCase(),
        template,
        bearer: Array.isArray(op.security) && op.security.length > 0,
        signed: Boolean(body && (body.properties as JsonSchema | undefined)?.signature),
        body,
        query: parameters.filter((p) => p.in === "query").map((p) => ({
          name: String(p.name),
          required: Boolean(p.required),
          schema: resolve(p.schema),
        })),
        responses: Object.keys(op.responses as JsonSchema),
      });
    }
  }
  return ops;
}

// ---- hostile values ----------------------------------------------------------------------------

/** A piece of JSON text inserted as is (NaN, 1e309, a truncated object, …). */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold {@link Raw} parts. */
export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

let million: string | null = null;
/** A string of a million characters (built once). */
export const oneMillion = (): string => (million ??= "m".repeat(1_000_000));

/** Hostile strings: control characters, lone surrogates, scripts, injections, lengths at the edges. */
export const STRINGS: readonly string[] = [
  "",
  " ",
  "   padded   ",
  "\t",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "NaN",
  "Infinity",
  "9007199254740993",
  "1e308",
  "\u0000",
  "a\u0000b",
  "\u0007\u001b[31mred",
  "line\r\nX-Injected: 1",
  "\u007f\u0085\u009f",
  "\ud800",
  "\udfff",
  "a\ud83d",
  "\udc00\ud800",
  "שלום עולם",
  "Привет, мир",
  "João Ñandú",
  "😀👩‍👩‍👧‍👦",
  "\u202eevil\u202c",
  "\u200b\u200d\ufeff",
  "e\u0301\u0301\u0301",
  "𝕏𝔂𝖟",
  "\u2028\u2029",
  "ＡＢＣ",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1' --",
  "1; DROP TABLE transactions;--",
  "${7*7}{{7*7}}<%= 7*7 %>",
  "%s%s%n%x",
  "../../../../etc/passwd",
  "..%2f..%2f..%2fdeno.json",
  "__proto__",
  "constructor",
  '=HYPERLINK("http://evil.example","x")',
  "\\",
  '"',
  "'`",
  "a".repeat(99),
  "a".repeat(101),
  "a".repeat(255),
  "a".repeat(10_000),
  "é".repeat(5_000),
  "😀".repeat(3_000),
];

/** Room for one hostile field in a body under the 64 KiB limit (the rest of the fields fit in 4 KB). */
const FIELD_ROOM = 60_000;

/**
 * Strings that make backtracking patterns slow, near the body limit: long runs and alternations of
 * separators, spaces, letters, digits and other scripts, failing at the very end (`a@` + dots + `@`
 * took the old email pattern seconds). Built once.
 */
let backtracking: string[] | null = null;
export const BACKTRACKING = (): readonly string[] => (backtracking ??= adversarialStrings(FIELD_ROOM));

const byPattern = new Map<string, string[]>();
/** {@link BACKTRACKING}'s strings made of a field's own pattern's characters (its OpenAPI `pattern`). */
export function backtrackingFor(pattern: string): readonly string[] {
  let strings = byPattern.get(pattern);
  if (!strings) byPattern.set(pattern, strings = adversarialStrings(FIELD_ROOM, pattern));
  return strings;
}

/** Numbers at the edges, as JSON text (some only parse to Infinity or lose precision). */
export const NUMBER_TOKENS: readonly string[] = [
  "0",
  "-0",
  "-1",
  "1",
  "1.5",
  "0.0001",
  "0.999999999999999999",
  "1e308",
  "-1e308",
  "1e309",
  "-1e309",
  "5e-324",
  "1e-400",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "123456789012345678901234567890",
  "2147483648",
  "4294967296",
  "100000000",
];

/** Tokens that are not JSON at all where a number is expected. */
export const NOT_JSON_NUMBERS: readonly string[] = [
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "01",
  "+1",
  ".5",
  "1.",
  "1e",
  "1_000",
];

/** Values of the wrong type for any field. */
export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  "",
  "string",
  [],
  [1, 2],
  ["a"],
  {},
  { a: 1 },
  { $gt: "" },
  new Raw('{"__proto__":{"admin":true}}'),
  [[[[[]]]]],
];

/** Whole bodies that are not valid JSON. */
export const MALFORMED_JSON: readonly string[] = [
  "{",
  "}",
  "{]",
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"a":}',
  '{"a" 1}',
  '{"a":1',
  "[1,2",
  '"unterminated',
  "\ufeff{}",
  "nul",
  "tru",
  "{\u0000}",
  '{"a":"\u0001"}',
  '{"a":"\\ud800"}',
  '{"a":"\\x41"}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  "<xml/>",
  "a=1&b=2",
  "--boundary\r\n",
  "   ",
  "\n",
];

/** Content types, right and wrong. */
export const CONTENT_TYPES: readonly (string | null)[] = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json; charset=utf-16",
  "application/jsonx",
  "application/json-patch+json",
  "text/json",
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/octet-stream",
  "*/*",
  "",
  ";;;",
  "application/json;;;charset",
  null,
];

/** Path segments in place of a real parameter: traversal, encodings, lengths, types. */
export const PATH_SEGMENTS: readonly string[] = [
  "",
  ".",
  "..",
  "%2e",
  "%2e%2e",
  "..%2f..%2f..%2fdeno.json",
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2fdeno.json",
  "%252e%252e%252fdeno.json",
  "..%255c..%255cdeno.json",
  "..%5c..%5cdeno.json",
  "%c0%ae%c0%ae%c0%af",
  "..;",
  "%00",
  "a%00b",
  "%0d%0aX-Injected:%201",
  "%ZZ",
  "%",
  "%ff%fe",
  "%ED%A0%80",
  "%F0%9F%98%80",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "x%20y",
  "admin",
  "null",
  "undefined",
  "0",
  "-1",
  "NaN",
  "9007199254740993",
  "1e308",
  "A".repeat(15),
  "A".repeat(65),
  "A".repeat(10_000),
  // Runs a pattern on the path would backtrack over (the request line's limit is near 8 KB).
  ".".repeat(6_000),
  "-".repeat(6_000),
  "a-".repeat(3_000),
  "%2F".repeat(2_000),
  "a" + "/".repeat(6_000) + "x",
  "__proto__",
  "constructor",
  "index",
  "_app",
  "api",
];

/** Query values. */
export const QUERY_VALUES: readonly string[] = [
  "",
  "0",
  "-1",
  "1",
  "2",
  "100",
  "101",
  "1000000",
  "1000001",
  "1e308",
  "NaN",
  "Infinity",
  "9007199254740993",
  "1.5",
  "0x10",
  " 1",
  "true",
  "TRUE",
  "false",
  "1,2",
  "[]",
  "{}",
  "%00",
  "%ff",
  "%ZZ",
  "%",
  "%ED%A0%80",
  "%3Cscript%3E",
  "a".repeat(100),
  "a".repeat(101),
  "a".repeat(10_000),
  "a@" + ".".repeat(6_000) + "%40",
  "1".repeat(6_000) + "x",
  "%20".repeat(2_000) + "x",
  "%E2%80%AE",
  "%F0%9F%98%80",
  "all",
  "success",
  "error",
  "en",
  "he",
  "xx",
];

/** Query names pages and the API read, and some they do not. */
export const QUERY_NAMES: readonly string[] = [
  "page",
  "limit",
  "isMonthly",
  "searchString",
  "type",
  "lang",
  "days",
  "lng",
  "userId",
  "payment",
  "search",
  "SandboxTransactionId",
  "SandboxStatusCode",
  "PelecardTransactionId",
  "PelecardStatusCode",
  "__proto__",
  "constructor",
  "page[]",
  "a[b][c]",
  "",
];

// ---- requests ----------------------------------------------------------------------------------

/** A generated request. */
export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent (may hold encodings `fetch` would rewrite). */
  path: string;
  headers: [string, string][];
  body?: string | Uint8Array;
  /** Send the body as a stream (chunked, no Content-Length). */
  stream?: boolean;
  /** Force the raw socket (e.g. a forged Host header). */
  raw?: boolean;
  /** What the generator aimed at, for the failure report. */
  note: string;
}

/** What came back. */
export interface FuzzResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Whether the app answered (it sets X-Request-Id on everything) or the HTTP layer refused first. */
  fromApp: boolean;
  /** Sent over the raw socket. */
  raw: boolean;
}

const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Whether fetch sends a header value unchanged (ByteString, no CR/LF/NUL, no outer whitespace). */
function fetchableHeader(name: string, value: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) &&
    /^[\x21-\x7e\x80-\xff]([\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$|^$/.test(value) &&
    !["host", "content-length", "transfer-encoding", "connection"].includes(name.toLowerCase());
}

/** Whether `fetch(base + path)` would send `path` byte for byte. */
function fetchablePath(base: string, path: string): boolean {
  try {
    const url = new URL(base + path);
    return url.pathname + url.search === path && url.href.length < 60_000;
  } catch {
    return false;
  }
}

/**
 * Sends a request with `fetch` when fetch would send it unchanged, else over a raw HTTP/1.1
 * socket. Never throws for what the server does: a refused connection or a timeout is an answer
 * with status 0 and the reason in the body.
 *
 * @example
 * ```ts
 * const res = await send(app.url, { method: "GET", path: "/api/..%2f..%2fdeno.json", headers: [], note: "" });
 * ```
 */
export async function send(base: string, req: FuzzRequest, timeoutMs = 30_000): Promise<FuzzResponse> {
  const method = req.method;
  const useRaw = req.raw || FETCH_FORBIDDEN_METHODS.has(method.toUpperCase()) ||
    !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method) ||
    ((method.toUpperCase() === "GET" || method.toUpperCase() === "HEAD") && req.body !== undefined) ||
    !fetchablePath(base, req.path) || req.headers.some(([n, v]) => !fetchableHeader(n, v)) ||
    new Set(req.headers.map(([n]) => n.toLowerCase())).size !== req.headers.length;
  if (useRaw) return await sendRaw(base, req, timeoutMs);
  const headers = new Headers();
  for (const [name, value] of req.headers) headers.set(name, value);
  let body: BodyInit | undefined;
  if (req.body !== undefined) {
    const bytes = typeof req.body === "string" ? new TextEncoder().encode(req.body) : req.body;
    body = req.stream ? chunked(bytes) : bytes as Uint8Array<ArrayBuffer>;
  }
  try {
    const res = await fetch(base + req.path, {
      method,
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return {
      status: res.status,
      headers: res.headers,
      body: bytes,
      fromApp: res.headers.has("x-request-id"),
      raw: false,
    };
  } catch (e) {
    // fetch gives up when the server answers and closes before the whole request is written
    // (e.g. 400 for too many headers); the raw socket reads that answer.
    if (e instanceof DOMException && e.name === "TimeoutError") return transportError(e);
    return await sendRaw(base, req, timeoutMs);
  }
}

function transportError(e: unknown): FuzzResponse {
  const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return {
    status: 0,
    headers: new Headers(),
    body: new TextEncoder().encode(reason),
    fromApp: false,
    raw: false,
  };
}

function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 16_384));
      offset += 16_384;
    },
  });
}

/** Percent-encodes what may not appear raw in a request target (non-ASCII, spaces, controls). */
function rawTarget(path: string): string {
  return path.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch.isWellFormed() ? ch : "\ufffd"));
}

async function sendRaw(base: string, req: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  const url = new URL(base);
  const encoder = new TextEncoder();
  const body = req.body === undefined
    ? null
    : typeof req.body === "string"
    ? encoder.encode(req.body)
    : req.body;
  const lines = [`${req.method} ${rawTarget(req.path)} HTTP/1.1`];
  const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
  if (!names.has("host")) lines.push(`Host: ${url.host}`);
  lines.push("Connection: close");
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (body && !names.has("content-length") && !names.has("transfer-encoding")) {
    if (req.stream) lines.push("Transfer-Encoding: chunked");
    else lines.push(`Content-Length: ${body.length}`);
  }
  const head = encoder.encode(lines.join("\r\n") + "\r\n\r\n");
  let payload: Uint8Array = body ?? new Uint8Array();
  if (body && req.stream) {
    payload = concat([
      encoder.encode(`${body.length.toString(16)}\r\n`),
      body,
      encoder.encode("\r\n0\r\n\r\n"),
    ]);
  }
  let conn: Deno.TcpConn | null = null;
  const timer = setTimeout(() => conn?.close(), timeoutMs);
  try {
    conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    const c = conn;
    // Write and read at once: the server may answer (413, 400) before it has read everything.
    const writing = (async () => {
      try {
        for (const part of [head, payload]) {
          let off = 0;
          while (off < part.length) off += await c.write(part.subarray(off));
        }
      } catch { /* the server closed early; its answer is what counts */ }
    })();
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65_536);
    while (true) {
      let n: number | null;
      try {
        n = await c.read(buf);
      } catch {
        break;
      }
      if (n === null) break;
      chunks.push(buf.slice(0, n));
      // Stop at the end of the answer: a server may keep the connection open after answering
      // (e.g. 413 before it has read the rest of a chunked body), whatever Connection says.
      if (answerComplete(concat(chunks), req.method.toUpperCase() === "HEAD")) break;
    }
    await writing;
    return { ...parseRawResponse(concat(chunks), req.method.toUpperCase() === "HEAD"), raw: true };
  } catch (e) {
    return { ...transportError(e), raw: true };
  } finally {
    clearTimeout(timer);
    try {
      conn?.close();
    } catch { /* closed by the timer */ }
  }
}

/** Whether `bytes` hold a whole HTTP/1.1 answer (headers, and the body its framing announces). */
function answerComplete(bytes: Uint8Array, head: boolean): boolean {
  const text = new TextDecoder("latin1").decode(bytes);
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const headers = text.slice(0, end).toLowerCase();
  const status = Number(headers.split(" ")[1]);
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) return true;
  const length = headers.match(/\r\ncontent-length:\s*(\d+)/)?.[1];
  if (length !== undefined) return bytes.length - (end + 4) >= Number(length);
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(headers)) return text.endsWith("\r\n0\r\n\r\n");
  return false;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function parseRawResponse(bytes: Uint8Array, head: boolean): Omit<FuzzResponse, "raw"> {
  const text = new TextDecoder("latin1").decode(bytes);
  const end = text.indexOf("\r\n\r\n");
  if (!text.startsWith("HTTP/1.") || end < 0) {
    return {
      status: 0,
      headers: new Headers(),
      body: new TextEncoder().encode(`no HTTP answer (${bytes.length} bytes): ${text.slice(0, 100)}`),
      fromApp: false,
    };
  }
  const [statusLine, ...headerLines] = text.slice(0, end).split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Headers();
  for (const line of headerLines) {
    const i = line.indexOf(":");
    if (i > 0) {
      try {
        headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
      } catch { /* a header Headers refuses; not ours to judge here */ }
    }
  }
  let body: Uint8Array = bytes.slice(end + 4);
  if (head) body = new Uint8Array();
  else if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) body = dechunk(body);
  return { status, headers, body, fromApp: headers.has("x-request-id") };
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let off = 0;
  const latin = new TextDecoder("latin1");
  while (off < bytes.length) {
    const lineEnd = latin.decode(bytes.subarray(off, Math.min(bytes.length, off + 32))).indexOf("\r\n");
    if (lineEnd < 0) break;
    const size = parseInt(latin.decode(bytes.subarray(off, off + lineEnd)), 16);
    if (!Number.isFinite(size) || size === 0) break;
    off += lineEnd + 2;
    parts.push(bytes.subarray(off, off + size));
    off += size + 2;
  }
  return concat(parts);
}

/** A one-line account of a request for a failure report (long values shortened). */
export function describeRequest(req: FuzzRequest): string {
  const short = (s: string, n = 160) => {
    const printable = JSON.stringify(s).slice(1, -1);
    return printable.length > n ? `${printable.slice(0, n)}…(${s.length} chars)` : printable;
  };
  const body = req.body === undefined ? "" : ` body${req.stream ? " (streamed)" : ""}=${
    short(
      typeof req.body === "string"
        ? req.body
        : `<${req.body.length} bytes> ` + new TextDecoder().decode(req.body.slice(0, 200)),
    )
  }`;
  const headers = req.headers.map(([n, v]) => `${n}: ${short(v, 80)}`).join(" | ");
  return `${req.method} ${short(req.path, 200)}${headers ? ` [${headers}]` : ""}${body} — ${req.note}`;
}

// ---- fixtures and the generator ---------------------------------------------------------------

/** Real ids and credentials of the app under test, so requests also reach past the first checks. */
export interface Fixtures {
  origin: string;
  appSecret: string;
  donorIds: string[];
  paymentIds: string[];
  sandboxRefs: string[];
  adminIds: string[];
  approvedToken: string;
  pendingToken: string;
  /** The session the rejected admin got at registration, from before its rejection. */
  rejectedToken: string;
  refreshTokens: string[];
  adminEmail: string;
  signingKey: { keyId: string; key: string };
  /** Hashed files under /_app/ and unhashed public paths such as /favicon.ico. */
  builtFiles: string[];
  publicPaths: string[];
  testTerminals: string[];
  providerId: string;
}

/** The admins {@link setUpFixtures} registers (the first one is approved by the policy). */
export const FIXTURE_ADMINS = {
  approved: {
    email: "fuzz.approved@museum.org",
    password: "ledger-and-ink-approved-2026",
    name: "Ana Approved",
  },
  pending: { email: "fuzz.pending@museum.org", password: "ledger-and-ink-pending-2026", name: "Pia Pending" },
  rejected: {
    email: "fuzz.rejected@museum.org",
    password: "ledger-and-ink-rejected-2026",
    name: "Rex Rejected",
  },
};

/** A registered admin: id and a session. */
export interface FixtureAdmin {
  id: string;
  accessToken: string;
  refreshToken: string;
}

/**
 * Registers the three admins (approved, pending, rejected by the approved one) on a fresh app.
 *
 * @example
 * ```ts
 * const { approved, pending, rejected } = await registerAdmins(app);
 * ```
 */
export async function registerAdmins(
  app: TestApp,
): Promise<Record<keyof typeof FIXTURE_ADMINS, FixtureAdmin>> {
  const out = {} as Record<keyof typeof FIXTURE_ADMINS, FixtureAdmin>;
  for (
    const [role, body] of Object.entries(FIXTURE_ADMINS) as [
      keyof typeof FIXTURE_ADMINS,
      typeof FIXTURE_ADMINS.approved,
    ][]
  ) {
    const res = await api(app.url, "POST", "/api/auth/admin/register", body);
    if (res.status !== 201) throw new Error(`register ${role}: ${res.status} ${JSON.stringify(res.body)}`);
    out[role] = { id: res.body.id, accessToken: res.body.accessToken, refreshToken: res.body.refreshToken };
  }
  const decided = await api(app.url, "POST", `/api/auth/admin/${out.rejected.id}/reject`, undefined, {
    authorization: `Bearer ${out.approved.accessToken}`,
  });
  if (decided.status !== 200) throw new Error(`reject: ${decided.status} ${JSON.stringify(decided.body)}`);
  return out;
}

/**
 * Real data on a fresh app for the fuzzer: admins, donors, a paid and an open sandbox payment, a
 * browser signing key and the built files.
 */
export async function setUpFixtures(app: TestApp): Promise<Fixtures> {
  const admins = await registerAdmins(app);
  const donorIds = [await newDonor(app, "Dana"), await newDonor(app, "Noa"), await newDonor(app, "Ivan")];
  const paymentIds: string[] = [];
  const sandboxRefs: string[] = [];
  for (const userId of donorIds.slice(0, 2)) {
    const res = await createPayment(app, { amount: 20, currency: "nis", userId });
    if (res.status !== 200) throw new Error(`payment: ${res.status} ${JSON.stringify(res.body)}`);
    const ref = new URL(res.body.url, app.url).pathname.split("/").pop()!;
    sandboxRefs.push(ref);
  }
  // Pay the first one: its card page then links to our return route, which names the payment.
  const form = new URLSearchParams({
    cardNumber: GOOD_CARD,
    expiry: "12/30",
    cvv: "123",
    idNumber: "123456789",
  });
  const paid = await fetch(`${app.url}/sandbox/pay/${sandboxRefs[0]}`, { method: "POST", body: form });
  const paymentId = (await paid.text()).match(/\/payments\/return\/([A-Za-z0-9_-]+)/)?.[1];
  if (!paymentId) throw new Error(`no return link after paying on the sandbox page (${paid.status})`);
  paymentIds.push(paymentId);
  const key = await api(app.url, "GET", "/api/signing-key");
  const build = currentBuild();
  return {
    origin: new URL(app.url).origin,
    appSecret: app.config.appSecret,
    donorIds,
    paymentIds,
    sandboxRefs,
    adminIds: [admins.approved.id, admins.pending.id, admins.rejected.id],
    approvedToken: admins.approved.accessToken,
    pendingToken: admins.pending.accessToken,
    rejectedToken: admins.rejected.accessToken,
    refreshTokens: [admins.approved.refreshToken, admins.pending.refreshToken, admins.rejected.refreshToken],
    adminEmail: FIXTURE_ADMINS.approved.email,
    signingKey: { keyId: key.body.keyId, key: key.body.key },
    builtFiles: [...build.files.keys()],
    publicPaths: Object.keys(build.manifest.assets),
    testTerminals: app.config.payments.testTerminals,
    providerId: "sandbox",
  };
}

/** Every method the fuzzer tries on every route, including ones no route answers. */
export const ALL_METHODS: readonly string[] = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "patch",
  "X-FUZZ",
];

const LANGS = ["en", "he", "ru", "pt", "es"];

/** Everything the generator needs. */
export interface FuzzContext {
  routes: DiscoveredRoute[];
  ops: ApiOperation[];
  fixtures: Fixtures;
}

/**
 * Number of requests of the systematic passes: every route with every method, then every documented
 * string field with backtracking strings ({@link backtrackingCount} of them).
 */
export function systematicCount(ctx: FuzzContext): number {
  return ctx.routes.length * ALL_METHODS.length + backtrackingCount(ctx);
}

/** Number of requests of the backtracking pass, sent on top of the run's size. */
export function backtrackingCount(ctx: FuzzContext): number {
  return backtrackingCases(ctx).length;
}

interface BacktrackingCase {
  op: ApiOperation;
  route: DiscoveredRoute;
  key: string;
  value: string;
}

const casesOf = new WeakMap<FuzzContext, BacktrackingCase[]>();
/**
 * The systematic second pass: every string field of every JSON body the API documents, with
 * backtracking strings made of its own pattern's characters (a field without a pattern gets the
 * email pattern's, the one that was slow), so a slow pattern is found on every run, not by chance.
 */
function backtrackingCases(ctx: FuzzContext): BacktrackingCase[] {
  let cases = casesOf.get(ctx);
  if (cases) return cases;
  cases = [];
  for (const op of ctx.ops) {
    const route = ctx.routes.find((r) => r.template === op.template);
    const props = (op.body?.properties ?? {}) as Record<string, JsonSchema>;
    if (!route) continue;
    for (const [key, prop] of Object.entries(props)) {
      if (prop.type !== "string") continue;
      const pattern = String(prop.pattern ?? String.raw`^[^\s@]+@[^\s@]+\.[^\s@]+$`);
      for (const value of adversarialStrings(FIELD_ROOM, pattern, { base: false, pairs: false })) {
        cases.push({ op, route, key, value });
      }
    }
  }
  casesOf.set(ctx, cases);
  return cases;
}

/**
 * Request number `index`: the first {@link systematicCount} are every route × every method with
 * a plain request (so nothing is skipped by chance), then every documented string field with
 * backtracking strings; the rest are random, weighted towards the inputs each route reads.
 */
export async function generateRequest(ctx: FuzzContext, seed: number, index: number): Promise<FuzzRequest> {
  const r = requestRng(seed, index);
  const plainCount = ctx.routes.length * ALL_METHODS.length;
  const hostile = backtrackingCases(ctx)[index - plainCount];
  if (hostile) {
    const body = sampleValue(hostile.op.body!, r, ctx.fixtures) as Record<string, unknown>;
    body[hostile.key] = hostile.value;
    return {
      method: hostile.op.method,
      path: fillPath(hostile.route, ctx.fixtures, r, true, []),
      headers: [["content-type", "application/json"]],
      body: toJsonText(body),
      note: `${hostile.route.template}: ${hostile.key} = backtracking ${
        JSON.stringify(hostile.value.slice(0, 12))
      }…`,
    };
  }
  const systematic = index < plainCount;
  if (!systematic && r.chance(0.05)) return specialRequest(ctx, r);
  const route = systematic
    ? ctx.routes[Math.floor(index / ALL_METHODS.length)]
    : ctx.routes[r.int(ctx.routes.length)];
  const method = systematic
    ? ALL_METHODS[index % ALL_METHODS.length]
    : r.chance(0.7)
    ? r.pick(route.methods)
    : r.pick(ALL_METHODS);
  const op = ctx.ops.find((o) => o.template === route.template && o.method === method.toUpperCase());
  const notes: string[] = [];
  const path = fillPath(route, ctx.fixtures, r, systematic, notes);
  const query = systematic ? "" : makeQuery(op, route, ctx.fixtures, r, notes);
  const headers: [string, string][] = [];
  const req: FuzzRequest = { method, path: path + query, headers, note: "" };
  if (!systematic) {
    addAuth(route, op, ctx.fixtures, r, headers, notes);
    addHeaderAbuse(ctx.fixtures, r, headers, notes);
    await addBody(route, op, method, ctx.fixtures, r, req, notes);
  } else if (op?.body) {
    req.headers.push(["content-type", "application/json"]);
    req.body = toJsonText(sampleValue(op.body, r, ctx.fixtures));
    notes.push("plain sample body");
  }
  req.note = `${route.template}: ${notes.join("; ") || "plain"}`;
  return req;
}

function fillPath(
  route: DiscoveredRoute,
  fx: Fixtures,
  r: Rng,
  systematic: boolean,
  notes: string[],
): string {
  let path = route.pattern;
  for (const { name, optional } of route.params) {
    let value: string;
    if (optional && r.chance(0.25)) {
      value = "";
    } else if (systematic || r.chance(0.55)) {
      value = realParam(name, fx, r);
    } else {
      value = r.pick(PATH_SEGMENTS);
      notes.push(`param ${name}=${value.slice(0, 40)}`);
    }
    path = path.replace(new RegExp(`:${name}\\??`), value);
  }
  if (path.length > 1 && path.endsWith("/") && r.chance(0.5)) path = path.slice(0, -1);
  if (path === "") path = "/";
  if (!systematic && r.chance(0.05)) {
    const suffix = r.pick(["/", "//", "/.", "/..", "/%2e%2e/", "/extra", "?", "#frag", ";jsessionid=1"]);
    notes.push(`suffix ${suffix}`);
    path += suffix;
  }
  return path;
}

function realParam(name: string, fx: Fixtures, r: Rng): string {
  switch (name) {
    case "lang":
      return r.pick(LANGS);
    case "id":
      return r.chance(0.5) ? r.pick(fx.donorIds) : r.pick(fx.adminIds);
    case "paymentId":
      return r.pick(fx.paymentIds);
    case "ref":
      return r.pick(fx.sandboxRefs);
    case "provider":
      return fx.providerId;
    case "terminalNumber":
      return r.pick(fx.testTerminals);
    case "terminalId":
      return r.pick(["sim-7", "sim-1001", "sim-x"]);
    case "shopNumber":
      return r.pick(["7", "12", ...fx.testTerminals]);
    default:
      return r.pick(["1", "x", fx.donorIds[0]]);
  }
}

function makeQuery(
  op: ApiOperation | undefined,
  route: DiscoveredRoute,
  fx: Fixtures,
  r: Rng,
  notes: string[],
): string {
  const pairs: [string, string][] = [];
  const known = op?.query ?? [];
  if (known.length > 0 && r.chance(0.8)) {
    for (const q of known) {
      if (r.chance(0.6)) {
        pairs.push([q.name, r.chance(0.5) ? validQueryValue(q.schema, r) : r.pick(QUERY_VALUES)]);
      }
    }
  } else if (r.chance(route.api ? 0.3 : 0.5)) {
    const n = 1 + r.int(3);
    for (let i = 0; i < n; i++) {
      const name = r.pick(QUERY_NAMES);
      const value = name === "userId" && r.chance(0.5) ? r.pick(fx.donorIds) : r.pick(QUERY_VALUES);
      pairs.push([name, value]);
    }
  }
  if (pairs.length > 0 && r.chance(0.15)) {
    // The same parameter twice: `?page=1&page=2`.
    const [name] = r.pick(pairs);
    pairs.push([name, r.pick(QUERY_VALUES)]);
    notes.push(`repeated query ${name}`);
  }
  if (pairs.length === 0) return "";
  // Values are already percent-encoded where they hold `%`; the rest is encoded here.
  const enc = (s: string) =>
    /%/.test(s) ? s.replace(/[^\x21-\x7e]|[&#+ ]/g, (c) => encodeURIComponent(c)) : encodeURIComponent(s);
  const text = "?" + pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
  notes.push(`query ${text.slice(0, 120)}`);
  return text;
}

function validQueryValue(schema: JsonSchema, r: Rng): string {
  if (Array.isArray(schema.enum)) return String(r.pick(schema.enum));
  if (typeof schema.pattern === "string" && schema.pattern.includes("\\d")) return String(1 + r.int(5));
  if (schema.maxLength !== undefined) return r.pick(["a", "levi", "@example", "שירה", ""]);
  return r.pick(["1", "true", "en"]);
}

const AUTH_ABUSE = (fx: Fixtures): string[] => {
  const [h, p] = fx.approvedToken.split(".");
  const noneHeader = btoa(JSON.stringify({ alg: "none", typ: "at+jwt" })).replace(/=+$/, "");
  return [
    "",
    "Bearer",
    "Bearer ",
    "bearer " + fx.approvedToken,
    "BEARER  " + fx.approvedToken,
    "Bearer\t" + fx.approvedToken,
    "Bearer " + fx.approvedToken + " extra",
    "Bearer " + fx.approvedToken + ", Bearer " + fx.pendingToken,
    "Bearer " + fx.approvedToken.slice(0, -2) + (fx.approvedToken.endsWith("AA") ? "BB" : "AA"),
    `Bearer ${noneHeader}.${p}.`,
    `Bearer ${h}.${p}`,
    `Bearer ${h}..`,
    "Bearer x.y.z",
    "Bearer " + fx.refreshTokens[0],
    "Bearer eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo",
    "Basic YWRtaW46YWRtaW4=",
    "Digest username=admin",
    "Token abc",
    "Bearer " + "a".repeat(10_000),
    "Bearer " + "ÿ".repeat(20),
    "Bearer \u0000",
    "Bearer 😀",
  ];
};

function addAuth(
  route: DiscoveredRoute,
  op: ApiOperation | undefined,
  fx: Fixtures,
  r: Rng,
  headers: [string, string][],
  notes: string[],
): void {
  const roll = r.next();
  if (op?.bearer) {
    if (roll < 0.5) headers.push(["authorization", `Bearer ${fx.approvedToken}`]);
    else if (roll < 0.6) headers.push(["authorization", `Bearer ${fx.pendingToken}`]);
    else if (roll < 0.9) {
      const value = r.pick(AUTH_ABUSE(fx));
      headers.push(["authorization", value]);
      notes.push(`authorization ${value.slice(0, 30)}`);
    }
  } else if (roll < (route.api ? 0.1 : 0.04)) {
    const value = r.pick(AUTH_ABUSE(fx));
    headers.push(["authorization", value]);
    notes.push(`authorization ${value.slice(0, 30)}`);
  }
}

const HEADER_ABUSE: [string, (fx: Fixtures) => string[]][] = [
  ["x-forwarded-for", () => [
    "1.2.3.4",
    "127.0.0.1, 10.0.0.1",
    "::1",
    "not-an-ip",
    "<script>alert(1)</script>",
    "1.1.1.1, ".repeat(2_000) + "2.2.2.2",
    "x".repeat(10_000),
    ",,,",
  ]],
  ["x-real-ip", () => ["10.0.0.1", "::ffff:127.0.0.1", "😀"]],
  ["forwarded", () => ['for="[::1]";proto=https', "for=1.2.3.4;host=evil.example", ";;;"]],
  ["origin", (fx) => [
    "null",
    "http://evil.example",
    fx.origin,
    fx.origin + "/",
    fx.origin.replace("127.0.0.1", "localhost"),
    "file://",
    "*",
    "x".repeat(5_000),
    "http://[::1",
  ]],
  ["referer", (fx) => [fx.origin + "/en/", "http://evil.example/", "javascript:alert(1)", "%%%"]],
  ["sec-fetch-site", () => ["same-origin", "cross-site", "none", "garbage"]],
  ["accept-language", () => [
    "*",
    "he-IL,he;q=0.9,en;q=0.8",
    "xx-YY",
    "en;q=abc",
    ";;;,,,;q=",
    "q=1",
    "he;q=2,ru;q=-1",
    "zh-Hant-TW-x-" + "a".repeat(200),
    "a".repeat(10_000),
    "en,".repeat(3_000),
    "🙂",
    "",
  ]],
  ["cookie", () => [
    "lang=he",
    "lang=xx",
    "lang=../../etc/passwd",
    "lang=%ff%fe",
    "lang=",
    "=;=;;",
    'lang="he"',
    "lang=he; lang=en",
    "a=" + "b".repeat(10_000),
    Array.from({ length: 500 }, (_, i) => `c${i}=${i}`).join("; "),
    "lang=<script>",
    "__proto__=1",
  ]],
  ["accept", () => ["application/json", "text/html", "*/*", "text/csv;q=0", "garbage/;;", ""]],
  ["accept-encoding", () => ["br", "gzip;q=0", "identity;q=0, *;q=0", "br;q=abc", "x".repeat(1_000), "*"]],
  ["if-none-match", () => ["*", '"x"', 'W/"abc", "def"', "garbage", '"' + "a".repeat(5_000) + '"']],
  ["if-modified-since", () => ["Wed, 21 Oct 2015 07:28:00 GMT", "yesterday", "0"]],
  ["range", () => ["bytes=0-10", "bytes=-1", "bytes=999999999-", "bytes=5-1", "lines=1-2"]],
  ["x-request-id", () => [crypto.randomUUID(), "", "x".repeat(1_000), "<script>", "a b c", "../../x"]],
  ["x-http-method-override", () => ["DELETE", "PUT", "GET"]],
  ["content-encoding", () => ["gzip", "br", "deflate", "identity", "x"]],
  ["x-huge", () => ["h".repeat(60_000)]],
  ["user-agent", () => ["", "😀", "x".repeat(8_000), "sqlmap/1.0", "() { :; }; echo vulnerable"]],
];

function addHeaderAbuse(fx: Fixtures, r: Rng, headers: [string, string][], notes: string[]): void {
  if (!r.chance(0.45)) return;
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) {
    const [name, values] = r.pick(HEADER_ABUSE);
    if (headers.some(([h]) => h === name)) continue;
    const value = r.pick(values(fx));
    headers.push([name, value]);
    notes.push(
      `${name}: ${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? `…(${value.length})` : ""}`,
    );
  }
  if (r.chance(0.03)) {
    for (let i = 0; i < 150; i++) headers.push([`x-many-${i}`, "v".repeat(50)]);
    notes.push("150 extra headers");
  }
  if (r.chance(0.01)) {
    headers.push(["x-too-big", "t".repeat(200_000)]);
    notes.push("a 200 KB header");
  }
  if (r.chance(0.02)) {
    headers.push(["host", r.pick(["evil.example", "", "localhost:0", "[::1]:80", "a b"])]);
    notes.push("forged Host");
  }
}

const FORM_FIELDS: [string, string[]][] = [
  ["firstName", ["Dana", "", " ", "<b>x</b>"]],
  ["lastName", ["Levi", ""]],
  ["email", ["dana@example.org", "not-an-email", "a@b", "x@y.z"]],
  ["country", ["Israel", ""]],
  // The tax-receipt part (issue 14): the box, and the Israeli ID number it asks for.
  ["taxReceipt", ["on", "", "off"]],
  ["israeliId", ["123456782", "18", "12345678-2", "123456789", "", "000000000", "１２３"]],
  ["period", ["one-time", "monthly", "yearly"]],
  ["choice", ["tier-1", "tier-2", "tier-4", "tier-9", "other", "tier-"]],
  ["otherAmount", ["5", "0", "-1", "1e308", "NaN", "999999999", "12.345", "1,000"]],
  ["otherCurrency", ["nis", "dollars", "eur"]],
  ["testTerminal", ["1001", "9999", ""]],
  ["cardNumber", ["4580 1234 5678 9015", "4000 0000 0000 0033", "1234", ""]],
  ["expiry", ["12/30", "13/99", "00/00", "1230"]],
  ["cvv", ["123", "", "abcd"]],
  ["idNumber", ["123456789", "1", "x"]],
  ["ref", ["", "nope"]],
  ["action", ["approve", "decline", "cancel", ""]],
  ["code", ["000", "004", "999", "abc"]],
];

function formBody(fx: Fixtures, r: Rng, notes: string[]): { type: string; body: string } {
  const pairs: [string, string][] = [];
  for (const [name, values] of FORM_FIELDS) {
    if (!r.chance(0.5)) continue;
    let value = r.chance(0.6) ? r.pick(values) : r.pick(STRINGS);
    if (name === "ref" && r.chance(0.5)) value = r.pick(fx.sandboxRefs);
    pairs.push([name, value]);
  }
  if (pairs.length > 0 && r.chance(0.1)) {
    // One field a backtracking string, short enough that its encoding stays under the body limit.
    const at = r.int(pairs.length);
    pairs[at] = [pairs[at][0], r.pick(BACKTRACKING()).slice(0, 20_000)];
    notes.push(`${pairs[at][0]} backtracking`);
  }
  if (r.chance(0.1)) pairs.push([r.pick(FORM_FIELDS)[0], "second value"]);
  const kind = r.next();
  if (kind < 0.7) {
    notes.push("urlencoded form");
    const enc = (s: string) => s.isWellFormed() ? encodeURIComponent(s) : "%ED%A0%80";
    return {
      type: "application/x-www-form-urlencoded",
      body: pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&") + (r.chance(0.1) ? "&%ZZ=%&=&&" : ""),
    };
  }
  if (kind < 0.9) {
    notes.push("multipart form");
    const boundary = "fuzzboundary" + r.int(1000);
    const parts = pairs.map(([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
    );
    if (r.chance(0.2)) {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../x.sh"\r\nContent-Type: application/x-sh\r\n\r\n#!/bin/sh\r\n`,
      );
    }
    const truncated = r.chance(0.2);
    return {
      type: r.chance(0.15) ? "multipart/form-data" : `multipart/form-data; boundary=${boundary}`,
      body: parts.join("") + (truncated ? "" : `--${boundary}--\r\n`),
    };
  }
  notes.push("form with a JSON body");
  return { type: "application/json", body: toJsonText(Object.fromEntries(pairs)) };
}

async function addBody(
  route: DiscoveredRoute,
  op: ApiOperation | undefined,
  method: string,
  fx: Fixtures,
  r: Rng,
  req: FuzzRequest,
  notes: string[],
): Promise<void> {
  const writes = ["POST", "PUT", "PATCH", "DELETE", "patch"].includes(method);
  if (!writes && !r.chance(0.05)) return;
  const setType = (type: string | null) => {
    if (type !== null) req.headers.push(["content-type", type]);
  };
  // Oversized bodies, whatever the route: more than the 64 KiB limit, declared or streamed.
  if (r.chance(0.06)) {
    const size = r.pick([64 * 1024 + 1, 100_000, 1_000_000]);
    const big = size === 1_000_000
      ? `{"firstName":"${oneMillion().slice(0, size - 20)}"}`
      : `{"a":"${"b".repeat(size - 8)}"}`;
    req.body = big;
    req.stream = r.chance(0.4);
    setType("application/json");
    notes.push(`oversized body ${big.length} bytes${req.stream ? " streamed" : ""}`);
    return;
  }
  if (!route.api && route.methods.includes("POST") && r.chance(0.75)) {
    const { type, body } = formBody(fx, r, notes);
    setType(type);
    req.body = body;
    if (!req.headers.some(([h]) => h === "origin") && r.chance(0.75)) req.headers.push(["origin", fx.origin]);
    return;
  }
  const schema = op?.body ?? (route.api ? { type: "object", properties: {} } : null);
  const kind = r.next();
  let text: string;
  if (schema && kind < 0.55) {
    const value = sampleValue(schema, r, fx) as Record<string, unknown>;
    text = toJsonText(mutate(value, schema, r, notes));
  } else if (kind < 0.7) {
    text = r.pick(MALFORMED_JSON);
    notes.push(`malformed JSON ${JSON.stringify(text.slice(0, 30))}`);
  } else if (kind < 0.8) {
    text = toJsonText(r.pick(WRONG_TYPES));
    notes.push(`body of the wrong type ${text.slice(0, 30)}`);
  } else if (kind < 0.85) {
    const depth = r.pick([100, 1_000, 20_000]);
    text = r.chance(0.5)
      ? "[".repeat(depth) + "]".repeat(depth)
      : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    notes.push(`JSON nested ${depth} deep`);
  } else if (kind < 0.9) {
    req.body = new Uint8Array([
      0x7b,
      0x22,
      0x61,
      0x22,
      0x3a,
      0x22,
      0xff,
      0xfe,
      0xc0,
      0xaf,
      0xed,
      0xa0,
      0x80,
      0x22,
      0x7d,
    ]);
    setType("application/json");
    notes.push("invalid UTF-8 in a JSON string");
    return;
  } else if (kind < 0.95) {
    text = "";
    notes.push("empty body");
  } else {
    text = r.pick(STRINGS);
    notes.push("body is a bare string");
  }
  // Signed operations: most bodies carry a valid signature, so validation behind it is reached.
  if (op?.signed && r.chance(0.7)) {
    const signed = await signText(text, fx.signingKey);
    if (signed) {
      text = signed;
      notes.push("validly signed");
    }
  }
  const type = r.chance(0.8) ? "application/json" : r.pick(CONTENT_TYPES);
  if (type !== "application/json") notes.push(`content-type ${JSON.stringify(type)}`);
  setType(type);
  req.body = text;
}

/**
 * A plausible value of a JSON Schema, using real ids and credentials for the fields that name
 * them (userId, refreshToken, email of a login).
 */
export function sampleValue(schema: JsonSchema, r: Rng, fx: Fixtures, name = ""): unknown {
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return r.pick(schema.enum);
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length > 0) return sampleValue(r.pick(union), r, fx, name);
  switch (schema.type) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(props)) {
        if (required.has(key) || r.chance(0.5)) out[key] = sampleValue(sub, r, fx, key);
      }
      return out;
    }
    case "array":
      return [];
    case "boolean":
      return r.chance(0.5);
    case "integer":
    case "number":
      if (name === "timestamp") return Date.now();
      return r.pick(name === "amount" ? [5, 20, 25, 100, 1] : [1, 2, 10]);
    case "string":
    default:
      return sampleString(schema, r, fx, name);
  }
}

function sampleString(schema: JsonSchema, r: Rng, fx: Fixtures, name: string): string {
  switch (name) {
    case "userId":
      return r.pick(fx.donorIds);
    case "refreshToken":
      return r.pick(fx.refreshTokens);
    case "email":
      return r.chance(0.3) ? fx.adminEmail : `fuzz${r.int(1e6)}@example.org`;
    case "password":
      return r.pick(["correct horse battery staple 9", "password", "x"]);
    case "keyId":
      return fx.signingKey.keyId;
    case "nonce":
      return crypto.randomUUID().replaceAll("-", "");
    case "signature":
      return "0".repeat(64);
    case "shopNumber":
      return r.pick(["7", ...fx.testTerminals]);
    case "israeliId":
      // Valid ID numbers (check digit right, one left-padded, one with a dash): a "valid sample"
      // stays valid; mutate() makes them hostile.
      return r.pick(["123456782", "18", "12345678-2"]);
  }
  const pattern = typeof schema.pattern === "string" ? schema.pattern : "";
  if (pattern.includes("@")) return `fuzz${r.int(1e6)}@example.org`;
  if (pattern.includes("16,64")) return r.pick(fx.donorIds);
  return r.pick(["Dana", "Levi", "Israel", "שירה", "x"]);
}

/** One field made hostile, a required field dropped, or unknown fields added. */
function mutate(value: Record<string, unknown>, schema: JsonSchema, r: Rng, notes: string[]): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const keys = Object.keys(props);
  const roll = r.next();
  if (roll < 0.12) {
    notes.push("valid sample");
    return value;
  }
  if (roll < 0.22 && keys.length > 0) {
    const key = r.pick(keys);
    delete value[key];
    notes.push(`without ${key}`);
    return value;
  }
  if (roll < 0.3) {
    const extra = r.pick([
      ["__proto__", { admin: true, status: "approved" }],
      ["constructor", { prototype: { admin: true } }],
      ["status", "approved"],
      ["id", "x"],
      ["unknown", r.pick(STRINGS)],
    ] as [string, unknown][]);
    notes.push(`extra field ${extra[0]}`);
    // A null-prototype copy, so `__proto__` is an own key that reaches the JSON text.
    const out = Object.assign(Object.create(null), value) as Record<string, unknown>;
    out[extra[0]] = extra[1];
    return out;
  }
  const key = keys.length > 0 ? r.pick(keys) : "field";
  const expected = props[key]?.type ?? (props[key]?.anyOf ? "union" : "string");
  const pattern = String(props[key]?.pattern ?? "");
  let bad: unknown;
  const kind = r.next();
  if (kind < 0.06 && pattern) {
    // Made of the field's own pattern's characters, near the body limit: a backtracking pattern's
    // worst case (the email pattern took seconds on `a@` + dots + `@`).
    bad = r.pick(backtrackingFor(pattern));
  } else if (kind < 0.09) bad = r.pick(BACKTRACKING());
  else if (kind < 0.12 && pattern.includes("@")) {
    // Hostile text inside a valid-looking address: the pattern alone lets any non-space through.
    bad = `${r.pick(["", "a"])}${r.pick(STRINGS).slice(0, 60).replace(/[\s@]/g, "")}@example.org`;
  } else if (kind < 0.35) bad = r.pick(STRINGS);
  else if (kind < 0.6) bad = new Raw(r.pick(NUMBER_TOKENS));
  else if (kind < 0.7) bad = new Raw(r.pick(NOT_JSON_NUMBERS));
  else if (kind < 0.95) bad = r.pick(WRONG_TYPES);
  else bad = oneMillion();
  value[key] = bad;
  const shown = bad instanceof Raw
    ? bad.text
    : typeof bad === "string"
    ? JSON.stringify(bad.slice(0, 30))
    : JSON.stringify(bad);
  notes.push(`${key} (${String(expected)}) = ${shown?.slice(0, 40)}`);
  return value;
}

/**
 * Adds a valid signature to a JSON object body (keyId, timestamp and nonce too, unless the body
 * sets its own), as a page's island does; `null` when the text is not a flat JSON object.
 */
export async function signText(text: string, key: { keyId: string; key: string }): Promise<string | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const obj = parsed as Record<string, unknown>;
  if (Object.values(obj).some((v) => v !== null && typeof v === "object")) return null;
  const extra: Record<string, unknown> = {};
  if (!("keyId" in obj)) extra.keyId = key.keyId;
  if (!("timestamp" in obj)) extra.timestamp = Date.now();
  if (!("nonce" in obj)) extra.nonce = crypto.randomUUID().replaceAll("-", "");
  const full = { ...obj, ...extra };
  const hmac = await hmacKey(hexToBytes(key.key), ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(canonicalString(full)));
  const additions = { ...extra, signature: bytesToHex(new Uint8Array(mac)) };
  // Appended to the original text, so raw tokens (1e309, -0) stay as the server will read them;
  // a later duplicate key wins in JSON.parse.
  const tail = Object.entries(additions).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(
    ",",
  );
  const trimmed = text.trimEnd();
  const open = trimmed.slice(0, -1).trimEnd();
  return `${open}${open.endsWith("{") ? "" : ","}${tail}}`;
}

/** Requests aimed at no route: traversal towards files, the built assets, and odd paths. */
function specialRequest(ctx: FuzzContext, r: Rng): FuzzRequest {
  const fx = ctx.fixtures;
  const roll = r.next();
  const method = r.chance(0.8) ? "GET" : r.pick(ALL_METHODS);
  const headers: [string, string][] = [];
  if (roll < 0.45) {
    const prefix = r.pick([
      "",
      "/_app",
      "/api",
      "/en",
      "/sandbox/pay",
      "/payments/return",
      "/static",
      "/_app/chunks",
    ]);
    const target = r.pick([
      "deno.json",
      "main.ts",
      "data/app-secret",
      "etc/passwd",
      "manifest.gen.ts",
      "_build/manifest.json",
    ]);
    const up = r.pick([
      "../",
      "..%2f",
      "..%2F",
      "%2e%2e/",
      "%2e%2e%2f",
      "%252e%252e%252f",
      "..\\",
      "..%5c",
      "....//",
      "%c0%ae%c0%ae/",
      ".%2e/",
      "..;/",
    ]);
    const path = `${prefix}/${up.repeat(1 + r.int(6))}${target}`;
    return { method, path, headers, note: `traversal ${path}` };
  }
  if (roll < 0.7) {
    const file = r.chance(0.8) ? "/_app/" + r.pick(fx.builtFiles) : r.pick(fx.publicPaths);
    const variant = r.pick(["", "", ".br", ".gz", ".map", "/", "%00", "?v=1", "/../manifest.json", "x"]);
    if (r.chance(0.5)) {
      const [name, values] = r.pick(
        HEADER_ABUSE.filter(([n]) => ["accept-encoding", "if-none-match", "range"].includes(n)),
      );
      headers.push([name, r.pick(values(fx))]);
    }
    return { method, path: file + variant, headers, note: `built file ${file}${variant}` };
  }
  const path = r.pick([
    "/",
    "//",
    "///en",
    "/en//",
    "/EN/",
    "/api",
    "/api/",
    "/API/user",
    "/_app",
    "/_app/",
    "/favicon.ico/",
    "/robots.txt",
    "/.env",
    "/.git/config",
    "/wp-admin/",
    "/en/admin/../../api/user",
    "/%2F%2Fevil.example",
    "//evil.example/%2e%2e",
    "/\\evil.example",
    "/en/" + "a/".repeat(500),
    "/" + "x".repeat(20_000),
    "/?" + "a=1&".repeat(5_000),
    "/en/?lng=he",
    "/?lng=" + "x".repeat(5_000),
    "*",
    "http://evil.example/en/",
  ]);
  return { method, path, headers, note: `odd path ${path.slice(0, 60)}` };
}

// ---- secrets in built files --------------------------------------------------------------------

/** A string that must not appear in anything a browser can download, and why. */
export interface LeakMarker {
  /** Text searched for, or a pattern. */
  marker: string | RegExp;
  why: string;
}

/** One marker found in one file. */
export interface Leak {
  file: string;
  why: string;
  excerpt: string;
}

/**
 * The readable texts of a built file: the bytes as UTF-8, and for `.br` / `.gz` variants the
 * decompressed bytes too (a compressed leak is still a leak).
 */
export function readableTexts(name: string, bytes: Uint8Array): string[] {
  const texts = [new TextDecoder().decode(bytes)];
  try {
    if (name.endsWith(".br")) texts.push(new TextDecoder().decode(brotliDecompressSync(bytes)));
    if (name.endsWith(".gz")) texts.push(new TextDecoder().decode(gunzipSync(bytes)));
  } catch (e) {
    // A variant nobody can read is a variant nobody checked.
    throw new Error(`${name}: cannot decompress (${(e as Error).message})`);
  }
  return texts;
}

/**
 * Every marker found in every file.
 *
 * @example
 * ```ts
 * scanForLeaks(new Map([["a.js", bytes]]), [{ marker: "argon2id", why: "password hashing" }]);
 * ```
 */
export function scanForLeaks(files: Map<string, Uint8Array>, markers: LeakMarker[]): Leak[] {
  const leaks: Leak[] = [];
  for (const [file, bytes] of files) {
    for (const text of readableTexts(file, bytes)) {
      for (const { marker, why } of markers) {
        const at = typeof marker === "string" ? text.indexOf(marker) : text.search(marker);
        if (at >= 0) {
          leaks.push({ file, why, excerpt: text.slice(Math.max(0, at - 40), at + 80) });
        }
      }
    }
  }
  return leaks;
}

/** Every file under a folder, by path relative to it. */
export async function readTree(dir: string, prefix = ""): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const entry of Deno.readDir(dir)) {
    const rel = prefix + entry.name;
    if (entry.isDirectory) {
      for (const [k, v] of await readTree(`${dir}/${entry.name}`, rel + "/")) out.set(k, v);
    } else if (entry.isFile) {
      out.set(rel, await Deno.readFile(`${dir}/${entry.name}`));
    }
  }
  return out;
}
