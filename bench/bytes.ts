/**
 * `deno task bench:bytes`: what each page makes a browser download on a first visit, compressed:
 * the HTML, the stylesheet, the JavaScript (the page's module script and everything it imports),
 * and the images and icons the page links (no web fonts: the site uses system fonts). Then the
 * same screens as a typical React single-page app (`bench/react-spa/`: React, React DOM, React
 * Router, i18next with react-i18next, built by esbuild, minified, production mode), whose
 * JavaScript every page needs before it shows anything.
 *
 * Built files are counted at the gzip (level 9) and brotli (quality 11) sizes the build stores
 * and serves; the HTML at gzip level 9. The React app is installed (`npm ci`) and built the first
 * time, into `bench/react-spa/node_modules` and `dist` (both ignored by git). Prints Markdown
 * for `bench/README.md`.
 *
 * @module
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { ASSET_PREFIX, currentBuild } from "@/lib/framework/assets.ts";
import { pageWeight } from "@/lib/framework/page_weight.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { pageHeaders, PAGES as ALL_PAGES } from "./common.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";

// The kiosk without a shop number shows only a notice: its bytes are those of the cancel page.
const PAGES = ALL_PAGES.filter(([, path]) => path !== "/en/terminal-payment");

const SPA = new URL("./react-spa/", import.meta.url).pathname;
const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const brotli = (bytes: Uint8Array) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n: number) => (n / 1000).toFixed(1);

/** Stylesheets, icons and images a page links, as built file names. */
function linkedFiles(html: string): { css: string[]; images: string[] } {
  const { manifest } = currentBuild();
  const css: string[] = [], images: string[] = [];
  const built = (url: string) => {
    if (!url.startsWith(ASSET_PREFIX)) throw new Error(`a file from outside the build: ${url}`);
    const name = url.slice(ASSET_PREFIX.length);
    if (!manifest.files[name]) throw new Error(`not in the build: ${url}`);
    return name;
  };
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = tag.match(/\bhref="([^"]+)"/)?.[1];
    const rel = tag.match(/\brel="([^"]+)"/)?.[1] ?? "";
    if (!href) continue;
    if (rel === "stylesheet") css.push(built(href));
    else if (/\bicon\b/.test(rel)) images.push(built(href));
  }
  for (const [, src] of html.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) images.push(built(src));
  return { css: [...new Set(css)], images: [...new Set(images)] };
}

/** Files a stylesheet loads (`url(...)`: fonts, images). */
async function cssReferences(name: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(`../_build/static/${name}`, import.meta.url));
  return [...text.matchAll(/url\(\s*["']?(\/_app\/[^"')]+)["']?\s*\)/g)].map((m) =>
    m[1].slice(ASSET_PREFIX.length)
  );
}

// ---- our pages ----

const app = await startTestApp();
const rows: string[] = [];
let donationTotal = 0, cssGzip = 0, imagesGzip = 0;
try {
  const { manifest } = currentBuild();
  const kiosk = await pairTestKiosk(app, "7");
  for (const [name, path] of PAGES) {
    const res = await fetch(app.url + path, { headers: pageHeaders(path, kiosk.cookie) });
    const html = await res.text();
    const htmlGzip = gzip(new TextEncoder().encode(html));
    const js = pageWeight(html, manifest);
    const linked = linkedFiles(html);
    const fromCss = (await Promise.all(linked.css.map(cssReferences))).flat();
    const images = [...new Set([...linked.images, ...fromCss])];
    const size = (files: string[], kind: "gzip" | "brotli") =>
      files.reduce((n, f) => n + manifest.files[f][kind], 0);
    const css = size(linked.css, "gzip"), img = size(images, "gzip");
    const total = htmlGzip + css + js.gzip + img;
    const requests = 1 + linked.css.length + js.files.length + images.length;
    if (path === "/en/") [donationTotal, cssGzip, imagesGzip] = [total, css, img];
    rows.push(
      `| ${name} | \`${path}\` | ${res.status} | ${htmlGzip} | ${css} | ${js.gzip} | ${js.brotli} | ${img} | ` +
        `**${total}** | ${requests} |`,
    );
  }
} finally {
  await app.close();
}

