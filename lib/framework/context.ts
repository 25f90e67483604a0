/**
 * The request context a route handler or middleware gets (`RouteContext` in `types.ts`): the URL,
 * the params (for a path no route matched, those of the folders it falls in), the app's state,
 * and the ways to answer with a page: `ctx.render`, `ctx.renderCached` (through the page cache,
 * `page_cache.ts`), `ctx.renderNotFound`, and `ctx.next` (from `chain.ts`).
 *
 * Rendering HTML is `render.ts`'s part; this module makes the responses around it
 * (`response.ts`) with the layouts and shell the route table holds.
 *
 * @module
 */
import type { Context, Env } from "hono";
import type { ComponentType } from "preact";
import { chainRunner, type LastStep } from "./chain.ts";
import {
  NONCE_SLOT,
  type PageCache,
  type PageCacheOptions,
  type PageTemplate,
  type Slots,
} from "./page_cache.ts";
import type { Prefixes } from "./prefixes.ts";
import { renderPage } from "./render.ts";
import { htmlResponse } from "./response.ts";
import type { AnyHandler, CompiledRoute, RouteTable } from "./route_table.ts";
import type { CachedRender, LayoutProps, PageProps, RouteContext } from "./types.ts";

/** The context options of `mountRoutes`, for an app whose Hono env is `E`. */
export interface ContextOptions<State, E extends Env = Env> {
  /** Per-request state; middlewares fill it. */
  state(c: Context<E>): State;
  /** The CSP nonce of the response, for the island script. */
  nonce(c: Context<E>): string | undefined;
  /**
   * Headers every page of this request carries (the app's security headers, the request id): a
   * page is then made with them at once, instead of the app setting them afterwards. A new object
   * for each call: the page's response takes it and adds its own headers to it.
   */
  headers?(c: Context<E>): Record<string, string>;
  /** Bounds of the page cache that `ctx.renderCached` uses (one cache per mounted app). */
  pageCache?: PageCacheOptions;
  /**
   * Called once per route whose own cache key (`renderCached`'s `key`) takes more than half the
   * longest key cached: its pages would then miss the cache for long URLs, or for every URL once
   * it passes the limit. A route's key must name its inputs, not hold them (a version, not the data).
   */
  longPageKey?(route: string, length: number): void;
}

/**
 * Makes the request contexts of one mounted app.
 *
 * @example
 * ```ts
 * const contexts = new Contexts(options, table, prefixes, new PageCache());
 * const ctx = contexts.create(c, route, route.middlewares, answer);
 * return own(c, await ctx.next());
 * ```
 */
export class Contexts<State, E extends Env = Env> {
  readonly #options: ContextOptions<State, E>;
  readonly #table: RouteTable;
  readonly #prefixes: Prefixes;
  readonly #pageCache: PageCache;
  readonly #longKeysTold = new Set<string>();

  constructor(
    options: ContextOptions<State, E>,
    table: RouteTable,
    prefixes: Prefixes,
    pageCache: PageCache,
  ) {
    this.#options = options;
    this.#table = table;
    this.#prefixes = prefixes;
    this.#pageCache = pageCache;
  }

