/**
 * `deno task bench:islands`: what each island ships and why (issue 29). Builds the client as the
 * server does (into a temporary folder, with esbuild's account of which module went into which
 * file), then prints Markdown tables for `bench/README.md`:
 *
 * - per island: its own file (minified and gzip bytes), the shared chunks it loads (gzip), the
 *   modules that weigh most in all of that, and the pages that show it (from the real app);
 * - per shared chunk: its bytes, its modules, and the islands that load it.
 *
 * Each file is gzipped alone, as a browser fetches it; a page's total is `bench:size`'s.
 *
 * @module
 */
import type { Metafile } from "esbuild";
import { build, type BuildManifest } from "@/lib/framework/build.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { pageHeaders, PAGES } from "./common.ts";

/** Modules named in a row of the table. */
const TOP_MODULES = 4;

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const outDir = await Deno.makeTempDir({ prefix: "bench-islands-" });
let metafile: Metafile | null = null;
let manifest: BuildManifest;
try {
  manifest = await build(root, { outDir, onMetafile: (m) => metafile = m });
} finally {
  await Deno.remove(outDir, { recursive: true });
}
const outputs = metafile!.outputs;
const fileName = (path: string) => path.split("/").pop()!;
const byName = new Map(Object.entries(outputs).map(([path, out]) => [fileName(path), out]));

/** `preact`, `@preact/signals`, or the project path of a module. */
function moduleName(input: string): string {
  const pkg = input.match(/node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/);
  if (!pkg) return input;
  const sub = pkg[2].match(/^(hooks|compat|jsx-runtime)\//)?.[1];
  return sub ? `${pkg[1]}/${sub}` : pkg[1];
}

/** A file's modules and their minified bytes in it, largest first. */
function modulesOf(name: string): [string, number][] {
  const sums = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(byName.get(name)!.inputs)) {
    const m = moduleName(input);
    sums.set(m, (sums.get(m) ?? 0) + bytesInOutput);
  }
  return [...sums].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
}

/** The chunks a file loads statically, transitively (a dynamic `import()` is not counted). */
function chunksOf(name: string, seen = new Set<string>()): Set<string> {
  for (const imp of manifest.files[name].imports) {
    if (seen.has(imp)) continue;
    seen.add(imp);
    chunksOf(imp, seen);
  }
  return seen;
}

/** What a chunk is, by its largest module. */
const label = (chunk: string) => modulesOf(chunk)[0]?.[0].split("/").pop() ?? chunk;
const kb = (n: number) => n.toLocaleString("en");
const list = (mods: [string, number][]) =>
  mods.slice(0, TOP_MODULES).map(([m, n]) => `${m.replace(/^islands\//, "")} ${kb(n)}`).join(", ");

// Which pages show which island: the islands' markers in each page of `bench:size`.
const usedOn = new Map<string, string[]>();
const app = await startTestApp();
try {
  const kiosk = await pairTestKiosk(app, "7");
  for (const [page, path] of PAGES) {
    const html = await (await fetch(app.url + path, { headers: pageHeaders(path, kiosk.cookie) })).text();
    for (const island of new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]))) {
      usedOn.set(island, [...(usedOn.get(island) ?? []), page]);
    }
  }
} finally {
  await app.close();
}

const chunkUsers = new Map<string, string[]>();
console.log("| island | own: min | own: gzip | shared chunks (gzip each) | heaviest modules (min) | pages |");
console.log("|---|---:|---:|---|---|---|");
for (const [island, file] of Object.entries(manifest.islands).sort()) {
  const own = manifest.files[file];
  const chunks = [...chunksOf(file)];
  for (const c of chunks) chunkUsers.set(c, [...(chunkUsers.get(c) ?? []), island]);
  const shared = chunks.map((c) => `${label(c)} ${kb(manifest.files[c].gzip)}`).join(", ");
  const pages = usedOn.get(island) ?? [];
  const where = pages.length > 4 ? `${pages.slice(0, 3).join(", ")} +${pages.length - 3}` : pages.join(", ");
  console.log(
    `| ${island} | ${kb(own.size)} | ${kb(own.gzip)} | ${shared || "—"} | ${list(modulesOf(file))} | ${
      where || "none of `bench:size`'s pages"
    } |`,
  );
}

console.log("\n| shared chunk | min | gzip | modules (min) | loaded by |");
console.log("|---|---:|---:|---|---|");
const client = manifest.client;
for (const c of chunksOf(client)) chunkUsers.set(c, [...(chunkUsers.get(c) ?? []), "client"]);
for (
  const [chunk, users] of [...chunkUsers].sort((a, b) =>
    manifest.files[b[0]].gzip - manifest.files[a[0]].gzip
  )
) {
  const f = manifest.files[chunk];
  const islands = users.filter((u) => u !== "client");
  const runtime = users.includes("client") ? " and the client runtime" : "";
  const who = islands.length > 5 ? `${islands.length} islands${runtime}` : users.join(", ");
  console.log(
    `| ${label(chunk)} (\`${chunk}\`) | ${kb(f.size)} | ${kb(f.gzip)} | ${list(modulesOf(chunk))} | ${who} |`,
  );
}
