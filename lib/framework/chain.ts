/**
 * Running a request through its chain: the folder middlewares a route (or a not-found path) has,
 * in order, each going on with `await ctx.next()`, then the last step, which for a route is the
 * handler of the request's method (HEAD as GET), its page, or a 405 answer. A step that answers at
 * once (a cached page) is handed back at once, not through a promise: a chain of such steps answers
 * in the same turn of the event loop as the request came in (`bench/README.md`, request pipeline).
 *
 * `ctx.next()` follows Hono's `compose` rule: a middleware that calls it a second time gets an
 * Error ("next() called multiple times") instead of running the rest of the chain again, and so
 * does the last step, which has nothing after it. Which routes have which middlewares is decided
 * once per route, in `route_table.ts`.
 *
 * @module
 */
import type { Context } from "hono";
import type { Prefixes } from "./prefixes.ts";
import type { AnyHandler, CompiledRoute } from "./route_table.ts";
import type { Method, RouteContext } from "./types.ts";

/** A request's context, whatever its data and state. */
export type AnyContext = RouteContext<unknown, unknown>;

/** The step after every middleware: given the request's context and its route (or `null`). */
export type LastStep<R> = (ctx: AnyContext, route: R) => Response | Promise<Response>;

/**
 * Makes `ctx.next` for one request: the first call runs `chain[0]`, a call from `chain[i]` runs
 * `chain[i + 1]`, and a call from the last middleware runs `last`.
 *
 * The middleware that calls is known by depth: a step takes control when it starts and hands it
 * back to its caller when it ends, so a second call from the same step asks for a step that has
 * already started. (A middleware calling `ctx.next()` twice without waiting for the first call
 * may have the second run the step after its own next one; that step's own call then errs.)
 *
 * @example
 * ```ts
 * ctx.next = chainRunner(ctx, route, route.middlewares, answer);
 * const res = await ctx.next(); // a Response, or a promise of one
 * ```
 */
export function chainRunner<R>(
  ctx: AnyContext,
  route: R,
  chain: AnyHandler[],
  last: LastStep<R>,
): () => Response | Promise<Response> {
  const req = ctx.hono.req.raw;
  let started = -1; // the last step started
  let current = -1; // the step in control, whose `ctx.next()` runs the one after it
  return () => {
    const i = current + 1;
    if (i <= started || i > chain.length) throw new Error("next() called multiple times");
    started = current = i;
    let out: Response | Promise<Response>;
    try {
      const mw = chain[i];
      out = mw ? mw(req, ctx) : last(ctx, route);
    } catch (error) {
      current = i - 1;
      throw error;
    }
    // A step that answers at once (a cached page) is handed on as it is: no promise to wait for.
    if (!(out instanceof Promise)) {
      current = i - 1;
      return out;
    }
    return out.finally(() => current = i - 1);
  };
}

/**
 * The last step of a route's chain, for the routes mounted with `prefixes`: the handler of the
 * request's method (HEAD is answered as GET), else the route's page, else 405 with `Allow` (JSON
 * under a JSON prefix).
 *
 * @example
 * ```ts
 * const answer = answerRoute(prefixes); // once per mount
 * ctx.next = chainRunner(ctx, route, route.middlewares, answer);
 * ```
 */
export function answerRoute(prefixes: Prefixes): LastStep<CompiledRoute> {
  return (ctx, route) => {
    const c = ctx.hono;
    const method = (c.req.method === "HEAD" ? "GET" : c.req.method) as Method;
    if (!route.methods.includes(method)) return methodNotAllowed(c, ctx.url.pathname, route.allow, prefixes);
    const h = route.mod.handler;
    const fn = typeof h === "function" ? h : h?.[method];
    return fn ? fn(c.req.raw, ctx) : ctx.render();
  };
}

function methodNotAllowed(c: Context, path: string, allow: string, prefixes: Prefixes): Response {
  const message = `Method ${c.req.method} is not allowed here; allowed: ${allow}`;
  return prefixes.isJson(path)
    ? c.json(prefixes.jsonError(405, message), 405, { allow })
    : new Response(message, {
      status: 405,
      headers: { allow, "content-type": "text/plain; charset=utf-8" },
    });
}
