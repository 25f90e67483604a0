/**
 * An esbuild plugin that loads the named UMD packages as ES modules: the file runs with a local
 * `module` and `exports`, and what it puts in `module.exports` is the default export. Without it,
 * esbuild wraps a CommonJS file in its `__commonJS` helper, which code splitting puts in a chunk of
 * its own that every entry then imports for evaluation order: the desk's lazily loaded QR decoder
 * (`jsqr`) added that chunk, and 400 bytes gzip, to every page of the site (`tests/build_test.ts`).
 *
 * @module
 */
import type * as esbuild from "esbuild";

/**
 * The plugin for `packages` (npm names whose files are UMD: they assign `module.exports` when
 * `module` and `exports` are objects).
 *
 * @example
 * ```ts
 * await esbuild.build({ ...options, plugins: [umdAsEsm(["jsqr"])] });
 * ```
 */
export function umdAsEsm(packages: readonly string[]): esbuild.Plugin {
  const names = packages.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
  const filter = new RegExp(`[\\\\/]node_modules[\\\\/](${names})[\\\\/].*\\.js$`);
  return {
    name: "umd-as-esm",
    setup(b) {
      b.onLoad({ filter }, async (args) => ({
        contents: "var module = { exports: {} }, exports = module.exports;\n" +
          await Deno.readTextFile(args.path) + "\nexport default module.exports;\n",
        loader: "js",
      }));
    },
  };
}
