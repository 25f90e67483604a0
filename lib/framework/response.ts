/**
 * The responses of the route layer, made so that the headers earlier Hono middleware set on the
 * context (the request id, security headers) are on every answer, and HEAD gets no body.
 *
 * A page is made through Hono's context (`c.body`), so it carries those headers already; any other
 * response (a handler's own) is copied onto the context by {@link own}. Copying a page too would
 * cost a second Response and turn its bytes into a stream.
 *
 * @module
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const madeByContext = new WeakSet<Response>();

/**
 * A page response: HTML, never stored by caches unless the route says otherwise (its own
 * `cache-control` in `init`), no body for HEAD.
 *
 * With `base` (the app's headers for every answer of this request: `MountOptions.headers`, a new
 * object for each call, which this fills in), the response is made once with all its headers, from
 * plain objects: copying a Headers object, or
 * setting headers one by one on a response, cost more than the page (`bench/README.md`, request
 * pipeline). Without it, the page is made through Hono's context, so that headers set on it earlier
 * (`c.header`) are kept.
 *
 * @example
 * ```ts
 * return htmlResponse(c, renderPage(input), 200, undefined, { "x-request-id": id });
 * ```
 */
export function htmlResponse(
  c: Context,
  html: string | Uint8Array<ArrayBuffer>,
  status: number,
  init?: ResponseInit,
  base?: Record<string, string>,
): Response {
  const body = c.req.method === "HEAD" ? null : html;
  let res: Response;
  if (base) {
    // `base` is this response's own object (`MountOptions.headers` makes one per call): no copy.
    const headers = base;
    headers["cache-control"] = "no-store";
    if (init?.headers) { for (const [name, value] of new Headers(init.headers)) headers[name] = value; }
    headers["content-type"] = "text/html; charset=utf-8";
    res = new Response(body, { status, statusText: init?.statusText, headers });
  } else {
    res = c.body(body as string, {
      ...init,
      status: status as ContentfulStatusCode,
      headers: init?.headers ?? {},
    });
    res.headers.set("content-type", "text/html; charset=utf-8");
    if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  }
  madeByContext.add(res);
  return res;
}

/**
 * A handler's response with the context's headers (the request id); no body for HEAD. A page from
 * {@link htmlResponse} is answered as it is.
 *
 * @example
 * ```ts
 * return own(c, await ctx.next());
 * ```
 */
export function own(c: Context, res: Response): Response {
  if (madeByContext.has(res)) return res;
  return c.newResponse(c.req.method === "HEAD" ? null : res.body, res);
}
