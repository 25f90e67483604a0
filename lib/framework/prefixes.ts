/**
 * Path prefixes that change how the route layer answers: under a JSON prefix (e.g. `/api`) a 404
 * or 405 is a JSON body instead of a page; a reserved prefix (the JSON ones, and e.g. `/_app` for
 * built assets) belongs to its own routes only, so `/:lang` never swallows `/api` or `/_app/x`,
 * and a miss there is a plain 404 that runs no folder middleware.
 *
 * @module
 */

/** The prefix options of `mountRoutes`. */
export interface PrefixOptions {
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

/**
 * Whether `path` (or a route pattern) is `prefix` itself or under it.
 *
 * @example
 * ```ts
 * under("/api", "/api/user"); // true
 * under("/api", "/apiary"); // false
 * ```
 */
export function under(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(prefix + "/");
}

/**
 * The JSON and reserved prefixes of one mounted app.
 *
 * @example
 * ```ts
 * const prefixes = new Prefixes({ reservedPrefixes: ["/_app"] });
 * prefixes.isJson("/api/user"); // true
 * prefixes.reservedFor("/_app/main.js"); // "/_app"
 * ```
 */
export class Prefixes {
  readonly #json: string[];
  readonly #reserved: string[];
  /** The body of a JSON error answer. */
  readonly jsonError: (status: number, message: string) => unknown;

  constructor(options: PrefixOptions) {
    this.#json = options.jsonPrefixes ?? ["/api"];
    this.#reserved = [...this.#json, ...(options.reservedPrefixes ?? [])];
    this.jsonError = options.jsonError ?? ((statusCode, message) => ({ message, statusCode }));
  }

  /** Whether errors under `path` are JSON. */
  isJson(path: string): boolean {
    return this.#json.some((p) => under(p, path));
  }

  /** The reserved prefix `path` is under, if any. */
  reservedFor(path: string): string | undefined {
    return this.#reserved.find((p) => under(p, path));
  }
}
