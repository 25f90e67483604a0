/**
 * The client build: bundles the islands and the tiny client runtime with esbuild (ESM, code
 * splitting, minified, content-hashed), fingerprints every file of `static/`, pre-compresses all of
 * it with gzip and brotli, and writes `_build/manifest.json`, which the server reads at start.
 *
 * It refuses to build when an island's import graph reaches server-only code (storage,
 * configuration, secrets, provider clients): such code would ship to every donor's browser.
 *
 * @module
 */
import type * as esbuild from "esbuild";
import { umdAsEsm } from "./umd_as_esm.ts";
import { listFiles, listIslands, writeManifest } from "./manifest.ts";

/** One built file, as served under `/_app/`. */
export interface BuiltFile {
  type: string;
  size: number;
  gzip: number;
  brotli: number;
  /** Strong validator of the bytes (hex SHA-256 prefix). */
  etag: string;
  /** Other built files this one imports statically (JavaScript only). */
  imports: string[];
  /** Other built files this one imports lazily (`import()`: a dialog, a decoder), JavaScript only. */
  lazy?: string[];
}

/** `_build/manifest.json`. */
export interface BuildManifest {
  sourceHash: string;
  builtAt: string;
  /** The client runtime's file name. */
  client: string;
  /** Island name → file name. */
  islands: Record<string, string>;
  /** Public path of a file in `static/` (e.g. `/styles.css`) → hashed file name. */
  assets: Record<string, string>;
  files: Record<string, BuiltFile>;
}

/**
 * What an island may import. Project code: `islands/`, `lib/shared/` (the modules that run on
 * both sides: languages, money, formats, the donation rules, request signing), `lib/desk/` (the
 * front desk page's calls, which its offline queue wraps, issue 28), and the client
 * runtime the build itself adds. Packages: only those made for browsers, named here. Everything
 * else (the rest of `lib/`, `routes/`, `components/`, the entry points, server packages) is
 * server-only, so a new module is safe by default; a module meant for browsers goes to
 * `lib/shared/` and imports nothing outside it.
 */
export const CLIENT_FOLDERS = ["islands/", "lib/shared/", "lib/desk/"] as const;

/** Packages an island's own code may import (what they import in turn is theirs). */
export const CLIENT_PACKAGES = [
  "preact",
  "@preact/signals",
  "@preact/signals-core",
  // The front desk's QR decoding where the browser has no BarcodeDetector (loaded only then).
  "jsqr",
];

/** Client packages shipped as UMD, loaded as ES modules (`umd_as_esm.ts` says why). */
const UMD_PACKAGES = ["jsqr"];

/** The client runtime: the build's own entry point, beside the islands. */
const CLIENT_RUNTIME = "lib/framework/client.ts";

/**
 * Whether an island may reach the module at `path` (relative to the project root; a package as
 * its `node_modules/` path), imported by a module at `importer` (likewise, or null for an entry).
 */
export function isServerOnly(
  path: string,
  importer: string | null = null,
  folders: readonly string[] = CLIENT_FOLDERS,
): boolean {
  const pkg = packageOf(path);
  if (pkg !== null) {
    // A package's own imports are its concern; a project file may import only browser packages.
    return importer !== null && packageOf(importer) === null && !CLIENT_PACKAGES.includes(pkg);
  }
  return path !== CLIENT_RUNTIME && !folders.some((folder) => path.startsWith(folder));
}

