import assert from "node:assert/strict";
import plugin, { MAX_MODULE_LINES, MAX_STORAGE_FUNCTION_LINES, ROOT } from "./code_shape.ts";

const ids = (path: string, source: string) =>
  Deno.lint.runPlugin(plugin, `${ROOT}${path}`, source).map((d) => d.id);

Deno.test("code-shape: a module of lib/ longer than the limit is refused; elsewhere and generated, not", () => {
  const long = "export const x = 1;\n".repeat(MAX_MODULE_LINES + 1);
  const fits = "export const x = 1;\n".repeat(MAX_MODULE_LINES);
  assert.deepEqual(ids("lib/donations/big.ts", long), ["code-shape/max-module-lines"]);
  assert.deepEqual(ids("lib/donations/fits.ts", fits), []);
  assert.deepEqual(ids("lib/x.gen.ts", long), []);
  assert.deepEqual(ids("tests/big_test.ts", long), []);
});

Deno.test("code-shape: a function in lib/storage/ longer than the limit is refused", () => {
  const body = (n: number) => `  const a${n} = ${n};\n`;
  const fn = (lines: number) =>
    `export function f() {\n${Array.from({ length: lines - 2 }, (_, i) => body(i)).join("")}}\n`;
  assert.deepEqual(ids("lib/storage/kv/x.ts", fn(MAX_STORAGE_FUNCTION_LINES + 1)), [
    "code-shape/max-storage-function-lines",
  ]);
  assert.deepEqual(ids("lib/storage/kv/x.ts", fn(MAX_STORAGE_FUNCTION_LINES)), []);
  const arrow = `export const g = () => {\n${body(0).repeat(MAX_STORAGE_FUNCTION_LINES)}};\n`;
  assert.deepEqual(ids("lib/storage/postgres/x.ts", arrow), ["code-shape/max-storage-function-lines"]);
  assert.deepEqual(ids("lib/donations/x.ts", fn(MAX_STORAGE_FUNCTION_LINES + 1)), []);
});

Deno.test("code-shape: one import style, ./ inside a folder and @/ across, static, re-export or dynamic", () => {
  const style = ["code-shape/import-style"];
  assert.deepEqual(ids("tests/a/b/c_test.ts", 'import { x } from "../../../lib/x.ts";\nx;\n'), style);
  assert.deepEqual(ids("lib/refunds/x.ts", 'export { x } from "../receipts/x.ts";\n'), style);
  assert.deepEqual(ids("lib/refunds/x.ts", 'export * from "./sub/x.ts";\n'), style);
  assert.deepEqual(ids("lib/refunds/x.ts", 'await import("@/lib/refunds/y.ts");\n'), style);
  assert.deepEqual(ids("main.ts", 'import { y } from "@/y.ts";\n'), style);
  assert.deepEqual(
    ids(
      "lib/refunds/x.ts",
      'import { x } from "./y.ts";\nimport { y } from "@/lib/receipts/mod.ts";\nimport "@/lib/refunds/sub/z.ts";\n' +
        'import { z } from "zod";\nawait import("./w.ts");\n',
    ),
    [],
  );
  assert.deepEqual(ids("manifest.gen.ts", 'import * as $0 from "./routes/index.tsx";\n'), []);
});