console.log("### This site: bytes per page, first visit (empty cache)\n");
console.log(
  "| page | path | status | HTML gzip | CSS gzip | JS gzip | JS brotli | images gzip | total gzip | requests |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);

// ---- the React single-page app ----

async function run(cmd: string, args: string[]) {
  const out = await new Deno.Command(cmd, { args, cwd: SPA, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
}
const installed = await Deno.stat(`${SPA}node_modules/.package-lock.json`).then(() => true, () => false);
if (!installed) {
  console.error("bench/react-spa: npm ci …");
  await run("npm", ["ci", "--no-audit", "--no-fund"]);
}
console.error("bench/react-spa: building …");
await Deno.remove(`${SPA}dist`, { recursive: true }).catch(() => {});
await run("node", ["build.mjs"]);

interface MetaOutput {
  imports: { path: string; kind: string }[];
  entryPoint?: string;
  inputs: Record<string, { bytesInOutput: number }>;
}
const meta: { outputs: Record<string, MetaOutput> } = JSON.parse(
  await Deno.readTextFile(`${SPA}dist/meta.json`),
);
const entry = Object.keys(meta.outputs).find((f) => meta.outputs[f].entryPoint && f.endsWith(".js"))!;
// What the first screen needs: the entry and its static imports (other languages load on demand).
const needed = new Set<string>();
const visit = (file: string) => {
  if (needed.has(file)) return;
  needed.add(file);
  for (const imp of meta.outputs[file].imports) if (imp.kind === "import-statement") visit(imp.path);
};
visit(entry);
let spaMin = 0, spaGzip = 0, spaBrotli = 0;
for (const file of needed) {
  const bytes = await Deno.readFile(`${SPA}${file}`);
  spaMin += bytes.length;
  spaGzip += gzip(bytes);
  spaBrotli += brotli(bytes);
}
const byPackage: Record<string, number> = {};
for (const file of needed) {
  for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[file].inputs)) {
    const pkg = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
      (input.includes("locales/") ? "strings (locales/en.json)" : "the app's own code");
    byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
  }
}
const lazy = Object.keys(meta.outputs).filter((f) => f.endsWith(".js") && !needed.has(f));
let lazyGzip = 0;
for (const file of lazy) lazyGzip += gzip(await Deno.readFile(`${SPA}${file}`));
const versions = JSON.parse(await Deno.readTextFile(`${SPA}package.json`)).dependencies;
// The SPA's HTML is an empty shell: a root element, the stylesheet, the script.
const shellHtml = gzip(new TextEncoder().encode(
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ' +
    'content="width=device-width, initial-scale=1"><title>Museum donations</title>' +
    '<link rel="stylesheet" href="/assets/styles.css"><link rel="icon" href="/favicon.svg">' +
    '<script type="module" src="/assets/main.js"></script></head><body><div id="root"></div></body></html>',
));
const spaTotal = shellHtml + cssGzip + spaGzip + imagesGzip;

console.log("\n### The same screens as a React single-page app (`bench/react-spa/`)\n");
console.log(
  `Versions: ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(", ")}; esbuild, minified, ` +
    "`NODE_ENV=production`, ESM with splitting.\n",
);
console.log("| what | bytes |");
console.log("|---|---:|");
console.log(`| JavaScript before the first screen, minified | ${spaMin} |`);
console.log(`| the same, gzip | **${spaGzip}** |`);
console.log(`| the same, brotli | ${spaBrotli} |`);
console.log(`| other languages' strings, loaded when chosen (gzip, all four) | ${lazyGzip} |`);
console.log(
  `| donation page total, first visit (shell HTML ${shellHtml} + same CSS and images + JS), gzip | ` +
    `**${spaTotal}** |`,
);
console.log(`| this site's donation page total, gzip | **${donationTotal}** (${kb(donationTotal)} kB) |`);
console.log("\nMinified bytes of the SPA's first-screen JavaScript by package:\n");
console.log("| package | minified bytes |");
console.log("|---|---:|");
for (const [pkg, bytes] of Object.entries(byPackage).sort((a, b) => b[1] - a[1])) {
  console.log(`| ${pkg} | ${bytes} |`);
}
