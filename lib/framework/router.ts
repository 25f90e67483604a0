/**
 * File routes: how a file under `routes/` becomes a URL pattern, and which folders apply to it.
 *
 * The shape follows Fresh 1.x so that this small layer could be swapped for Fresh later:
 *
 * | file                                         | pattern                                 |
 * |----------------------------------------------|-----------------------------------------|
 * | `routes/index.ts`                            | `/`                                     |
 * | `routes/health.ts`                           | `/health`                               |
 * | `routes/[lang]/index.tsx`                    | `/:lang`                                |
 * | `routes/[lang]/terminal-payment/[[shop]].tsx`| `/:lang/terminal-payment/:shop?`        |
 * | `routes/api/user/[id].ts`                    | `/api/user/:id`                         |
 * | `routes/sandbox/[...rest].ts`                | `/sandbox/*`                            |
 * | `routes/api/(admin)/donor/index.ts`          | `/api/donor`                            |
 * | `routes/_app.tsx`, `routes/[lang]/_layout.tsx`, `routes/[lang]/_middleware.ts`, `routes/_404.tsx` | special files |
 *
 * A route module exports a `handler` (a function, or an object of method handlers) and/or a default
 * page component (the types are in `types.ts`). Also here: which folders a route or a concrete path
 * falls in ({@link prefixMatches}, {@link folderParams}), which decides the `_middleware.ts` and
 * `_layout.tsx` files that apply. This module knows nothing of the product and imports nothing.
 *
 * @module
 */

/** Kinds of file under `routes/`. */
export type RouteFileKind = "route" | "app" | "layout" | "middleware" | "notFound";

/** A file under `routes/` after {@link classifyRouteFile}. */
export interface RouteFile {
  /** Path relative to `routes/`, with forward slashes, e.g. `[lang]/success.tsx`. */
  file: string;
  kind: RouteFileKind;
  /** The URL pattern for a route, or the folder's pattern prefix for a layout or middleware. */
  pattern: string;
  /** Sort key: routes with more static segments first, catch-alls last. */
  rank: number[];
  /**
   * The folder of its innermost group (`api/(admin)` for `api/(admin)/donor/_middleware.ts`), or
   * `""` outside any group: a group's middleware or layout applies to the files inside it only.
   */
  group: string;
}

/** A group folder's name: `(admin)`. */
const GROUP = /^\([A-Za-z0-9_-]+\)$/;

/** Whether a path segment is a group folder, which adds nothing to the URL. */
export function isGroup(segment: string): boolean {
  return GROUP.test(segment);
}

const ROUTE_EXT = /\.(tsx|ts|jsx|js)$/;

/**
 * Maps a path relative to `routes/` to its URL pattern (Hono syntax).
 *
 * @example
 * ```ts
 * pathToPattern("[lang]/terminal-payment/[[shopNumber]].tsx"); // "/:lang/terminal-payment/:shopNumber?"
 * pathToPattern("api/user/off-monthly-payment/[id].ts"); // "/api/user/off-monthly-payment/:id"
 * pathToPattern("[lang]/index.tsx"); // "/:lang"
 * ```
 */
export function pathToPattern(file: string): string {
  const parts = file.replace(ROUTE_EXT, "").split("/").filter((s) => s !== "");
  const name = parts.pop();
  // Groups are folders only: a file named `(x).ts` falls to the segment check below and fails.
  const segments = parts.filter((s) => !isGroup(s));
  if (name !== undefined && name !== "index") segments.push(name);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    let m: RegExpMatchArray | null;
    if ((m = segment.match(/^\[\[([A-Za-z_][A-Za-z0-9_]*)\]\]$/))) {
      if (!last) throw new Error(`routes/${file}: an optional segment must be the last one`);
      out.push(`:${m[1]}?`);
    } else if ((m = segment.match(/^\[\.\.\.([A-Za-z_][A-Za-z0-9_]*)\]$/))) {
      if (!last) throw new Error(`routes/${file}: a catch-all segment must be the last one`);
      out.push("*");
    } else if ((m = segment.match(/^\[([A-Za-z_][A-Za-z0-9_]*)\]$/))) {
      out.push(`:${m[1]}`);
    } else if (/^[A-Za-z0-9._~-]+$/.test(segment)) {
      out.push(segment);
    } else {
      throw new Error(`routes/${file}: segment "${segment}" is not a valid route segment`);
    }
  });
  return "/" + out.join("/");
}

/**
 * Tells what a file under `routes/` is and where it applies.
 *
 * @example
 * ```ts
 * classifyRouteFile("[lang]/_layout.tsx"); // { kind: "layout", pattern: "/:lang", ... }
 * classifyRouteFile("README.md"); // null: not a route file
 * ```
 */
export function classifyRouteFile(file: string): RouteFile | null {
  if (!ROUTE_EXT.test(file) || /(_test|\.test)\.(tsx?|jsx?)$/.test(file)) return null;
  const parts = file.split("/");
  const base = parts.at(-1)!.replace(ROUTE_EXT, "");
  const folder = parts.slice(0, -1).join("/");
  const folderPattern = folder === "" ? "/" : pathToPattern(folder + "/index.ts");
  const special: Record<string, RouteFileKind> = {
    _app: "app",
    _layout: "layout",
    _middleware: "middleware",
    _404: "notFound",
  };
  if (base.startsWith("_")) {
    const kind = special[base];
    if (!kind) return null; // private helper next to routes, e.g. `_shared.ts`
    if ((kind === "app" || kind === "notFound") && folder !== "") {
      throw new Error(`routes/${file}: ${base} is only allowed at the top of routes/`);
    }
    return { file, kind, pattern: folderPattern, rank: [], group: groupOf(parts) };
  }
  const pattern = pathToPattern(file);
  return { file, kind: "route", pattern, rank: rankPattern(pattern), group: groupOf(parts) };
}

