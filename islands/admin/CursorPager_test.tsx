/**
 * The back office's cursor pager (the audit log, the outgoing email): 'Newer' and 'Older' buttons,
 * each disabled where there is no page that way.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { CursorPager, cursorStep } from "./CursorPager.tsx";

/** The markup, without the spaces precompiled JSX leaves inside tags. */
const tight = (html: string) => html.replace(/ +>/g, ">").replace(/ {2,}/g, " ");

Deno.test("CursorPager: the two buttons, disabled without a page that way", () => {
  const nav = (newer: (() => void) | null, older: (() => void) | null) =>
    tight(renderToString(
      <CursorPager class="outbox-pages" label="Pages" newer="Newer" older="Older" pages={{ newer, older }} />,
    ));
  const go = () => {};
  assert.equal(
    nav(null, go),
    `<nav class="outbox-pages" aria-label="Pages">` +
      `<button type="button" class="button button-outline" disabled>Newer</button>` +
      `<button type="button" class="button button-outline">Older</button></nav>`,
  );
  assert.equal(
    nav(go, null),
    `<nav class="outbox-pages" aria-label="Pages">` +
      `<button type="button" class="button button-outline">Newer</button>` +
      `<button type="button" class="button button-outline" disabled>Older</button></nav>`,
  );
});

Deno.test("cursorStep: 'Older' follows the page's cursor, 'Newer' goes back along the cursors seen", () => {
  const first = { trail: [], cursor: null, page: { data: [1], nextCursor: "c2" } };
  const older = cursorStep(first, "older");
  assert.deepEqual(older, { cursor: "c2", trail: [null] });
  const second = { ...older!, page: { data: [2], nextCursor: "c3" } };
  assert.deepEqual(cursorStep(second, "older"), { cursor: "c3", trail: [null, "c2"] });
  assert.deepEqual(cursorStep(second, "newer"), { cursor: null, trail: [] });
  assert.equal(cursorStep(first, "newer"), null);
  assert.equal(cursorStep({ ...second, page: { data: [2], nextCursor: null } }, "older"), null);
  // Before the first page, there is nowhere to go.
  assert.equal(cursorStep({ trail: [], cursor: null, page: null }, "older"), null);
});