/** `preact` for `node_modules/.deno/preact@11.2.0/node_modules/preact/hooks/dist/x.js`; null for project files. */
function packageOf(path: string): string | null {
  const m = path.match(/(?:^|\/)node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//);
  return m ? m[1] : null;
}

/**
 * What the client build reads, so what `sourceHash` hashes: the islands and the modules they may
 * import (`CLIENT_FOLDERS`; the build refuses any other project file in an island's graph), the
 * framework (the client runtime, this build, its plugins and the manifest writer), `static/`, and
 * the package versions (`deno.json`, `deno.lock`). Routes count by name only: the build writes the
 * route manifests from their names. Server-only code (the rest of `lib/`, `components/`,
 * `locales/`, the routes' contents) never reaches the client, so a start does not read it.
 */
const CLIENT_SOURCES = [...CLIENT_FOLDERS, "lib/framework/", "static/"];

/** Thrown when the build must not go on; its message says why, in one paragraph. */
export class BuildError extends Error {}

/**
 * Hashes what the client build depends on ({@link CLIENT_SOURCES}), so `ensureBuild` can tell a
 * stale build.
 *
 * @example
 * ```ts
 * const hash = await sourceHash("."); // "3f9a…"
 * ```
 */
export async function sourceHash(root: string): Promise<string> {
  // Every server start runs this (`ensureBuild`): synchronous reads and one WebCrypto digest of
  // them all; hashing every server source as well took 200 ms and more of a start (issue 29).
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const add = (name: string, bytes: Uint8Array) =>
    chunks.push(encoder.encode(`${name}\n${bytes.length}\n`), bytes);
  for (const dir of CLIENT_SOURCES) {
    for (const file of await listFiles(`${root}/${dir}`)) {
      if (/_test\.tsx?$/.test(file)) continue;
      add(`${dir}${file}`, Deno.readFileSync(`${root}/${dir}${file}`));
    }
  }
  add("routes/", encoder.encode((await listFiles(`${root}/routes`)).join("\n")));
  for (const file of ["deno.json", "deno.lock"]) {
    let bytes = new Uint8Array();
    try {
      bytes = Deno.readFileSync(`${root}/${file}`);
    } catch { /* an absent file hashes as empty */ }
    add(file, bytes);
  }
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return await hashHex(all);
}

async function hashHex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  webp: "image/webp",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  map: "application/json",
};

/** The Content-Type for a file name, by extension. */
export function contentType(file: string): string {
  return TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream";
}

/**
 * Builds the client into `${root}/_build`. Also rewrites `manifest.gen.ts`.
 *
 * @example
 * ```ts
 * const manifest = await build("."); // throws BuildError if an island reaches server-only code
 * ```
 */