/** The folder of the innermost group among a file's path parts, or `""`. */
function groupOf(parts: string[]): string {
  const last = parts.findLastIndex((p, i) => i < parts.length - 1 && isGroup(p));
  return last < 0 ? "" : parts.slice(0, last + 1).join("/");
}

/**
 * Whether a folder's middleware or layout `m` may apply to `file` as far as groups go: outside a
 * group always (its URL pattern decides), in a group only to the files inside that group.
 *
 * @example
 * ```ts
 * inGroup(classifyRouteFile("api/(admin)/_middleware.ts")!, "api/(admin)/donor/index.ts"); // true
 * inGroup(classifyRouteFile("api/(admin)/_middleware.ts")!, "api/user/index.ts"); // false
 * ```
 */
export function inGroup(m: Pick<RouteFile, "group">, file: string): boolean {
  return m.group === "" || file.startsWith(m.group + "/");
}

/**
 * The folder patterns in which a path no route matched takes `m` (a middleware or layout): its
 * folder's pattern outside a group; in a group, the URL folders the group's own subfolders make
 * (`/api/donor` for `api/(admin)/donor/`), as the group's folder itself shares its URL with others.
 *
 * @example
 * ```ts
 * missScopes(classifyRouteFile("api/(admin)/_middleware.ts")!, ["api/(admin)/donor/index.ts"]); // ["/api/donor"]
 * ```
 */
export function missScopes(m: RouteFile, files: string[]): string[] {
  const folder = m.file.split("/").slice(0, -1);
  if (m.group === "" || !isGroup(folder.at(-1)!)) return [m.pattern];
  const scopes = new Set<string>();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    if (!file.startsWith(folder.join("/") + "/")) continue;
    // Each folder below the group that is a URL folder of its own.
    for (let end = folder.length + 1; end <= parts.length; end++) {
      if (!isGroup(parts[end - 1])) scopes.add(pathToPattern(parts.slice(0, end).join("/") + "/index.ts"));
    }
  }
  return [...scopes];
}

/** Static segments rank 0, params 1, optional params 2, catch-alls 3; compared segment by segment. */
function rankPattern(pattern: string): number[] {
  return pattern.split("/").slice(1).map((s) =>
    s === "*" ? 3 : s.endsWith("?") ? 2 : s.startsWith(":") ? 1 : 0
  );
}

/**
 * Orders routes so that the most specific pattern is tried first: `/api/user/:id` before
 * `/:lang/success`, `/:lang/success` before `/:lang/*`.
 *
 * @example
 * ```ts
 * sortRoutes(files.map(classifyRouteFile).filter((f) => f?.kind === "route"));
 * ```
 */
export function sortRoutes<T extends Pick<RouteFile, "rank" | "pattern">>(routes: T[]): T[] {
  return [...routes].sort((a, b) => {
    const n = Math.max(a.rank.length, b.rank.length);
    for (let i = 0; i < n; i++) {
      const x = a.rank[i] ?? -1, y = b.rank[i] ?? -1;
      if (x !== y) return x - y;
    }
    return a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0;
  });
}

/**
 * Orders folders (or routes) outer first, by the number of segments of their pattern: `/` before
 * `/:lang`, `/:lang` before `/:lang/admin`. Equal depths keep their order (the sort is stable).
 *
 * @example
 * ```ts
 * middlewares.sort(byDepth); // routes/_middleware.ts, then routes/[lang]/_middleware.ts
 * ```
 */
export function byDepth(a: Pick<RouteFile, "pattern">, b: Pick<RouteFile, "pattern">): number {
  return depth(a.pattern) - depth(b.pattern);
}

/**
 * Orders folders' files outer first by their folder's depth, a group counting as a folder:
 * `api/_middleware.ts` before `api/(admin)/_middleware.ts`, whose URL folder is the same. Without
 * groups this is {@link byDepth}'s order.
 *
 * @example
 * ```ts
 * middlewares.sort(byFolderDepth);
 * ```
 */
export function byFolderDepth(a: Pick<RouteFile, "file">, b: Pick<RouteFile, "file">): number {
  return a.file.split("/").length - b.file.split("/").length;
}

// `/` has no segment: counting the parts of its split would put it level with `/:lang`.
const depth = (pattern: string) => pattern === "/" ? 0 : pattern.split("/").length - 1;

/**
 * Tells whether `pattern` applies to `path`: used for layouts and middlewares, whose pattern is a
 * prefix (`/:lang` applies to `/en/success`, `/` applies to everything).
 *
 * @example
 * ```ts
 * prefixMatches("/:lang", "/:lang/success"); // true
 * prefixMatches("/api", "/:lang"); // false
 * ```
 */
export function prefixMatches(prefix: string, pattern: string): boolean {
  if (prefix === "/") return true;
  return pattern === prefix || pattern.startsWith(prefix + "/");
}

/**
 * The params a folder pattern such as `/:lang` takes from a concrete path such as `/en/nope`, or
 * `null` when the path is not in that folder. Used for a path no route matched: its folders'
 * middlewares and layouts still apply, with their params.
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

/**
 * Whether a folder pattern covers a concrete path.
 *
 * @example
 * ```ts
 * folderMatches("/:lang", "/en/nope"); // true
 * ```
 */
export function folderMatches(pattern: string, path: string): boolean {
  return folderParams(pattern, path) !== null;
}
