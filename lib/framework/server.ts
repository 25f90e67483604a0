/**
 * Mounts the file routes of a manifest on a Hono app: each route with the `_middleware.ts` files
 * and `_layout.tsx` files of its folders, method dispatch with 405 answers, HEAD as GET without a
 * body, and a not-found fallback that still runs the middlewares of the folders the path falls in
 * (so `/fr/nope` can be redirected by `routes/[lang]/_middleware.ts` before it is called missing).
 *
 * Paths under a JSON prefix (e.g. `/api`) answer JSON 404 and 405 instead of pages.
 *
 * @module
 */
import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentType } from "preact";
import { registerIslands } from "./islands.ts";
import { NONCE_SLOT, PageCache, type PageCacheOptions, type Slots } from "./page_cache.ts";
import { renderPage } from "./render.ts";
import { classifyRouteFile, prefixMatches, type RouteFile, sortRoutes } from "./router.ts";
import type {
  Handler,
  Handlers,
  LayoutModule,
  LayoutProps,
  LazyManifest,
  Manifest,
  Method,
  MiddlewareModule,
  NotFoundModule,
  PageProps,
  RouteContext,
  RouteFileModule,
  RouteModule,
} from "./types.ts";

/** Options of {@link mountRoutes}. */
export interface MountOptions<State> {
  /** Per-request state; middlewares fill it. */
  state(c: Context): State;
  /** The CSP nonce of the response, for the island script. */
  nonce(c: Context): string | undefined;
  /** Path prefixes whose errors are JSON (default `["/api"]`). */
  jsonPrefixes?: string[];
  /**
   * Path prefixes that belong to something else (e.g. built assets under `/_app`): a path under
   * one never reaches a route outside it, nor a folder middleware, and a miss is a plain 404.
   */
  reservedPrefixes?: string[];
  /** Builds a JSON error body (default `{ message, statusCode }`). */
  jsonError?(status: number, message: string): unknown;
  /** Bounds of the page cache that `ctx.renderCached` uses (one cache per mounted app). */
  pageCache?: PageCacheOptions;
}

const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

// deno-lint-ignore no-explicit-any
type AnyHandler = Handler<any, any>;

interface Compiled {
  file: RouteFile;
  mod: RouteModule;
  middlewares: AnyHandler[];
  layouts: ComponentType<LayoutProps>[];
  methods: Method[];
}

/** A route before and after its modules are loaded. */
interface Entry {
  file: RouteFile;
  compiled?: Compiled;
  pending?: Promise<Compiled>;
}

/** What the file routes of `manifest.lazy.gen.ts` mount: loads route modules, by route file. */
const preloaders = new WeakMap<object, (select: (file: string) => boolean) => Promise<void>>();

/**
 * Loads, in the background, the route modules of an app mounted by {@link mountRoutes} whose
 * file `select` picks (with the middlewares, layouts, `_app` and `_404` they use), one route at a
 * time, shortest patterns first (`[lang]/index.tsx` before `[lang]/success.tsx`), so that a request
 * arriving meanwhile waits for no more than its own route. Errors are left to the route's first
 * request to report. Nothing to do for a manifest of modules.
 *
 * @example
 * ```ts
 * Deno.serve({ onListen: () => preloadRoutes(app, (f) => f.startsWith("[lang]/")) }, app.fetch);
 * ```
 */
export async function preloadRoutes(app: object, select: (file: string) => boolean): Promise<void> {
  await preloaders.get(app)?.(select);
}

/**
 * Registers every route of `manifest` on `app`, then the not-found fallback. With a lazy manifest
 * (`manifest.lazy.gen.ts`), a route's modules load on its first request, which then answers as
 * usual (a method the module does not answer gets 405 once it is loaded); routing and 404 need
 * no module, as the patterns come from the file names.
 *
 * @example
 * ```ts
 * const app = new Hono({ strict: false });
 * mountRoutes(app, manifest, { state: (c) => c.get("state"), nonce: (c) => c.get("secureHeadersNonce") });
 * ```
 */
