/**
 * One structured log line per request, carrying the request id. The query string is left out on
 * purpose: it can carry donor ids and provider references.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";

/**
 * Logs `{ msg: "request", requestId, method, path, status, ms }` when each response is ready.
 *
 * @example
 * ```ts
 * app.use(requestId(), requestLog(createLogger()));
 * ```
 */
export function requestLog(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    log.info("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - start) * 10) / 10,
    });
  };
}
