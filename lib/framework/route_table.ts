/**
 * Compiling routes: for each route file, which `_middleware.ts` and `_layout.tsx` files apply
 * (those of its folders, outer folders first), the methods it answers, and the app shell (`_app`,
 * `_404`) every page may render. A route is compiled once, when its modules are there: at mount
 * for a manifest of modules (so a bad route fails the start), on its first request (or preload)
 * for a lazy one. Running the compiled chain is `chain.ts`'s part.
 *
 * Also here, for a path no route matched: the middlewares, layouts and params of the folders it
 * falls in, so that `/fr/nope` still goes through `routes/[lang]/_middleware.ts`. A group folder's
 * (`(admin)/`) files apply to the routes inside the group only (`router.ts`).
 *
 * @module
 */
import type { ComponentType } from "preact";
import type { RouteModules } from "./route_modules.ts";
import {
  byFolderDepth,
  classifyRouteFile,
  folderMatches,
  folderParams,
  inGroup,
  missScopes,
  prefixMatches,
  type RouteFile,
  sortRoutes,
} from "./router.ts";
import type {
  Handler,
  Handlers,
  LayoutModule,
  LayoutProps,
  Method,
  MiddlewareModule,
  NotFoundModule,
  PageProps,
  RouteModule,
} from "./types.ts";

/** The methods a route module may answer (HEAD comes with GET). */
export const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** A middleware or route handler of any data and state. */
// deno-lint-ignore no-explicit-any
export type AnyHandler = Handler<any, any>;

/** A route ready to answer. */
export interface CompiledRoute {
  file: RouteFile;
  mod: RouteModule;
  /** The handlers of its folders' `_middleware.ts` files, outer folders first, each file's in order. */
  middlewares: AnyHandler[];
  /** Its folders' layouts, outermost first (`_app` is not one: see {@link RouteTable.app}). */
  layouts: ComponentType<LayoutProps>[];
  /** The methods it answers: those of its handler, and GET when it has a page. */
  methods: Method[];
  /** The `Allow` header of its 405 answer: its methods, and HEAD when GET is one. */
  allow: string;
}

/** A route before and after its modules are loaded. */
export interface RouteEntry {
  file: RouteFile;
  compiled?: CompiledRoute;
  pending?: Promise<CompiledRoute>;
}

/**
 * The routes of a manifest, in the order they are tried, and the folders' files they share.
 *
 * @example
 * ```ts
 * const table = new RouteTable(modules, Object.keys(manifest.routes));
 * for (const entry of table.routes) app.all(entry.file.pattern, async (c) => { const route = await table.ready(entry); … });
 * ```
 */
export class RouteTable {
  /** Every route, most specific pattern first (`sortRoutes`). */
  readonly routes: RouteEntry[];
  /** `_app.tsx`'s component, once the shell is loaded. */
  app?: ComponentType<LayoutProps>;
  /** `_404.tsx`'s component, once the shell is loaded. */
  notFoundPage?: ComponentType<PageProps>;
  readonly #modules: RouteModules;
  readonly #middlewares: RouteFile[];
  readonly #layouts: RouteFile[];
  /** The folder patterns in which a path no route matched takes each middleware and layout. */
  readonly #missScopes = new Map<RouteFile, string[]>();
  readonly #appFile?: RouteFile;
  readonly #notFoundFile?: RouteFile;
  /** What any page may render: `_app`, `_404` and the layouts (few, and shared). */
  readonly #shellFiles: string[];

