/**
 * Loading route modules: those of a manifest of modules (`manifest.gen.ts`) are there at once,
 * those of a lazy manifest (`manifest.lazy.gen.ts`) load when a request, or {@link preloadRoutes},
 * first needs them. Two requests waiting for one file share one load; a failed load is forgotten,
 * so the next request tries again (a passing I/O error must not break a route until a restart).
 *
 * Routing needs no module (the patterns come from the file names): this module is only asked for
 * the modules of the route a request matched, with its folders' files.
 *
 * @module
 */
import { byDepth, type RouteFile } from "./router.ts";
import type { LazyManifest, Manifest, RouteFileModule } from "./types.ts";

/** The route files of a manifest: modules, or loaders of a lazy manifest. */
export type ManifestRoutes = Manifest["routes"] | LazyManifest["routes"];

/**
 * The modules of a manifest's route files, by file (the manifest's key, e.g. `[lang]/index.tsx`).
 *
 * @example
 * ```ts
 * const modules = new RouteModules(manifest.routes);
 * const wait = modules.load(["_app.tsx", "[lang]/index.tsx"]);
 * if (wait) await wait;
 * modules.get<RouteModule>("[lang]/index.tsx").default;
 * ```
 */
export class RouteModules {
  readonly #routes: Record<string, RouteFileModule | (() => Promise<RouteFileModule>)>;
  readonly #loaded = new Map<string, RouteFileModule>();
  readonly #loading = new Map<string, Promise<RouteFileModule>>();

  constructor(routes: ManifestRoutes) {
    this.#routes = routes;
    for (const [file, entry] of Object.entries(routes)) {
      if (typeof entry !== "function") this.#loaded.set(file, entry);
    }
  }

  /** Whether `file` is loaded on demand (an entry of a lazy manifest). */
  isLazy(file: string): boolean {
    return typeof this.#routes[file] === "function";
  }

  /**
   * Starts loading those of `files` not loaded yet: `null` when every one is loaded (the caller
   * goes on at once, without an `await`), else a promise that settles when all are.
   */
  load(files: string[]): Promise<unknown> | null {
    const waits: Promise<RouteFileModule>[] = [];
    for (const file of files) {
      if (this.#loaded.has(file)) continue;
      let wait = this.#loading.get(file);
      if (!wait) {
        const loader = this.#routes[file] as () => Promise<RouteFileModule>;
        wait = loader().then((mod) => {
          this.#loaded.set(file, mod);
          return mod;
        }).finally(() => this.#loading.delete(file));
        this.#loading.set(file, wait);
      }
      waits.push(wait);
    }
    return waits.length === 0 ? null : Promise.all(waits);
  }

  /** The module of a loaded file (`undefined` before {@link load} has settled for it). */
  get<T extends RouteFileModule>(file: string): T {
    return this.#loaded.get(file) as T;
  }
}

/** What {@link preloadRoutes} runs for one mounted app. */
type Preloader = (select: (file: string) => boolean) => Promise<void>;

const preloaders = new WeakMap<object, Preloader>();

/**
 * Lets {@link preloadRoutes} prepare the routes mounted on `app`: `ready` loads (and compiles) one
 * route, or throws or rejects when it cannot.
 *
 * @example
 * ```ts
 * registerPreloader(app, table.routes, (entry) => table.ready(entry));
 * ```
 */
export function registerPreloader<R extends { file: RouteFile }>(
  app: object,
  routes: R[],
  ready: (route: R) => unknown,
): void {
  preloaders.set(app, async (select) => {
    const chosen = routes.filter((r) => select(r.file.file)).sort((a, b) => byDepth(a.file, b.file));
    for (const route of chosen) {
      try {
        await ready(route);
      } catch {
        // The route's first request reports it.
      }
    }
  });
}

/**
 * Loads, in the background, the route modules of an app mounted by `mountRoutes` whose file
 * `select` picks (with the middlewares, layouts, `_app` and `_404` they use), one route at a
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