  /**
   * The context of one request: `route` is the matched route, or `null` for a path none matched;
   * `ctx.next()` runs `chain`, then `last`.
   */
  create<R extends CompiledRoute | null>(
    c: Context<E>,
    route: R,
    chain: AnyHandler[],
    last: LastStep<R>,
  ): RouteContext<unknown, State> {
    const params = route
      ? c.req.param() as Record<string, string>
      : this.#table.fallbackParams(new URL(c.req.url).pathname);
    const ctx = new RequestContext<State, E>(this, c, route, params, this.#options.state(c));
    ctx.next = chainRunner(ctx, route, chain, last);
    return ctx;
  }

  /** `ctx.render` of a request (a route's page). */
  render(
    ctx: RouteContext<unknown, State>,
    route: CompiledRoute | null,
    data: unknown,
    init?: ResponseInit,
  ): Response {
    assertPage(route);
    return this.#page(ctx, route.mod.default, route.layouts, data, init?.status ?? 200, init);
  }

  /**
   * `ctx.renderCached` of a request: a hit answers at once; a miss, or a page that may not be
   * cached, renders (and may wait for its data).
   */
  renderCached(
    ctx: RouteContext<unknown, State>,
    route: CompiledRoute | null,
    input: CachedRender<unknown>,
    init: ResponseInit | undefined,
  ): Response | Promise<Response> {
    assertPage(route);
    const c = ctx.hono;
    const pageCache = this.#pageCache;
    const nonce = this.#options.nonce(c);
    const status = init?.status ?? 200;
    // The request's URL as received: an equal URL written otherwise is only another entry.
    const key = `${route.file.file}\n${c.req.url}\n${nonce ? "nonce" : "-"}\n${input.key}`;
    const method = c.req.method;
    if (input.key.length > pageCache.maxKeyLength / 2 && !this.#longKeysTold.has(route.file.file)) {
      this.#longKeysTold.add(route.file.file);
      this.#options.longPageKey?.(route.file.file, input.key.length);
    }
    if (status !== 200 || (method !== "GET" && method !== "HEAD") || key.length > pageCache.maxKeyLength) {
      // Not cacheable: the slots answer this response's own values.
      const own: Slots = {
        text: (name) => slotValue(input.slots, name),
        number: (name) => Number(slotValue(input.slots, name)),
      };
      return (async () =>
        this.#page(ctx, route.mod.default, route.layouts, await input.data(own), status, init))();
    }
    const template = pageCache.get(key);
    if (template) return this.#fill(c, template, input, nonce, status, init);
    return this.#renderTemplate(ctx, route, key, input, nonce, status, init);
  }

  async #renderTemplate(
    ctx: RouteContext<unknown, State>,
    route: PageRoute,
    key: string,
    input: CachedRender<unknown>,
    nonce: string | undefined,
    status: number,
    init: ResponseInit | undefined,
  ): Promise<Response> {
    const { layouts, file, mod: { default: component } } = route;
    const pageCache = this.#pageCache;
    let template = pageCache.get(key);
    if (!template) {
      const data = await input.data(pageCache.slots);
      const slot = nonce ? pageCache.slots.text(NONCE_SLOT) : undefined;
      const html = this.#html(ctx, component, layouts, data, status, slot);
      // The page must take per-response values from slots only: this response's own nonce in
      // the template would be served to everyone with this key.
      if (nonce && html.includes(nonce)) {
        throw new Error(`routes/${file.file}: a cached page must not render the CSP nonce itself`);
      }
      template = pageCache.cut(html, Object.keys(input.slots));
      pageCache.set(key, template);
    }
    return this.#fill(ctx.hono, template, input, nonce, status, init);
  }

  #fill(
    c: Context<E>,
    template: PageTemplate,
    input: CachedRender<unknown>,
    nonce: string | undefined,
    status: number,
    init: ResponseInit | undefined,
  ): Response {
    const values = nonce ? { ...input.slots, [NONCE_SLOT]: nonce } : input.slots;
    return htmlResponse(c, this.#pageCache.fill(template, values), status, init, this.#options.headers?.(c));
  }

  /**
   * `ctx.renderNotFound` of a request: JSON under a JSON prefix, text under another reserved one,
   * else `_404`.
   */
  renderNotFound(ctx: RouteContext<unknown, State>): Response {
    const c = ctx.hono;
    const path = ctx.url.pathname;
    if (this.#prefixes.isJson(path)) return c.json(this.#prefixes.jsonError(404, "Not found"), 404);
    const notFoundPage = this.#table.notFoundPage;
    if (this.#prefixes.reservedFor(path) || !notFoundPage) return c.text("Not found", 404);
    return this.#page(ctx, notFoundPage, this.#table.layoutsFor(path), undefined, 404);
  }

  #page(
    ctx: RouteContext<unknown, State>,
    component: ComponentType<PageProps>,
    layouts: ComponentType<LayoutProps>[],
    data: unknown,
    status: number,
    init?: ResponseInit,
  ): Response {
    const html = this.#html(ctx, component, layouts, data, status, this.#options.nonce(ctx.hono));
    return htmlResponse(ctx.hono, html, status, init, this.#options.headers?.(ctx.hono));
  }

  #html(
    ctx: RouteContext<unknown, State>,
    component: ComponentType<PageProps>,
    layouts: ComponentType<LayoutProps>[],
    data: unknown,
    status: number,
    nonce: string | undefined,
  ): string {
    const props: PageProps<unknown, State> = {
      url: ctx.url,
      params: ctx.params,
      state: ctx.state,
      data,
      status,
    };
    return renderPage({ app: this.#table.app, layouts, page: component, props: props as PageProps, nonce });
  }
}

/** A route with a page component to render. */
type PageRoute = CompiledRoute & { mod: { default: ComponentType<PageProps> } };

/** Refuses to render a route (or a path no route matched) that has no page component. */
function assertPage(route: CompiledRoute | null): asserts route is PageRoute {
  if (!route?.mod.default) {
    throw new Error(`routes/${route?.file.file ?? "(no route matched)"}: has no page component to render`);
  }
}

/** `ctx.next` until the chain is attached (at once, by {@link Contexts.create}). */
function notStarted(): Promise<Response> {
  return Promise.reject(new Error("ctx.next(): the chain has not started"));
}

/**
 * The `ctx` of one request. A class, so that every request's context has one shape, its methods
 * live on the prototype, and the URL is parsed only when read (a cached page never needs it): an
 * object literal with closures and a getter for each request cost more in garbage collection than
 * the rest of the route layer (`bench/README.md`, request pipeline).
 */
class RequestContext<State, E extends Env> implements RouteContext<unknown, State> {
  readonly #contexts: Contexts<State, E>;
  readonly #route: CompiledRoute | null;
  #url: URL | undefined;
  readonly hono: Context;
  readonly params: Record<string, string>;
  readonly state: State;
  next: () => Response | Promise<Response> = notStarted;

  constructor(
    contexts: Contexts<State, E>,
    c: Context<E>,
    route: CompiledRoute | null,
    params: Record<string, string>,
    state: State,
  ) {
    this.#contexts = contexts;
    this.#route = route;
    this.hono = c;
    this.params = params;
    this.state = state;
  }

  get url(): URL {
    return this.#url ??= new URL(this.hono.req.url);
  }

  render(data?: unknown, init?: ResponseInit): Response {
    return this.#contexts.render(this, this.#route, data, init);
  }

  renderCached(input: CachedRender<unknown>, init?: ResponseInit): Response | Promise<Response> {
    return this.#contexts.renderCached(this, this.#route, input, init);
  }

  renderNotFound(): Response {
    return this.#contexts.renderNotFound(this);
  }
}

function slotValue(slots: Record<string, string>, name: string): string {
  const value = slots[name];
  if (value === undefined) {
    throw new Error(`renderCached: the page uses slot "${name}" but no value was given`);
  }
  return value;
}