  constructor(modules: RouteModules, files: string[]) {
    this.#modules = modules;
    const classified = files.map((f) => classifyRouteFile(f)).filter((f) => f !== null);
    const of = (kind: RouteFile["kind"]) => classified.filter((f) => f.kind === kind);
    this.#appFile = of("app")[0];
    this.#notFoundFile = of("notFound")[0];
    this.#middlewares = of("middleware").sort(byFolderDepth);
    this.#layouts = of("layout").sort(byFolderDepth);
    for (const f of [...this.#middlewares, ...this.#layouts]) this.#missScopes.set(f, missScopes(f, files));
    this.#shellFiles = [this.#appFile, this.#notFoundFile, ...this.#layouts]
      .filter((f) => f !== undefined).map((f) => f.file);
    this.routes = sortRoutes(of("route")).map((file) => ({ file }));
    // With groups, two files can make one URL; the second would never answer.
    this.routes.forEach(({ file }, i) => {
      const twin = this.routes[i + 1]?.file;
      if (twin?.pattern === file.pattern) {
        const [a, b] = [file.file, twin.file].sort();
        throw new Error(`routes/${a} and routes/${b} both answer ${file.pattern}`);
      }
    });
    // A manifest of modules is checked and compiled now: a bad route fails the start.
    for (const entry of this.routes) {
      if (!modules.isLazy(entry.file.file)) this.ready(entry);
    }
    const shell = modules.load(this.#shellFiles);
    if (!shell) this.#shellReady();
    // Started early for a lazy manifest; a failed load is for the first request to report (it
    // loads the files again), not an unhandled rejection that ends the process.
    else shell.catch(() => {});
  }

  /** The route compiled, or a promise of it while its modules load (one promise for all waiting). */
  ready(entry: RouteEntry): CompiledRoute | Promise<CompiledRoute> {
    if (entry.compiled) return entry.compiled;
    const files = [
      entry.file.file,
      ...this.#middlewaresOf(entry.file).map((m) => m.file),
      ...this.#shellFiles,
    ];
    const wait = this.#modules.load(files);
    if (!wait) {
      this.#shellReady();
      return entry.compiled = this.#compile(entry.file);
    }
    return entry.pending ??= wait.then(() => {
      this.#shellReady();
      return entry.compiled = this.#compile(entry.file);
    }).finally(() => entry.pending = undefined);
  }

  /**
   * The middleware handlers for a path no route matched (those of the folders it falls in, outer
   * first; none with `folders` false), with the shell loaded; a promise while they load.
   */
  notFoundChain(path: string, folders: boolean): AnyHandler[] | Promise<AnyHandler[]> {
    const files = folders ? this.#middlewares.filter((m) => this.#covers(m, path)) : [];
    const wait = this.#modules.load([...files.map((m) => m.file), ...this.#shellFiles]);
    if (!wait) return files.flatMap((m) => this.#handlersOf(m));
    return wait.then(() => {
      this.#shellReady();
      return files.flatMap((m) => this.#handlersOf(m));
    });
  }

  /** The layouts of the folders a path no route matched falls in, outermost first. */
  layoutsFor(path: string): ComponentType<LayoutProps>[] {
    return this.#layouts.filter((l) => this.#covers(l, path)).map((l) => this.#layoutOf(l));
  }

  /** The params of a path no route matched, from the folders it falls in (`/:lang` gives `lang`). */
  fallbackParams(path: string): Record<string, string> {
    return Object.assign(
      {},
      ...[...this.#middlewares, ...this.#layouts].flatMap((m) =>
        this.#missScopes.get(m)!.map((p) => folderParams(p, path) ?? {})
      ),
    );
  }

  /** Whether a path no route matched falls in the folders of `m` (a middleware or layout). */
  #covers(m: RouteFile, path: string): boolean {
    return this.#missScopes.get(m)!.some((p) => folderMatches(p, path));
  }

  /** Whether the folder file `m` applies to the route `file`: its URL folder, and its group. */
  #appliesTo(m: RouteFile, file: RouteFile): boolean {
    return prefixMatches(m.pattern, file.pattern) && inGroup(m, file.file);
  }

  #compile(file: RouteFile): CompiledRoute {
    const route = this.#modules.get<RouteModule>(file.file);
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
      allow: [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].join(", "),
      middlewares: this.#middlewaresOf(file).flatMap((m) => this.#handlersOf(m)),
      layouts: this.#layouts.filter((l) => this.#appliesTo(l, file)).map((l) => this.#layoutOf(l)),
    };
  }

  #middlewaresOf(file: RouteFile): RouteFile[] {
    return this.#middlewares.filter((m) => this.#appliesTo(m, file));
  }

  #handlersOf(m: RouteFile): AnyHandler[] {
    const handler = this.#modules.get<MiddlewareModule>(m.file).handler;
    return Array.isArray(handler) ? handler : [handler];
  }

  #layoutOf(l: RouteFile): ComponentType<LayoutProps> {
    return this.#modules.get<LayoutModule>(l.file).default;
  }

  #shellReady(): void {
    this.app = this.#appFile && this.#modules.get<LayoutModule>(this.#appFile.file).default;
    this.notFoundPage = this.#notFoundFile &&
      this.#modules.get<NotFoundModule>(this.#notFoundFile.file).default;
  }
}
