import assert from "node:assert/strict";
import plugin, { MAX_MODULE_LINES, MAX_STORAGE_FUNCTION_LINES, ROOT } from "./code_shape.ts";

const ids = (path: string, source: string) =>
  Deno.lint.runPlugin(plugin, `${ROOT}${path}`, source).map((d) => d.id);

Deno.test("code-shape: a module of lib/ longer than the limit is refused; elsewhere and generated, not", () => {
  const long = "export const x = 1;\n".repeat(MAX_MODULE_LINES + 1);
  const fits = "export const x = 1;\n".repeat(MAX_MODULE_LINES);
  assert.deepEqual(ids("lib/payments/big.ts", long), ["code-shape/max-module-lines"]);
  assert.deepEqual(ids("lib/payments/fits.ts", fits), []);
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
  assert.deepEqual(ids("lib/payments/x.ts", fn(MAX_STORAGE_FUNCTION_LINES + 1)), []);
});

Deno.test("code-shape: an import may climb two folders at most, static, re-export or dynamic", () => {
  assert.deepEqual(ids("tests/a/b/c_test.ts", 'import { x } from "../../../lib/x.ts";\nx;\n'), [
    "code-shape/max-import-climb",
  ]);
  assert.deepEqual(ids("tests/a/b/c.ts", 'export { x } from "../../../lib/x.ts";\n'), [
    "code-shape/max-import-climb",
  ]);
  assert.deepEqual(ids("tests/a/b/c.ts", 'export * from "../../../lib/x.ts";\n'), [
    "code-shape/max-import-climb",
  ]);
  assert.deepEqual(ids("tests/a/b/c.ts", 'await import("../../../lib/x.ts");\n'), [
    "code-shape/max-import-climb",
  ]);
  assert.deepEqual(
    ids("tests/a/b/c.ts", 'import { x } from "../../lib/x.ts";\nimport { y } from "@/lib/y.ts";\n'),
    [],
  );
});
