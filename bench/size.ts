/**
 * `deno task bench:size`: the JavaScript each page makes a browser download (gzip and brotli
 * bytes, files), and the page's HTML, measured from the real app and the real build. Prints a
 * Markdown table for `bench/README.md`.
 *
 * @module
 */
import { gzipSync } from "node:zlib";
import { currentBuild } from "@/lib/framework/assets.ts";
import { pageWeight } from "@/lib/framework/page_weight.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { pageHeaders, PAGES } from "./common.ts";

const app = await startTestApp();
try {
  const kiosk = await pairTestKiosk(app, "7");
  const manifest = currentBuild().manifest;
  const cssName = Object.values(manifest.assets).find((n) => n.startsWith("styles-"))!;
  console.log(`CSS (all pages): ${manifest.files[cssName].gzip} B gzip\n`);
  console.log("| page | path | JS gzip | JS brotli | JS files | HTML gzip |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const [name, path] of PAGES) {
    const html = await (await fetch(app.url + path, { headers: pageHeaders(path, kiosk.cookie) })).text();
    const w = pageWeight(html, manifest);
    const htmlGzip = gzipSync(new TextEncoder().encode(html), { level: 9 }).length;
    console.log(`| ${name} | \`${path}\` | ${w.gzip} | ${w.brotli} | ${w.files.length} | ${htmlGzip} |`);
  }
} finally {
  await app.close();
}
