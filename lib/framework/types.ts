/**
 * Types shared by route modules, layouts and the app shell. Mirrors Fresh 1.x names (`Handlers`,
 * `PageProps`, `ctx.render`) so route files would move to Fresh with few edits.
 *
 * @module
 */
import type { Context } from "hono";
import type { ComponentType } from "preact";

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
  /** Renders the not-found page with status 404. */
  renderNotFound(): Response;
  /** Middleware only: runs the rest of the chain. */
  next(): Promise<Response>;
  /** The underlying Hono context, for what this layer does not wrap (headers, cookies). */
  hono: Context;
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

/** The generated `manifest.gen.ts`: every route file and island, statically imported. */
export interface Manifest {
  /** Keys are paths relative to `routes/`, e.g. `[lang]/index.tsx`. */
  routes: Record<string, RouteModule | LayoutModule | MiddlewareModule | NotFoundModule>;
  /** Keys are island names (file names without extension). */
  islands: Record<string, IslandModule>;
}