export function mountRoutes<State>(
  app: Hono,
  manifest: Manifest | LazyManifest,
  options: MountOptions<State>,
): void {
  registerIslands(manifest.islands);
  const jsonPrefixes = options.jsonPrefixes ?? ["/api"];
  const jsonError = options.jsonError ?? ((statusCode, message) => ({ message, statusCode }));
  const under = (prefixes: string[], path: string) =>
    prefixes.some((p) => path === p || path.startsWith(p + "/"));
  const isJson = (path: string) => under(jsonPrefixes, path);
  const reserved = [...jsonPrefixes, ...(options.reservedPrefixes ?? [])];
  const reservedFor = (path: string) => reserved.find((p) => under([p], path));
  const pageCache = new PageCache(options.pageCache);

  // Modules by route file: those of a manifest of modules at once, those of a lazy one when a
  // request (or `preloadRoutes`) first needs them; a failed load is tried again next time.
  const loaded = new Map<string, RouteFileModule>();
  const loading = new Map<string, Promise<RouteFileModule>>();
  for (const [file, entry] of Object.entries(manifest.routes)) {
    if (typeof entry !== "function") loaded.set(file, entry);
  }
  const load = (files: string[]): Promise<unknown> | null => {
    const waits: Promise<RouteFileModule>[] = [];
    for (const file of files) {
      if (loaded.has(file)) continue;
      let wait = loading.get(file);
      if (!wait) {
        const loader = manifest.routes[file] as () => Promise<RouteFileModule>;
        wait = loader().then((mod) => {
          loaded.set(file, mod);
          return mod;
        }).finally(() => loading.delete(file));
        loading.set(file, wait);
      }
      waits.push(wait);
    }
    return waits.length === 0 ? null : Promise.all(waits);
  };
  const mod = <T>(file: string) => loaded.get(file) as T;

  const files = Object.keys(manifest.routes).map((f) => classifyRouteFile(f)).filter((f) => f !== null);
  const of = (kind: RouteFile["kind"]) => files.filter((f) => f.kind === kind);
  const appFile = of("app")[0];
  const notFoundFile = of("notFound")[0];
  // Outer folders first: `/` before `/:lang`.
  const byDepth = (a: RouteFile, b: RouteFile) => a.pattern.split("/").length - b.pattern.split("/").length;
  const middlewares = of("middleware").sort(byDepth);
  const layouts = of("layout").sort(byDepth);
  // Every page may render the shell: `_app`, `_404` and the layouts (few, and shared).
  const shellFiles = [appFile, notFoundFile, ...layouts].filter((f) => f !== undefined).map((f) => f.file);
  let app_: ComponentType<LayoutProps> | undefined;
  let notFoundPage: ComponentType<PageProps> | undefined;
  const shellReady = () => {
    app_ = appFile && mod<LayoutModule>(appFile.file).default;
    notFoundPage = notFoundFile && mod<NotFoundModule>(notFoundFile.file).default;
  };
  const layoutOf = (l: RouteFile) => mod<LayoutModule>(l.file).default;
  const handlersOf = (m: RouteFile) => {
    const handler = mod<MiddlewareModule>(m.file).handler;
    return Array.isArray(handler) ? handler : [handler];
  };

  const routeMiddlewares = (file: RouteFile) =>
    middlewares.filter((m) => prefixMatches(m.pattern, file.pattern));
  const routeLayouts = (file: RouteFile) => layouts.filter((l) => prefixMatches(l.pattern, file.pattern));
  const compile = (file: RouteFile): Compiled => {
    const route = mod<RouteModule>(file.file);
    const handler = route.handler;
    const methods = typeof handler === "function"
      ? [...METHODS]
      : handler
      ? METHODS.filter((m) => typeof (handler as Handlers)[m] === "function")
      : [];
    if (route.default && !methods.includes("GET")) methods.unshift("GET");
    if (!route.default && !handler) {
      throw new Error(`routes/${file.file}: exports neither a handler nor a page`);
    }
    return {
      file,
      mod: route,
      methods,
      middlewares: routeMiddlewares(file).flatMap(handlersOf),
      layouts: routeLayouts(file).map(layoutOf),
    };
  };
  const entries: Entry[] = sortRoutes(files.filter((f) => f.kind === "route")).map((file) => ({ file }));
  /** The route compiled, or a promise of it while its modules load. */
  const ready = (entry: Entry): Compiled | Promise<Compiled> => {
    if (entry.compiled) return entry.compiled;
    const wait = load([entry.file.file, ...routeMiddlewares(entry.file).map((m) => m.file), ...shellFiles]);
    if (!wait) {
      shellReady();
      return entry.compiled = compile(entry.file);
    }
    return entry.pending ??= wait.then(() => {
      shellReady();
      return entry.compiled = compile(entry.file);
    }).finally(() => entry.pending = undefined);
  };
  // A manifest of modules is checked and compiled now, as before: a bad route fails the start.
  for (const entry of entries) {
    if (typeof manifest.routes[entry.file.file] !== "function") ready(entry);
  }
  if (!load(shellFiles)) shellReady();

  preloaders.set(app, async (select) => {
    const chosen = entries.filter((e) => select(e.file.file)).sort((a, b) =>
      a.file.pattern.split("/").length - b.file.pattern.split("/").length
    );
    for (const entry of chosen) {
      try {
        await ready(entry);
      } catch {
        // The route's first request reports it.
      }
    }
  });

  // Params of a path no route matched, from the folders it falls in (`/:lang` gives `lang`).
  const fallbackParams = (path: string) =>
    Object.assign({}, ...[...middlewares, ...layouts].map((m) => folderParams(m.pattern, path) ?? {}));

  const context = (
    c: Context,
    route: Compiled | null,
    chain: AnyHandler[],
    final: () => Response | Promise<Response>,
  ) => {
    let index = 0;
    const url = new URL(c.req.url);
    const ctx: RouteContext<unknown, State> = {
      url,
      params: route ? c.req.param() as Record<string, string> : fallbackParams(url.pathname),
      state: options.state(c),
      hono: c,
      render(data, init) {
        if (!route?.mod.default) {
          throw new Error(`routes/${route?.file.file}: has no page component to render`);
        }
        return page(route.mod.default, route.layouts, data, init?.status ?? 200, init);
      },
      async renderCached(input, init) {
        const component = route?.mod.default;
        if (!component) throw new Error(`routes/${route?.file.file}: has no page component to render`);
        const nonce = options.nonce(c);
        const status = init?.status ?? 200;
        const key = `${route.file.file}\n${url.href}\n${nonce ? "nonce" : "-"}\n${input.key}`;
        const method = c.req.method;
        if (
          status !== 200 || (method !== "GET" && method !== "HEAD") || key.length > pageCache.maxKeyLength
        ) {
          // Not cacheable: the slots answer this response's own values.
          const own: Slots = {
            text: (name) => slotValue(input.slots, name),
            number: (name) => Number(slotValue(input.slots, name)),
          };
          return page(component, route.layouts, await input.data(own), status, init);
        }
        let template = pageCache.get(key);
        if (!template) {
          const data = await input.data(pageCache.slots);
          const html = renderHtml(
            component,
            route.layouts,
            data,
            status,
            nonce ? pageCache.slots.text(NONCE_SLOT) : undefined,
          );
          // The page must take per-response values from slots only: this response's own nonce in
          // the template would be served to everyone with this key.
          if (nonce && html.includes(nonce)) {
            throw new Error(`routes/${route.file.file}: a cached page must not render the CSP nonce itself`);
          }
          template = pageCache.cut(html, Object.keys(input.slots));
          pageCache.set(key, template);
        }
        const values = nonce ? { ...input.slots, [NONCE_SLOT]: nonce } : input.slots;
        return htmlResponse(c, pageCache.fill(template, values), status, init);
      },
      renderNotFound: () => notFound(),
      next: async () => {
        const mw = chain[index++];
        return mw ? await mw(c.req.raw, ctx) : await final();
      },
    };
    const renderHtml = (
      component: ComponentType<PageProps>,
      pageLayouts: ComponentType<LayoutProps>[],
      data: unknown,
      status: number,
      nonce: string | undefined,
    ) => {
      const props: PageProps<unknown, State> = { url, params: ctx.params, state: ctx.state, data, status };
      return renderPage({
        app: app_,
        layouts: pageLayouts,
        page: component as ComponentType<PageProps>,
        props: props as PageProps,
        nonce,
      });
    };
    const page = (
      component: ComponentType<PageProps>,
      pageLayouts: ComponentType<LayoutProps>[],
      data: unknown,
      status: number,
      init?: ResponseInit,
    ) => htmlResponse(c, renderHtml(component, pageLayouts, data, status, options.nonce(c)), status, init);
    const notFound = () => {
      if (isJson(url.pathname)) return c.json(jsonError(404, "Not found"), 404);
      if (reservedFor(url.pathname) || !notFoundPage) return c.text("Not found", 404);
      const pageLayouts = layouts.filter((l) => folderMatches(l.pattern, url.pathname)).map(layoutOf);
      return page(notFoundPage, pageLayouts, undefined, 404);
    };
    return ctx;
  };

  for (const entry of entries) {
    app.all(entry.file.pattern, async (c, next) => {
      // `/:lang` must not swallow `/api` or `/_app/…`: those fall through to their own 404.
      const owner = reservedFor(c.req.path);
      if (owner && !under([owner], entry.file.pattern)) return await next();
      const route = entry.compiled ?? await ready(entry);
      const method = (c.req.method === "HEAD" ? "GET" : c.req.method) as Method;
      const ctx = context(c, route, route.middlewares, () => {
        if (!route.methods.includes(method)) {
          const allow = [...route.methods, ...(route.methods.includes("GET") ? ["HEAD"] : [])].join(", ");
          const message = `Method ${c.req.method} is not allowed here; allowed: ${allow}`;
          return isJson(ctx.url.pathname)
            ? c.json(jsonError(405, message), 405, { allow })
            : new Response(message, {
              status: 405,
              headers: { allow, "content-type": "text/plain; charset=utf-8" },
            });
        }
        const h = route.mod.handler;
        const fn = typeof h === "function" ? h : h?.[method];
        return fn ? fn(c.req.raw, ctx) : ctx.render();
      });
      const res = await ctx.next();
      // Headers set on `c` by earlier middleware (the request id) are kept.
      return own(c, res);
    });
  }

  app.notFound(async (c) => {
    const path = new URL(c.req.url).pathname;
    const folders = reservedFor(path) ? [] : middlewares.filter((m) => folderMatches(m.pattern, path));
    const wait = load([...folders.map((m) => m.file), ...shellFiles]);
    if (wait) {
      await wait;
      shellReady();
    }
    const chain = folders.flatMap(handlersOf);
    const ctx = context(c, null, chain, () => ctx.renderNotFound());
    const res = await ctx.next();
    return own(c, res);
  });
}

