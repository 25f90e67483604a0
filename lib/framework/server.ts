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
import type { ComponentType } from "preact";
import { registerIslands } from "./islands.ts";
import { renderPage } from "./render.ts";
import { classifyRouteFile, prefixMatches, type RouteFile, sortRoutes } from "./router.ts";
import type {
  Handler,
  Handlers,
  LayoutModule,
  LayoutProps,
  Manifest,
  Method,
  MiddlewareModule,
  NotFoundModule,
  PageProps,
  RouteContext,
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

/**
 * Registers every route of `manifest` on `app`, then the not-found fallback.
 *
 * @example
 * ```ts
 * const app = new Hono({ strict: false });
 * mountRoutes(app, manifest, { state: (c) => c.get("state"), nonce: (c) => c.get("secureHeadersNonce") });
 * ```
 */
export function mountRoutes<State>(app: Hono, manifest: Manifest, options: MountOptions<State>): void {
  registerIslands(manifest.islands);
  const jsonPrefixes = options.jsonPrefixes ?? ["/api"];
  const jsonError = options.jsonError ?? ((statusCode, message) => ({ message, statusCode }));
  const under = (prefixes: string[], path: string) =>
    prefixes.some((p) => path === p || path.startsWith(p + "/"));
  const isJson = (path: string) => under(jsonPrefixes, path);
  const reserved = [...jsonPrefixes, ...(options.reservedPrefixes ?? [])];
  const reservedFor = (path: string) => reserved.find((p) => under([p], path));

  const files = Object.keys(manifest.routes).map((f) => classifyRouteFile(f)).filter((f) => f !== null);
  const of = <T>(kind: RouteFile["kind"]) =>
    files.filter((f) => f.kind === kind).map((f) => ({ file: f, mod: manifest.routes[f.file] as T }));
  const app_ = of<LayoutModule>("app")[0]?.mod.default;
  const notFoundPage = of<NotFoundModule>("notFound")[0]?.mod.default;
  // Outer folders first: `/` before `/:lang`.
  const byDepth = (a: { file: RouteFile }, b: { file: RouteFile }) =>
    a.file.pattern.split("/").length - b.file.pattern.split("/").length;
  const middlewares = of<MiddlewareModule>("middleware").sort(byDepth);
  const layouts = of<LayoutModule>("layout").sort(byDepth);

  const routes: Compiled[] = sortRoutes(files.filter((f) => f.kind === "route")).map((file) => {
    const mod = manifest.routes[file.file] as RouteModule;
    const handler = mod.handler;
    const methods = typeof handler === "function"
      ? [...METHODS]
      : handler
      ? METHODS.filter((m) => typeof (handler as Handlers)[m] === "function")
      : [];
    if (mod.default && !methods.includes("GET")) methods.unshift("GET");
    if (!mod.default && !handler) {
      throw new Error(`routes/${file.file}: exports neither a handler nor a page`);
    }
    return {
      file,
      mod,
      methods,
      middlewares: middlewares.filter((m) => prefixMatches(m.file.pattern, file.pattern)).flatMap((m) =>
        Array.isArray(m.mod.handler) ? m.mod.handler : [m.mod.handler]
      ),
      layouts: layouts.filter((l) => prefixMatches(l.file.pattern, file.pattern)).map((l) => l.mod.default),
    };
  });

  // Params of a path no route matched, from the folders it falls in (`/:lang` gives `lang`).
  const fallbackParams = (path: string) =>
    Object.assign({}, ...[...middlewares, ...layouts].map((m) => folderParams(m.file.pattern, path) ?? {}));

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
      renderNotFound: () => notFound(),
      next: async () => {
        const mw = chain[index++];
        return mw ? await mw(c.req.raw, ctx) : await final();
      },
    };
    const page = (
      component: ComponentType<PageProps>,
      pageLayouts: ComponentType<LayoutProps>[],
      data: unknown,
      status: number,
      init?: ResponseInit,
    ) => {
      const props: PageProps<unknown, State> = { url, params: ctx.params, state: ctx.state, data, status };
      const html = renderPage({
        app: app_,
        layouts: pageLayouts,
        page: component as ComponentType<PageProps>,
        props: props as PageProps,
        nonce: options.nonce(c),
      });
      const headers = new Headers(init?.headers);
      headers.set("content-type", "text/html; charset=utf-8");
      if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
      return new Response(html, { ...init, status, headers });
    };
    const notFound = () => {
      if (isJson(url.pathname)) return c.json(jsonError(404, "Not found"), 404);
      if (reservedFor(url.pathname) || !notFoundPage) return c.text("Not found", 404);
      const pageLayouts = layouts.filter((l) => folderMatches(l.file.pattern, url.pathname)).map((l) =>
        l.mod.default
      );
      return page(notFoundPage, pageLayouts, undefined, 404);
    };
    return ctx;
  };

  for (const route of routes) {
    app.all(route.file.pattern, async (c, next) => {
      // `/:lang` must not swallow `/api` or `/_app/…`: those fall through to their own 404.
      const owner = reservedFor(c.req.path);
      if (owner && !under([owner], route.file.pattern)) return await next();
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
      // Through newResponse, headers set on `c` by earlier middleware (the request id) are kept.
      return c.newResponse(c.req.method === "HEAD" ? null : res.body, res);
    });
  }

  app.notFound(async (c) => {
    const path = new URL(c.req.url).pathname;
    const chain = reservedFor(path)
      ? []
      : middlewares.filter((m) => folderMatches(m.file.pattern, path)).flatMap((m) =>
        Array.isArray(m.mod.handler) ? m.mod.handler : [m.mod.handler]
      );
    const ctx = context(c, null, chain, () => ctx.renderNotFound());
    const res = await ctx.next();
    return c.newResponse(c.req.method === "HEAD" ? null : res.body, res);
  });
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
