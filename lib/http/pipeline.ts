/**
 * What every request passes through before its route: one step (the `front` of `mountRoutes`,
 * `lib/framework/server.ts`), run inside the route's Hono handler:
 *
 * 1. the request id (the caller's `X-Request-Id` when valid, as hono's `requestId` keeps it, else a
 *    random UUID), the CSP nonce, the request's state;
 * 2. the guard: a Host header the URL parser refuses answers 400 (every route reading `req.url` would
 *    fail with a 500), a body over the limit 413 (hono's `bodyLimit`), and a request past its time
 *    limit fails with `RequestTimeoutError`;
 * 3. the files of the build and `static/` (`assets`), then the route;
 * 4. on the way out: an error turned into the app's error answer (`onError`), the security headers
 *    and the request id on the answer, and one log line (its path written with ids as `:id` and no
 *    query string by the logger itself, `lib/core/log_redact.ts`).
 *
 * They were eight Hono middlewares (hono's `requestId`, `secureHeaders`, `bodyLimit`,
 * `languageDetector`, and ours), then two, each a frame and a promise in hono's compose; now a route
 * is the only handler Hono matches, which it calls without compose, and an answer the route has at
 * once (a cached page) goes out in the same turn, with no promise on the way (`bench/README.md`,
 * request pipeline). The answers are the same.
 *
 * @module
 */
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
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
  /**
   * Middlewares answering files (the build, `static/`), each run only for the paths `paths` says,
   * after the guard and before the route.
   */
  assets?: { paths(path: string): boolean; serve: MiddlewareHandler }[];
  /** The app's error handler (as `app.onError`): an error anywhere inside gets its answer, with the headers. */
  onError: ErrorHandler;
}

/** The pipeline: answers, or runs `next` (the route), as `mountRoutes`' `front`. */
export type Front = (
  c: Context,
  next: () => Response | Promise<Response>,
) => Response | Promise<Response>;

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
 * The pipeline, for `mountRoutes`' `front`.
 *
 * @example
 * ```ts
 * const front = requestPipeline({ log, security, state, limit, maxBodyBytes, isJson, onError });
 * mountRoutes(app, manifest, { front, ... });
 * ```
 */
export function requestPipeline<State>(options: PipelineOptions<State>): Front {
  const { log, security, onError, assets = [] } = options;
  let ready = false;
  security.ready.then(() => ready = true);

  /** The answer of an error thrown inside, as hono's compose gives it to the app's error handler. */
  const fail = (error: unknown, c: Context): Response | Promise<Response> => {
    if (!(error instanceof Error)) throw error;
    c.error = error;
    return onError(error, c);
  };
  const finish = (c: Context, res: Response, requestId: string, nonce: string, start: number) => {
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
    return res;
  };

  const front: Front = (c, next) => {
    if (!ready) return security.ready.then(() => front(c, next));
    const start = performance.now();
    const requestId = requestIdOf(c.req.raw.headers.get("x-request-id"));
    const nonce = security.nonce();
    c.set("requestId", requestId);
    c.set("secureHeadersNonce", nonce);
    c.set("state", options.state(c, requestId, nonce));
    let res: Response | Promise<Response>;
    try {
      res = guard(c, next);
    } catch (error) {
      res = fail(error, c);
    }
    if (!(res instanceof Promise)) return finish(c, res, requestId, nonce, start);
    return res.then(undefined, (error) => fail(error, c)).then((r) => finish(c, r, requestId, nonce, start));
  };

  const tooLarge = (max: number) => (c: Context) =>
    c.json(errorBody(413, `The request body is larger than ${max} bytes`), 413);
  const limiter = (max: number) => bodyLimit({ maxSize: max, onError: tooLarge(max) });
  const limitBody = limiter(options.maxBodyBytes);
  const uploads = options.uploads;
  const limitUpload = uploads ? limiter(uploads.maxBodyBytes) : limitBody;
  const deadlines = new Deadlines();

  /** The route, or a file first when one of `assets` (from `from` on) takes the path. */
  const inner = (
    c: Context,
    next: () => Response | Promise<Response>,
    from = 0,
  ): Response | Promise<Response> => {
    const path = c.req.path;
    for (let i = from; i < assets.length; i++) {
      if (assets[i].paths(path)) return viaHono(assets[i].serve, c, () => inner(c, next, i + 1));
    }
    return next();
  };
  const guard = (c: Context, next: () => Response | Promise<Response>): Response | Promise<Response> => {
    if (!parseable(c.req.url)) {
      const message = "Bad request: the Host header is not a valid host";
      return options.isJson(c.req.path) ? c.json(errorBody(400, message), 400) : c.text(message, 400);
    }
    // Only a request with a body can be too large (hono's bodyLimit would look, and find none).
    const method = c.req.method;
    const run = method === "GET" || method === "HEAD" ? () => inner(c, next) : () => {
      const limit = uploads?.path.test(c.req.path) ? limitUpload : limitBody;
      return viaHono(limit, c, () => inner(c, next));
    };
    return deadlines.within(options.limit(c), run);
  };

  return front;
}

/**
 * Runs a Hono middleware with `next` as what comes after it: its own answer, else the answer of
 * `next` (as hono's compose would have put it in `c.res`).
 */
async function viaHono(
  mw: MiddlewareHandler,
  c: Context,
  next: () => Response | Promise<Response>,
): Promise<Response> {
  let after: Response | undefined;
  const own = await mw(c, async () => {
    after = await next();
  });
  if (own instanceof Response) return own;
  if (!after) throw new Error("a middleware neither answered nor went on");
  return after;
}
