/**
 * A `deno lint` plugin for the shape of the code, run by `deno task check` (deno.json's
 * `lint.plugins`):
 *
 * | rule                            | what it refuses                                                    |
 * |---------------------------------|--------------------------------------------------------------------|
 * | `code-shape/max-module-lines`   | a module of `lib/` longer than {@link MAX_MODULE_LINES} lines      |
 * | `code-shape/max-storage-function-lines` | a function in `lib/storage/` longer than {@link MAX_STORAGE_FUNCTION_LINES} lines |
 * | `code-shape/max-import-climb`   | an import that climbs more than two folders (use `@/`)             |
 *
 * Why: a module should be readable in one sitting, and a storage concept should land in a small file
 * of its own (see `lib/storage/README.md`), not grow the one that is open; `@/` keeps imports readable
 * wherever a file moves. Generated files (`*.gen.ts`) are exempt.
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
/** How many folders an import may climb (`../../x`). */
export const MAX_IMPORT_CLIMB = 2;

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
    "max-import-climb": {
      create(context) {
        const check = (source: Deno.lint.Node | null | undefined) => {
          if (source?.type !== "Literal" || typeof source.value !== "string") return;
          const climbs = source.value.match(/^(?:\.\.\/)+/)?.[0].length ?? 0;
          if (climbs / 3 > MAX_IMPORT_CLIMB) {
            context.report({
              node: source,
              message: `this import climbs ${climbs / 3} folders; at most ${MAX_IMPORT_CLIMB}`,
              hint: 'Start it at the project root instead: "@/lib/…" (deno.json maps "@/" to "./").',
            });
          }
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
