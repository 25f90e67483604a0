/**
 * Mounts the file routes of a manifest on a Hono app: each route in `sortRoutes` order, then a
 * not-found fallback that still runs the middlewares of the folders the path falls in (so `/fr/nope`
 * can be redirected by `routes/[lang]/_middleware.ts` before it is called missing). Paths under a
 * JSON prefix (e.g. `/api`) answer JSON 404 and 405; a reserved prefix (e.g. `/_app`) keeps its
 * paths from the routes outside it.
 *
 * This module only wires; the parts are, in the order a request meets them:
 * - `route_modules.ts`: loading route modules (at once, or on first use for a lazy manifest), and
 *   {@link preloadRoutes};
 * - `route_table.ts`: compiling a route once: its folders' middlewares and layouts, its methods;
 * - `context.ts`: the `ctx` of a request, with `ctx.render`, `ctx.renderCached` and the 404 page;
 * - `chain.ts`: running the middlewares, then the method's handler, the page, or 405;
 * - `response.ts`: the responses, with the headers of earlier middleware and no body for HEAD;
 * - `prefixes.ts`: the JSON and reserved prefixes.
 *
 * @module
 */
import type { Context, Env, Hono } from "hono";
import { answerRoute, type LastStep } from "./chain.ts";
import { type ContextOptions, Contexts } from "./context.ts";
import { registerIslands } from "./islands.ts";
import { PageCache } from "./page_cache.ts";
import { Prefixes, type PrefixOptions, under } from "./prefixes.ts";
import { own } from "./response.ts";
import { registerPreloader, RouteModules } from "./route_modules.ts";
import { type CompiledRoute, RouteTable } from "./route_table.ts";
import type { LazyManifest, Manifest } from "./types.ts";

export { preloadRoutes } from "./route_modules.ts";

/**
 * What runs before every route and the not-found answer (the app's request pipeline): it answers
 * itself, or calls `next` for the route's answer, which is a Response when the route has it at once
 * (a cached page) and a promise otherwise. It must turn an error of `next` into an answer itself.
 */
export type Front<E extends Env = Env> = (
  c: Context<E>,
  next: () => Response | Promise<Response>,
) => Response | Promise<Response>;

/** Options of {@link mountRoutes}, for an app whose Hono env is `E` (its variables, bindings). */
export interface MountOptions<State, E extends Env = Env> extends ContextOptions<State, E>, PrefixOptions {
  /**
   * The app's request pipeline, run inside each route's Hono handler rather than as Hono middleware
   * (`app.use`): a path then matches one handler, which Hono calls without its `compose`, and a page
   * that answers at once is answered in the same turn, with no promise between the request and its
   * bytes (`bench/README.md`, request pipeline).
   */
  front?: Front<E>;
}

/** The last step of the not-found fallback: after the folders' middlewares, the 404 answer. */
const notFoundAnswer: LastStep<null> = (ctx) => ctx.renderNotFound();

/**
 * Registers every route of `manifest` on `app`, then the not-found fallback. With a lazy manifest
 * (`manifest.lazy.gen.ts`), a route's modules load on its first request, which then answers as
 * usual (a method the module does not answer gets 405 once it is loaded); routing and 404 need
 * no module, as the patterns come from the file names. A manifest of modules is compiled at once,
 * so a bad route fails here.
 *
 * @example
 * ```ts
 * const app = new Hono<{ Variables: { state: AppState } }>({ strict: false });
 * mountRoutes(app, manifest, { state: (c) => c.get("state"), nonce: (c) => c.get("secureHeadersNonce") });
 * ```
 */
export function mountRoutes<E extends Env, State>(
  app: Hono<E>,
  manifest: Manifest | LazyManifest,
  options: MountOptions<State, E>,
): void {
  registerIslands(manifest.islands);
  const prefixes = new Prefixes(options);
  const table = new RouteTable(new RouteModules(manifest.routes), Object.keys(manifest.routes));
  const contexts = new Contexts(options, table, prefixes, new PageCache(options.pageCache));
  const answer = answerRoute(prefixes);
  registerPreloader(app, table.routes, (entry) => table.ready(entry));

  const front = options.front;
  const routeAnswer = (c: Context<E>, route: CompiledRoute): Response | Promise<Response> => {
    const ctx = contexts.create(c, route, route.middlewares, answer);
    const res = ctx.next();
    // Headers set on `c` by earlier middleware (the request id) are kept.
    return res instanceof Promise ? res.then((r) => own(c, r)) : own(c, res);
  };
  for (const entry of table.routes) {
    const respond = (c: Context<E>) => {
      const route = entry.compiled ?? table.ready(entry);
      return route instanceof Promise ? route.then((r) => routeAnswer(c, r)) : routeAnswer(c, route);
    };
    app.all(entry.file.pattern, (c, next) => {
      // `/:lang` must not swallow `/api` or `/_app/…`: those fall through to their own 404.
      const owner = prefixes.reservedFor(c.req.path);
      if (owner && !under(owner, entry.file.pattern)) return next();
      return front ? front(c, () => respond(c)) : respond(c);
    });
  }

  const notFound = async (c: Context<E>) => {
    const path = new URL(c.req.url).pathname;
    let chain = table.notFoundChain(path, !prefixes.reservedFor(path));
    if (chain instanceof Promise) chain = await chain;
    const ctx = contexts.create(c, null, chain, notFoundAnswer);
    return own(c, await ctx.next());
  };
  app.notFound((c) => front ? front(c, () => notFound(c)) : notFound(c));
}
