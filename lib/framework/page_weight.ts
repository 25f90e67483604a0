/**
 * How much JavaScript a rendered page makes a browser download: the page's module scripts and
 * everything they import statically, from the build manifest, in gzip bytes. Used by the size
 * benchmark (`deno task bench:size`) and by the budget tests.
 *
 * @module
 */
import { gzipSync } from "node:zlib";
import type { BuildManifest } from "./build.ts";
import { ASSET_PREFIX } from "./assets.ts";

/** The JavaScript of one page. */
export interface PageWeight {
  /** Built files loaded, in load order, without duplicates. */
  files: string[];
  /** Gzip bytes of those files plus the inline scripts. */
  gzip: number;
  /** Brotli bytes of those files plus the inline scripts (inline counted at gzip size). */
  brotli: number;
  /** Number of `<script>` tags. */
  scriptTags: number;
}

/**
 * Measures a page's JavaScript from its HTML.
 *
 * @example
 * ```ts
 * const weight = pageWeight(await (await fetch(url)).text(), manifest);
 * weight.gzip; // 6100
 * ```
 */
export function pageWeight(html: string, manifest: BuildManifest): PageWeight {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  const roots: string[] = [];
  let inline = 0;
  for (const [, attrs, body] of scripts) {
    const src = attrs.match(/\bsrc="([^"]+)"/)?.[1];
    if (src) roots.push(src);
    if (body.trim()) {
      inline += gzipSize(body);
      for (const m of body.matchAll(/from\s*"([^"]+)"/g)) roots.push(m[1]);
    }
  }
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (!url.startsWith(ASSET_PREFIX)) throw new Error(`script from outside the build: ${url}`);
    const name = url.slice(ASSET_PREFIX.length);
    if (seen.has(name)) return;
    const file = manifest.files[name];
    if (!file) throw new Error(`script not in the build: ${url}`);
    seen.add(name);
    for (const imp of file.imports) visit(ASSET_PREFIX + imp);
  };
  roots.forEach(visit);
  const files = [...seen];
  return {
    files,
    gzip: inline + files.reduce((n, f) => n + manifest.files[f].gzip, 0),
    brotli: inline + files.reduce((n, f) => n + manifest.files[f].brotli, 0),
    scriptTags: scripts.length,
  };
}

function gzipSize(text: string): number {
  return gzipSync(new TextEncoder().encode(text), { level: 9 }).length;
}
