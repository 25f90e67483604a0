/**
 * axe-core in a real page: {@link runAxe} injects axe (the npm package of the import map, read
 * from `node_modules`) into a Playwright page and answers its violations as one line each, so a
 * test can `assert.deepEqual(audit.violations, [])` and read what is wrong from the diff.
 *
 * The page's CSP (`script-src 'nonce-…'`) refuses injected scripts; open the page in a context
 * made with `bypassCSP: true`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Frame, Page } from "playwright-core";

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const WCAG_TAGS: readonly string[] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** What {@link runAxe} answers. */
export interface AxeAudit {
  /** How many rules passed (above 0 when axe ran at all). */
  passes: number;
  /** `rule: target, target` (plus the first node's summary), one line per rule; `[]` when clean. */
  violations: string[];
}

let source: Promise<string> | null = null;

/**
 * Runs axe in `page` (or a frame) on `include` (a selector; the whole document when omitted)
 * with the rules of `tags`. Frames are not entered: audit a frame's page on its own.
 *
 * @example
 * ```ts
 * const context = await browser.newContext({ bypassCSP: true });
 * const page = await context.newPage();
 * await page.goto(`${app.url}/en/`);
 * const audit = await runAxe(page);
 * assert.deepEqual(audit.violations, []);
 * ```
 */
export async function runAxe(
  page: Page | Frame,
  options: { include?: string; tags?: readonly string[] } = {},
): Promise<AxeAudit> {
  source ??= Deno.readTextFile(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url));
  await page.evaluate(await source);
  return await page.evaluate(async ({ include, tags }) => {
    type Result = {
      passes: unknown[];
      violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[];
    };
    const axe = (globalThis as unknown as {
      axe: { run(context: unknown, options: unknown): Promise<Result> };
    }).axe;
    const context = include ? document.querySelector(include) : document;
    const result = await axe.run(context, { runOnly: tags, iframes: false });
    return {
      passes: result.passes.length,
      violations: result.violations.map((v) =>
        `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}` +
        ` (${(v.nodes[0]?.failureSummary ?? "").replace(/\s+/g, " ").trim()})`
      ),
    };
  }, { include: options.include ?? null, tags: [...(options.tags ?? WCAG_TAGS)] });
}

/**
 * Asserts that axe ran on `page` (or only on the element `include` selects) with the
 * {@link WCAG_TAGS} rules and found no violation; `what` names the page's state in the failure.
 *
 * @example
 * ```ts
 * await assertAxeClean(page, "he: signed in");
 * ```
 */
export async function assertAxeClean(page: Page | Frame, what: string, include?: string): Promise<void> {
  const audit = await runAxe(page, { include });
  assert.ok(audit.passes > 0, `${what}: axe ran`);
  assert.deepEqual(audit.violations, [], what);
}
