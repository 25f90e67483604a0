/**
 * Serving the build: content-hashed files under `/_app/`, held in memory, each with its gzip and
 * brotli variant, `Content-Length`, a strong `ETag`, and a year of immutable caching (the name
 * changes when the bytes do). Also answers `asset("/styles.css")` → its hashed URL.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { BuildManifest, BuiltFile } from "./build.ts";

/** URL prefix of built files. */
export const ASSET_PREFIX = "/_app/";

interface Variant {
  body: Uint8Array;
  encoding: "br" | "gzip" | null;
}

/** A loaded build: the manifest plus every file's bytes. */
export interface LoadedBuild {
  manifest: BuildManifest;
  files: Map<string, { meta: BuiltFile; variants: Variant[] }>;
}

let loaded: LoadedBuild | null = null;

/**
 * Reads `_build/` into memory and makes it the build that `asset()` and `serveBuild()` use.
 *
 * @example
 * ```ts
 * await loadBuild("./_build");
 * ```
 */
export async function loadBuild(outDir: string): Promise<LoadedBuild> {
  const manifest: BuildManifest = JSON.parse(await Deno.readTextFile(`${outDir}/manifest.json`));
  const files = new Map<string, { meta: BuiltFile; variants: Variant[] }>();
  for (const [name, meta] of Object.entries(manifest.files)) {
    const variants: Variant[] = [];
    for (const [suffix, encoding] of [[".br", "br"], [".gz", "gzip"]] as const) {
      const body = await Deno.readFile(`${outDir}/static/${name}${suffix}`).catch(() => null);
      if (body) variants.push({ body, encoding });
    }
    variants.push({ body: await Deno.readFile(`${outDir}/static/${name}`), encoding: null });
    files.set(name, { meta, variants });
  }
  loaded = { manifest, files };
  return loaded;
}

/** The build in use; throws when `loadBuild` has not run. */
export function currentBuild(): LoadedBuild {
  if (!loaded) throw new Error("the client build is not loaded: call loadBuild() at start");
  return loaded;
}

/**
 * The URL of a file from `static/`, fingerprinted.
 *
 * @example
 * ```tsx
 * <link rel="stylesheet" href={asset("/styles.css")} /> // href="/_app/styles-1a2b3c4d5e.css"
 * ```
 */
export function asset(path: string): string {
  const name = currentBuild().manifest.assets[path];
  if (!name) throw new Error(`static${path} is not in the build; run deno task build`);
  return ASSET_PREFIX + name;
}

/** Whether `path` is the public name of a file of `static/`: what {@link servePublic} answers. */
export function isPublicFile(path: string): boolean {
  return loaded?.manifest.assets[path] !== undefined;
}

/** Chooses the smallest variant the client accepts. */
function pick(variants: Variant[], acceptEncoding: string): Variant {
  const accepts = (enc: string) =>
    acceptEncoding.split(",").some((part) => {
      const [name, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return name.trim().toLowerCase() === enc && (!q || Number(q.trim().slice(2)) > 0);
    });
  return variants.find((v) => v.encoding === null || accepts(v.encoding))!;
}

/**
 * Middleware answering `GET|HEAD /_app/<file>` from the loaded build; anything else passes on.
 *
 * @example
 * ```ts
 * app.use("/_app/*", serveBuild());
 * ```
 */
export function serveBuild(): MiddlewareHandler {
  return async (c, next) => {
    const name = c.req.path.slice(ASSET_PREFIX.length);
    const file = loaded?.files.get(name);
    if (!file || (c.req.method !== "GET" && c.req.method !== "HEAD")) return await next();
    const variant = pick(file.variants, c.req.header("accept-encoding") ?? "");
    const etag = `"${file.meta.etag}${variant.encoding ? "-" + variant.encoding : ""}"`;
    const headers = new Headers({
      "content-type": file.meta.type,
      "cache-control": "public, max-age=31536000, immutable",
      "etag": etag,
      "vary": "Accept-Encoding",
    });
    if (variant.encoding) headers.set("content-encoding", variant.encoding);
    const inm = c.req.header("if-none-match");
    if (inm && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
      return new Response(null, { status: 304, headers });
    }
    headers.set("content-length", String(variant.body.length));
    return new Response(c.req.method === "HEAD" ? null : variant.body as Uint8Array<ArrayBuffer>, {
      headers,
    });
  };
}

/**
 * Middleware answering the unhashed public path of a file in `static/` (`/favicon.ico`,
 * `/robots.txt`), which browsers and crawlers ask for by name, cached for an hour.
 *
 * @example
 * ```ts
 * app.use(servePublic());
 * ```
 */
export function servePublic(): MiddlewareHandler {
  return async (c, next) => {
    const name = loaded?.manifest.assets[c.req.path];
    if (!name || (c.req.method !== "GET" && c.req.method !== "HEAD")) return await next();
    const file = loaded!.files.get(name)!;
    const variant = pick(file.variants, c.req.header("accept-encoding") ?? "");
    const headers = new Headers({
      "content-type": file.meta.type,
      "cache-control": "public, max-age=3600",
      "content-length": String(variant.body.length),
      "vary": "Accept-Encoding",
    });
    if (variant.encoding) headers.set("content-encoding", variant.encoding);
    return new Response(c.req.method === "HEAD" ? null : variant.body as Uint8Array<ArrayBuffer>, {
      headers,
    });
  };
}