export async function build(
  root: string,
  options: {
    outDir?: string;
    islandsDir?: string;
    /** Given esbuild's account of the bundle (which module went where): `bench/islands.ts`. */
    onMetafile?: (metafile: esbuild.Metafile) => void;
  } = {},
): Promise<BuildManifest> {
  root = await Deno.realPath(root);
  const outDir = options.outDir ?? `${root}/_build`;
  // Loaded here, not at the top: a server start whose build is current never needs esbuild, whose
  // import alone took about 300 ms of the start (bench/README.md, cold start).
  const esbuild = await import("esbuild");
  const { brotliCompressSync, constants, gzipSync } = await import("node:zlib");
  if (!options.islandsDir) await writeManifest(root);
  const islandFiles = options.islandsDir
    ? Object.fromEntries(
      Object.entries(await listIslands(options.islandsDir)).map((
        [n, f],
      ) => [n, `${options.islandsDir}/${f}`]),
    )
    : Object.fromEntries(Object.entries(await listIslands(root)).map(([n, f]) => [n, `${root}/${f}`]));

  const entryPoints = [
    { in: `${root}/lib/framework/client.ts`, out: "client" },
    ...Object.entries(islandFiles).map(([name, file]) => ({ in: file, out: name })),
  ];
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints,
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2022"],
      minify: true,
      write: false,
      metafile: true,
      outdir: `${outDir}/static`,
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      jsx: "automatic",
      jsxImportSource: "preact",
      alias: {
        "react": "preact/compat",
        "react-dom": "preact/compat",
        "react/jsx-runtime": "preact/jsx-runtime",
      },
      define: { "process.env.NODE_ENV": '"production"' },
      legalComments: "none",
      logLevel: "silent",
      // A test's islands (`islandsDir`) stand in for `islands/`.
      plugins: [serverOnlyGuard(root, options.islandsDir), umdAsEsm(UMD_PACKAGES)],
    });
  } catch (e) {
    const guard = (e as esbuild.BuildFailure).errors?.find((m) => m.pluginName === "server-only");
    throw new BuildError(guard?.text ?? `esbuild failed: ${e instanceof Error ? e.message : e}`);
  } finally {
    await esbuild.stop();
  }

  options.onMetafile?.(result.metafile);
  const files: Record<string, BuiltFile> = {};
  const contents: Record<string, Uint8Array> = {};
  const islands: Record<string, string> = {};
  let client = "";
  for (const [outPath, meta] of Object.entries(result.metafile.outputs)) {
    const name = outPath.split("/").pop()!;
    const file = result.outputFiles.find((f) => f.path.endsWith(`/${name}`))!;
    contents[name] = withCompileHint(file.contents);
    // Static imports only: a dynamic one (a dialog loaded when opened) is not part of the page.
    const statics = meta.imports.filter((i) => i.kind === "import-statement");
    files[name] = await describe(name, contents[name], statics.map((i) => i.path.split("/").pop()!));
    // The lazy ones too, for what must work offline (the desk's service worker keeps them).
    const lazy = meta.imports.filter((i) => i.kind === "dynamic-import" && !i.external);
    if (lazy.length > 0) files[name].lazy = lazy.map((i) => i.path.split("/").pop()!);
    const entry = meta.entryPoint ? `${root}/${meta.entryPoint}` : "";
    if (entry.endsWith("/lib/framework/client.ts")) client = name;
    for (const [island, src] of Object.entries(islandFiles)) {
      if (meta.entryPoint && (src === entry || src.endsWith(`/${meta.entryPoint}`))) islands[island] = name;
    }
  }

  const assets: Record<string, string> = {};
  for (const file of await listFiles(`${root}/static`)) {
    let bytes = await Deno.readFile(`${root}/static/${file}`);
    if (file.endsWith(".css")) {
      const css = await esbuild.transform(new TextDecoder().decode(bytes), { loader: "css", minify: true });
      await esbuild.stop();
      bytes = new TextEncoder().encode(css.code);
    }
    const hash = (await hashHex(bytes)).slice(0, 10);
    const dot = file.lastIndexOf(".");
    const hashed = (dot > 0 ? `${file.slice(0, dot)}-${hash}${file.slice(dot)}` : `${file}-${hash}`)
      .replaceAll("/", "_");
    assets[`/${file}`] = hashed;
    contents[hashed] = bytes;
    files[hashed] = await describe(hashed, bytes, []);
  }

  // Write into a fresh folder and swap it in, so a server or test reading the old build never
  // sees a half-written one.
  const tmp = `${outDir}.tmp-${crypto.randomUUID()}`;
  await Deno.mkdir(`${tmp}/static`, { recursive: true });
  for (const [name, bytes] of Object.entries(contents)) {
    await Deno.writeFile(`${tmp}/static/${name}`, bytes);
    if (compressible(name)) {
      await Deno.writeFile(`${tmp}/static/${name}.gz`, gzipSync(bytes, { level: 9 }));
      await Deno.writeFile(
        `${tmp}/static/${name}.br`,
        brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
  const manifest: BuildManifest = {
    sourceHash: await sourceHash(root),
    builtAt: new Date().toISOString(),
    client,
    islands,
    assets,
    files,
  };
  await Deno.writeTextFile(`${tmp}/manifest.json`, JSON.stringify(manifest, null, 2) + "\n");
  const old = `${outDir}.old-${crypto.randomUUID()}`;
  await Deno.rename(outDir, old).catch(() => {});
  await Deno.rename(tmp, outDir);
  await Deno.remove(old, { recursive: true }).catch(() => {});
  return manifest;
}

/** Chrome's explicit compile hint, the first line of a file that runs all its code at load. */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
/** Files from this many bytes get {@link COMPILE_HINT}. */
export const COMPILE_HINT_MIN = 2048;

/**
 * Heads a big enough file with Chrome's compile hint: Chrome compiles the whole file eagerly, on a
 * background thread while it downloads, instead of each function lazily on the main thread during
 * hydration (the islands run all their code at load; bench/README.md, Lighthouse). A small file
 * (an island of a few hundred bytes, a shared chunk of constants) compiles in microseconds either
 * way, and the hint cost 40–45 bytes of gzip in each of them: 0.5 KB of the donation page's 12 files
 * (issue 29).
 */
function withCompileHint(js: Uint8Array): Uint8Array {
  if (js.length < COMPILE_HINT_MIN) return js;
  const hint = new TextEncoder().encode(COMPILE_HINT);
  const out = new Uint8Array(hint.length + js.length);
  out.set(hint);
  out.set(js, hint.length);
  return out;
}

function compressible(name: string): boolean {
  return /\.(js|css|svg|json|txt|map|ico)$/.test(name);
}

async function describe(name: string, bytes: Uint8Array, imports: string[]): Promise<BuiltFile> {
  const { brotliCompressSync, constants, gzipSync } = await import("node:zlib");
  return {
    type: contentType(name),
    size: bytes.length,
    gzip: compressible(name) ? gzipSync(bytes, { level: 9 }).length : bytes.length,
    brotli: compressible(name)
      ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
      : bytes.length,
    etag: (await hashHex(bytes)).slice(0, 32),
    imports,
  };
}

/**
 * An esbuild plugin that stops the build as soon as an island's import graph resolves a
 * server-only module, and names the chain of imports that led there. It runs at resolution, before
 * Node built-ins that server code uses (`net`, `tls`) would fail the build with a less useful error.
 */
function serverOnlyGuard(root: string, islandsDir?: string): esbuild.Plugin {
  const rel = (p: string) => p.startsWith(root + "/") ? p.slice(root.length + 1) : p;
  const folders = CLIENT_FOLDERS.map((f) =>
    f === "islands/" && islandsDir ? `${rel(islandsDir)}/islands/` : f
  );
  return {
    name: "server-only",
    setup(b) {
      const importerOf = new Map<string, string>();
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.guarded) return undefined;
        // deno.json's `"@/": "./"`: the project root, as Deno resolves it.
        const path_ = args.path.startsWith("@/") ? `${root}/${args.path.slice(2)}` : args.path;
        const r = await b.resolve(path_, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { guarded: true },
        });
        if (r.errors.length > 0 || !r.path) return { errors: r.errors };
        if (args.importer && !importerOf.has(r.path)) importerOf.set(r.path, args.importer);
        const path = rel(r.path);
        if (
          args.kind !== "entry-point" &&
          isServerOnly(path, args.importer ? rel(args.importer) : null, folders)
        ) {
          const chain = [path];
          for (let at = r.path; importerOf.has(at) && chain.length < 20;) {
            at = importerOf.get(at)!;
            chain.unshift(rel(at));
          }
          return {
            errors: [{
              text: `an island reaches server-only code: ${chain.join(" → ")}. ` +
                "Islands are shipped to browsers; pass the data they need as props instead.",
            }],
          };
        }
        return { path: r.path, namespace: r.namespace, external: r.external, sideEffects: r.sideEffects };
      });
    },
  };
}

/**
 * Builds when `_build/manifest.json` is missing or was built from other sources; answers the
 * manifest either way.
 *
 * @example
 * ```ts
 * const manifest = await ensureBuild("."); // fast when nothing changed
 * ```
 */
export async function ensureBuild(root: string): Promise<BuildManifest> {
  const existing = await Deno.readTextFile(`${root}/_build/manifest.json`).then(JSON.parse).catch(() => null);
  if (existing && existing.sourceHash === await sourceHash(root)) return existing as BuildManifest;
  return await build(root);
}
