/**
 * What every request passes through before its route, as two Hono middlewares:
 *
 * 1. `front`: the request id (the caller's `X-Request-Id` when valid, as hono's `requestId` keeps
 *    it, else a random UUID), the CSP nonce, the request's state; then, on the way out, the security
 *    headers and the request id on the answer, and one log line (its path written with ids as `:id`
 *    and no query string by the logger itself, `lib/core/log_redact.ts`: one regular expression pass).
 * 2. `guard`: a Host header the URL parser refuses answers 400 (every route reading `req.url` would
 *    fail with a 500), a body over the limit 413 (hono's `bodyLimit`), and a request past its time
 *    limit fails with `RequestTimeoutError` (the app's error handler answers 503).
 *
 * They were eight middlewares (hono's `requestId`, `secureHeaders`, `bodyLimit`, `languageDetector`,
 * and ours), which cost more per request than the page they served: each one a frame and a promise
 * in hono's compose, the security headers built and set one by one, a timer per request, a log line
 * written on its own (`bench/README.md`, request pipeline). The answers are the same.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Logger } from "@/lib/core/log.ts";
import { errorBody } from "./errors.ts";
import type { SecurityHeaders } from "./security.ts";
import { Deadlines } from "./timeout.ts";

/** Options of {@link requestPipeline}. */
export interface PipelineOptions<State> {
  /** The app's logger: one `request` line per answer. */
  log: Logger;
  security: SecurityHeaders;
  /** The state of a request, made once its id and nonce are known. */
  state(c: Context, requestId: string, nonce: string): State;
  /** The time limit of a request, in ms. */
  limit(c: Context): number;
  /** The largest request body, in bytes. */
  maxBodyBytes: number;
  /** Paths that take files (an owner's image upload), with their own, larger body limit. */
  uploads?: { path: RegExp; maxBodyBytes: number };
  /** Whether errors at a path answer JSON (the API) rather than text. */
  isJson(path: string): boolean;
}

/**
 * Whether the URL parser takes a request's URL. Deno makes it from the Host header, and a parse per
 * request is a cost on every answer; so the answer is kept per host (the part between `//` and the
 * path; a handful in practice, at most 64 kept), and only a new host is parsed.
 */
function parseable(url: string): boolean {
  const start = url.indexOf("//") + 2;
  const end = url.indexOf("/", start);
  const host = url.slice(start, end === -1 ? url.length : end);
  let ok = hosts.get(host);
  if (ok === undefined) {
    ok = URL.canParse(url);
    if (hosts.size >= 64) hosts.clear();
    hosts.set(host, ok);
  }
  return ok;
}
const hosts = new Map<string, boolean>();

/** The caller's request id, kept when it is like ours (hono's `requestId` rule): else a new one. */
export function requestIdOf(given: string | null): string {
  return given && given.length <= 255 && !/[^\w\-=]/.test(given) ? given : crypto.randomUUID();
}

/**
 * The two middlewares, in the order they are used.
 *
 * @example
 * ```ts
 * const [front, guard] = requestPipeline({ log, security, state, limit, maxBodyBytes, isJson });
 * app.use(front, guard);
 * ```
 */
export function requestPipeline<State>(
  options: PipelineOptions<State>,
): [MiddlewareHandler, MiddlewareHandler] {
  const { log, security } = options;
  let ready = false;
  security.ready.then(() => ready = true);

  const front: MiddlewareHandler = async (c, next) => {
    const start = performance.now();
    const requestId = requestIdOf(c.req.raw.headers.get("x-request-id"));
    const nonce = security.nonce();
    c.set("requestId", requestId);
    c.set("secureHeadersNonce", nonce);
    c.set("state", options.state(c, requestId, nonce));
    if (!ready) await security.ready;
    await next();
    const res = c.res;
    // A page made with the request's headers (`MountOptions.headers`) has them all already.
    if (res.headers.get("x-request-id") !== requestId) {
      security.apply(res.headers, c.req.path, nonce);
      res.headers.set("x-request-id", requestId);
    }
    log.info("request", {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: res.status,
      ms: Math.round((performance.now() - start) * 10) / 10,
    });
  };

  const tooLarge = (max: number) => (c: Context) =>
    c.json(errorBody(413, `The request body is larger than ${max} bytes`), 413);
  const limiter = (max: number) => bodyLimit({ maxSize: max, onError: tooLarge(max) });
  const limitBody = limiter(options.maxBodyBytes);
  const uploads = options.uploads;
  const limitUpload = uploads ? limiter(uploads.maxBodyBytes) : limitBody;
  const deadlines = new Deadlines();
  const guard: MiddlewareHandler = (c, next) => {
    if (!parseable(c.req.url)) {
      const message = "Bad request: the Host header is not a valid host";
      return Promise.resolve(
        options.isJson(c.req.path) ? c.json(errorBody(400, message), 400) : c.text(message, 400),
      );
    }
    // Only a request with a body can be too large (hono's bodyLimit would look, and find none).
    const method = c.req.method;
    const limit = uploads?.path.test(c.req.path) ? limitUpload : limitBody;
    const run = method === "GET" || method === "HEAD" ? next : () => limit(c, next) as Promise<void>;
    return deadlines.within(options.limit(c), run) as Promise<Response | void>;
  };

  return [front, guard];
}