// Pages made here are made through Hono's context (`c.body`), so they carry the headers earlier
// middleware set on it (the request id); other responses are copied onto it. Copying a page would
// cost a second Response and turn its bytes into a stream.
const madeByContext = new WeakSet<Response>();

/** A page response: HTML, never stored by caches unless the route says otherwise, no body for HEAD. */
function htmlResponse(
  c: Context,
  html: string | Uint8Array<ArrayBuffer>,
  status: number,
  init?: ResponseInit,
): Response {
  const body = c.req.method === "HEAD" ? null : html;
  const res = c.body(body as string, {
    ...init,
    status: status as ContentfulStatusCode,
    headers: init?.headers ?? {},
  });
  res.headers.set("content-type", "text/html; charset=utf-8");
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  madeByContext.add(res);
  return res;
}

/** A handler's response with the context's headers (the request id); no body for HEAD. */
function own(c: Context, res: Response): Response {
  if (madeByContext.has(res)) return res;
  return c.newResponse(c.req.method === "HEAD" ? null : res.body, res);
}

function slotValue(slots: Record<string, string>, name: string): string {
  const value = slots[name];
  if (value === undefined) {
    throw new Error(`renderCached: the page uses slot "${name}" but no value was given`);
  }
  return value;
}

/**
 * The params a folder pattern such as `/:lang` takes from a concrete path such as `/en/nope`, or
 * `null` when the path is not in that folder.
 *
 * @example
 * ```ts
 * folderParams("/:lang", "/en/nope"); // { lang: "en" }
 * folderParams("/api", "/en/nope"); // null
 * ```
 */
export function folderParams(pattern: string, path: string): Record<string, string> | null {
  if (pattern === "/") return {};
  const want = pattern.split("/").slice(1);
  const have = path.split("/").slice(1);
  if (have.length < want.length) return null;
  const params: Record<string, string> = {};
  for (const [i, seg] of want.entries()) {
    if (seg.startsWith(":") && have[i] !== "") params[seg.slice(1)] = safeDecode(have[i]);
    else if (seg !== have[i]) return null;
  }
  return params;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Whether a folder pattern covers a concrete path. */
export function folderMatches(pattern: string, path: string): boolean {
  return folderParams(pattern, path) !== null;
}
