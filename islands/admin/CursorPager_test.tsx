/**
 * The back office's cursor pager (the audit log, the outgoing email): 'Newer' and 'Older' buttons,
 * each disabled where there is no page that way; and the lists that grow by 'Show more' (the
 * members, today's visits).
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { CursorPager, cursorStep } from "./CursorPager.tsx";
import { type MoreRows, ShowMore, withPage } from "./ShowMore.tsx";

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

Deno.test("ShowMore: the loading line, the failure, and 'Show more' only with more rows and nothing loading", () => {
  const more = (list: MoreRows<number>) =>
    tight(renderToString(<ShowMore list={list} loading="Loading…" more="Show more" />));
  const go = () => {};
  const shown = { rows: [1, 2], next: "c2", loading: false, error: null, more: go };
  assert.equal(more(shown), `<button type="button" class="button button-outline">Show more</button>`);
  assert.equal(
    more({ ...shown, loading: true, more: null }),
    `<div class="loading" role="status"><span class="spinner" aria-hidden="true"></span>` +
      `<span>Loading…</span></div>`,
  );
  assert.equal(
    more({ ...shown, error: "Could not load: offline" }),
    `<p class="form-alert" role="alert">Could not load: offline</p>` +
      `<button type="button" class="button button-outline">Show more</button>`,
  );
  assert.equal(more({ ...shown, next: null, more: null }), "");
});

Deno.test("withPage: a page's rows after those shown, its cursor, no longer loading", () => {
  const before = { rows: ["a"], next: "c2", loading: true, error: null };
  assert.deepEqual(withPage(before, { data: ["b", "c"], next: "c3" }), {
    rows: ["a", "b", "c"],
    next: "c3",
    loading: false,
    error: null,
  });
  assert.deepEqual(withPage({ ...before, rows: [] }, { data: [], next: null }).rows, []);
});
