/**
 * A `deno lint` plugin for the shape of the code, run by `deno task check` (deno.json's
 * `lint.plugins`):
 *
 * | rule                            | what it refuses                                                    |
 * |---------------------------------|--------------------------------------------------------------------|
 * | `code-shape/max-module-lines`   | a module of `lib/` longer than {@link MAX_MODULE_LINES} lines      |
 * | `code-shape/max-storage-function-lines` | a function in `lib/storage/` longer than {@link MAX_STORAGE_FUNCTION_LINES} lines |
 * | `code-shape/import-style`       | an import not in the one style: `./x.ts` inside a folder, `@/…` across |
 *
 * Why: a module should be readable in one sitting, and a storage concept should land in a small file
 * of its own (see `lib/storage/README.md`), not grow the one that is open; one import style (`lib/README.md`)
 * says at a glance whether an import stays in its folder, and keeps imports readable wherever a file moves. Generated files (`*.gen.ts`) are exempt.
 *
 * @example
 * ```ts
 * const found = Deno.lint.runPlugin(plugin, `${ROOT}lib/x.ts`, source);
 * ```
 *
 * @module
 */

/** The most lines a module of `lib/` may have (tests beside the code included). */
export const MAX_MODULE_LINES = 450;
/** The most lines a function in `lib/storage/` may span. */
export const MAX_STORAGE_FUNCTION_LINES = 150;

/** The project root, with a trailing slash. */
export const ROOT = new URL("../", import.meta.url).pathname;

const relative = (filename: string) => filename.startsWith(ROOT) ? filename.slice(ROOT.length) : filename;
const generated = (path: string) => /\.gen\.tsx?$/.test(path);
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

const plugin: Deno.lint.Plugin = {
  name: "code-shape",
  rules: {
    "max-module-lines": {
      create(context) {
        const path = relative(context.filename);
        if (!path.startsWith("lib/") || generated(path)) return {};
        return {
          Program(node) {
            const lines = lineCount(context.sourceCode.text);
            if (lines > MAX_MODULE_LINES) {
              context.report({
                range: [node.range[0], node.range[0]],
                message: `${path} has ${lines} lines; a module of lib/ has at most ${MAX_MODULE_LINES}`,
                hint: "Split it by concept: one module per concept, each readable in one sitting.",
              });
            }
          },
        };
      },
    },
    "max-storage-function-lines": {
      create(context) {
        const path = relative(context.filename);
        if (!path.startsWith("lib/storage/") || generated(path)) return {};
        const check = (node: Deno.lint.Node) => {
          const text = context.sourceCode.text.slice(node.range[0], node.range[1]);
          const lines = lineCount(text);
          if (lines > MAX_STORAGE_FUNCTION_LINES) {
            context.report({
              range: [node.range[0], node.range[0] + text.indexOf("\n")],
              message: `a function of ${lines} lines; in lib/storage/ at most ${MAX_STORAGE_FUNCTION_LINES}`,
              hint: "Give each operation a module-level function that takes the context.",
            });
          }
        };
        return {
          FunctionDeclaration: check,
          FunctionExpression: check,
          ArrowFunctionExpression: check,
        };
      },
    },
    "import-style": {
      create(context) {
        const path = relative(context.filename);
        if (generated(path)) return {};
        const folder = path.slice(0, path.lastIndexOf("/") + 1);
        const check = (source: Deno.lint.Node | null | undefined) => {
          if (source?.type !== "Literal" || typeof source.value !== "string") return;
          const specifier = source.value;
          const target = specifier.startsWith("@/") ? specifier.slice(2) : null;
          let message: string | null = null;
          if (specifier.startsWith("../")) message = `"${specifier}" climbs out of its folder`;
          else if (specifier.startsWith("./") && specifier.slice(2).includes("/")) {
            message = `"${specifier}" reaches into another folder`;
          } else if (target !== null && target.slice(0, target.lastIndexOf("/") + 1) === folder) {
            message = `"${specifier}" is in this file's own folder`;
          }
          if (message === null) return;
          context.report({
            node: source,
            message: `${message}: imports are "./x.ts" inside one folder, "@/…" across folders`,
            hint:
              'Start it at the project root ("@/lib/…"; deno.json maps "@/" to "./"), or "./x.ts" beside it.',
          });
        };
        return {
          ImportDeclaration: (node) => check(node.source),
          ExportAllDeclaration: (node) => check(node.source),
          ExportNamedDeclaration: (node) => check(node.source),
          ImportExpression: (node) => check(node.source),
        };
      },
    },
  },
};

export default plugin;
