/**
 * Types shared by route modules, layouts and the app shell. Mirrors Fresh 1.x names (`Handlers`,
 * `PageProps`, `ctx.render`) so route files would move to Fresh with few edits.
 *
 * @module
 */
import type { Context } from "hono";
import type { ComponentType } from "preact";
import type { Slots } from "./page_cache.ts";

/** What a page component receives. */
export interface PageProps<Data = unknown, State = Record<string, unknown>> {
  url: URL;
  params: Record<string, string>;
  state: State;
  data: Data;
  /** The HTTP status the page is answered with (404 for the not-found page). */
  status: number;
}

/** What `_app.tsx` and `_layout.tsx` receive: the page props plus the wrapped inner component. */
export interface LayoutProps<State = Record<string, unknown>> extends PageProps<unknown, State> {
  Component: ComponentType;
}

/** The per-request context a handler or middleware gets. */
export interface RouteContext<Data = unknown, State = Record<string, unknown>> {
  url: URL;
  params: Record<string, string>;
  state: State;
  /** Renders this route's page component (with layouts and the app shell). */
  render(data?: Data, init?: ResponseInit): Response;
  /**
   * Renders this route's page through the page cache (`page_cache.ts`): on a GET or HEAD answered
   * 200, the HTML of an earlier request with the same key is reused with this response's nonce
   * and slot values filled in; otherwise, or on a miss, the page is rendered.
   */
  renderCached(input: CachedRender<Data>, init?: ResponseInit): Response | Promise<Response>;
  /** Renders the not-found page with status 404. */
  renderNotFound(): Response;
  /** Middleware only: runs the rest of the chain (its answer at once when it has it, else a promise). */
  next(): Response | Promise<Response>;
  /** The underlying Hono context, for what this layer does not wrap (headers, cookies). */
  hono: Context;
}

/** What {@link RouteContext.renderCached} needs. */
export interface CachedRender<Data> {
  /**
   * Every input besides the URL that changes this page's HTML (language, flags, mode…), as a
   * string. Two requests to the same URL with the same key must render the same HTML but for the
   * slots; anything that differs per visitor or per response must be a slot, never in the key's
   * HTML.
   */
  key: string;
  /**
   * The page data, built with `slots.text(name)` / `slots.number(name)` wherever a per-response
   * value goes. Called on a miss (the slots answer markers) and when the response is not cached
   * (they answer this response's values).
   */
  data(slots: Slots): Data | Promise<Data>;
  /** This response's value of every slot the data uses. */
  slots: Record<string, string>;
}

export type Handler<Data = unknown, State = Record<string, unknown>> = (
  req: Request,
  ctx: RouteContext<Data, State>,
) => Response | Promise<Response>;

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Handlers<Data = unknown, State = Record<string, unknown>> = Partial<
  Record<Method, Handler<Data, State>>
>;

/** A module under `routes/`. */
export interface RouteModule {
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<PageProps<any, any>>;
  // deno-lint-ignore no-explicit-any
  handler?: Handler<any, any> | Handlers<any, any>;
}

/** `_app.tsx` / `_layout.tsx`. */
export interface LayoutModule {
  // deno-lint-ignore no-explicit-any
  default: ComponentType<LayoutProps<any>>;
}

/** `_middleware.ts`: one handler or a list, each calling `ctx.next()` to continue. */
export interface MiddlewareModule {
  // deno-lint-ignore no-explicit-any
  handler: Handler<any, any> | Handler<any, any>[];
}

/** `_404.tsx`. */
export interface NotFoundModule {
  // deno-lint-ignore no-explicit-any
  default: ComponentType<PageProps<any, any>>;
}

/** An island module: its default export is the component. */
export interface IslandModule {
  // deno-lint-ignore no-explicit-any
  default: ComponentType<any>;
}

/** Any module under `routes/`. */
export type RouteFileModule = RouteModule | LayoutModule | MiddlewareModule | NotFoundModule;

/** The generated `manifest.gen.ts`: every route file and island, statically imported. */
export interface Manifest {
  /** Keys are paths relative to `routes/`, e.g. `[lang]/index.tsx`. */
  routes: Record<string, RouteFileModule>;
  /** Keys are island names (file names without extension). */
  islands: Record<string, IslandModule>;
}

/**
 * The generated `manifest.lazy.gen.ts`, which the server mounts: each route file as a loader
 * (`() => import(…)`), called on the route's first request; islands statically imported.
 */
export interface LazyManifest {
  /** Keys are paths relative to `routes/`, e.g. `[lang]/index.tsx`. */
  routes: Record<string, () => Promise<RouteFileModule>>;
  /** Keys are island names (file names without extension). */
  islands: Record<string, IslandModule>;
}
