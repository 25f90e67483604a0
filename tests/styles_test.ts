/**
 * The stylesheet's structure: every rule closed, and rules nested only inside at-rules (`@media`,
 * `@supports`, `@keyframes`). A rule left open swallows every rule after it as CSS nesting, which
 * browsers then apply to the wrong elements or not at all, with no error anywhere (a merge once
 * did this to the back office's donor view).
 *
 * @module
 */
import assert from "node:assert/strict";
import { ROOT } from "@/tests/helpers/app.ts";

/** Where a rule opens inside another rule (not an at-rule), and whether every block closes. */
function structure(css: string): { nestedAt: number[]; unclosed: number } {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")); // comments out, lines kept
  const stack: boolean[] = []; // true: an at-rule's block
  const nestedAt: number[] = [];
  let start = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    if (c === "{") {
      const prelude = text.slice(start, i).trim();
      const atRule = prelude.startsWith("@");
      if (!atRule && stack.length > 0 && !stack[stack.length - 1]) nestedAt.push(line);
      stack.push(atRule);
      start = i + 1;
    } else if (c === "}") {
      stack.pop();
      start = i + 1;
    } else if (c === ";") {
      start = i + 1;
    }
  }
  return { nestedAt, unclosed: stack.length };
}

Deno.test("styles.css: every rule is closed, and no rule is nested in another", async () => {
  const css = await Deno.readTextFile(`${ROOT}/static/styles.css`);
  assert.deepEqual(structure(css), { nestedAt: [], unclosed: 0 });
});

Deno.test("the structure check finds a rule left open", () => {
  assert.deepEqual(structure(".a {\n  color: red;\n  .b {\n    color: blue;\n  }\n"), {
    nestedAt: [3],
    unclosed: 1,
  });
  assert.deepEqual(structure("@media (min-width: 1px) {\n  .a { color: red; }\n}\n"), {
    nestedAt: [],
    unclosed: 0,
  });
});
