// Builds the comparison app the way a typical React single-page app ships: one entry, minified,
// production React, ESM with code splitting (the other languages' strings are loaded on demand).
// Writes dist/ and dist/meta.json (esbuild's metafile), which bench/bytes.ts reads.
import { build } from "esbuild";

const result = await build({
  entryPoints: ["src/main.jsx"],
  bundle: true,
  minify: true,
  splitting: true,
  format: "esm",
  target: "es2022",
  jsx: "automatic",
  outdir: "dist",
  entryNames: "[name]-[hash]",
  metafile: true,
  define: { "process.env.NODE_ENV": '"production"' },
  loader: { ".json": "json" },
  logLevel: "warning",
});
const { writeFile } = await import("node:fs/promises");
await writeFile("dist/meta.json", JSON.stringify(result.metafile));
