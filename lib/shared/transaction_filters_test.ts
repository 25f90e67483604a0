import assert from "node:assert/strict";
import {
  canGoTo,
  cleanSearch,
  DEFAULT_VIEW,
  exportQuery,
  filtersActive,
  isDay,
  listQueries,
  pageCount,
  pageWindow,
  readView,
  viewQuery,
  withFilters,
} from "./transaction_filters.ts";

Deno.test("readView reads every filter and the page, and falls back on anything unreadable", () => {
  assert.deepEqual(readView("?type=success&payment=monthly&search=levi&page=3"), {
    type: "success",
    payment: "monthly",
    search: "levi",
    page: 3,
  });
  assert.deepEqual(readView("?type=error&payment=one-time"), {
    ...DEFAULT_VIEW,
    type: "error",
    payment: "one-time",
  });
  for (
    const bad of [
      "?page=0",
      "?page=-2",
      "?page=2.5",
      "?page=abc",
      "?page=99999999",
      "?type=bogus",
      "?payment=x",
    ]
  ) {
    assert.deepEqual(readView(bad), DEFAULT_VIEW, bad);
  }
  assert.deepEqual(readView(new URLSearchParams("search=%20%20dana%0A")), {
    ...DEFAULT_VIEW,
    search: "dana",
  });
});

Deno.test("viewQuery leaves defaults out and round-trips through readView", () => {
  assert.equal(viewQuery(DEFAULT_VIEW), "");
  const views = [
    { type: "error", payment: "all", search: "dana & co", page: 1 },
    { type: "all", payment: "monthly", search: "", page: 12 },
    { type: "success", payment: "one-time", search: "שירה", page: 2 },
  ] as const;
  for (const view of views) assert.deepEqual(readView(viewQuery(view)), view);
  assert.equal(viewQuery(views[0]), "?type=error&search=dana+%26+co");
});

Deno.test("cleanSearch drops control characters, trims and caps at 100 characters", () => {
  assert.equal(cleanSearch(" a\u0000b\tc "), "a b c");
  assert.equal([...cleanSearch("é".repeat(150))].length, 100);
  assert.equal(cleanSearch("   "), "");
});

Deno.test("a filter change goes back to page 1; 'Clear all filters' shows only with a filter set", () => {
  const view = { ...DEFAULT_VIEW, page: 4 };
  assert.deepEqual(withFilters(view, { payment: "monthly" }), { ...DEFAULT_VIEW, payment: "monthly" });
  assert.equal(filtersActive(view), false);
  assert.equal(filtersActive({ ...view, type: "error" }), true);
  assert.equal(filtersActive({ ...view, payment: "one-time" }), true);
  assert.equal(filtersActive({ ...view, search: "x" }), true);
});

Deno.test("listQueries asks both lists for the same page, filters and page size", () => {
  assert.deepEqual(listQueries(DEFAULT_VIEW), { success: "page=1&limit=10", error: "page=1&limit=10" });
  const q = listQueries({ type: "success", payment: "one-time", search: "levi", page: 3 });
  assert.equal(q.success, "page=3&limit=10&isMonthly=false&searchString=levi");
  assert.equal(q.error, q.success);
  assert.equal(
    exportQuery({ type: "all", payment: "monthly", search: "a b", page: 9 }, "he"),
    "type=all&isMonthly=true&searchString=a+b&lang=he",
  );
});

Deno.test("pageCount: the shown list decides, the longer one with both", () => {
  const totals = { success: 31, error: 4 };
  assert.equal(pageCount("all", totals), 4);
  assert.equal(pageCount("success", totals), 4);
  assert.equal(pageCount("error", totals), 1);
  assert.equal(pageCount("all", { success: 0, error: 0 }), 0);
  assert.equal(pageCount("all", { success: 10, error: 20 }), 2);
  assert.equal(pageCount("all", { success: 21, error: 0 }), 3);
});

Deno.test("pageWindow: at most five numbers around the current page, inside 1…pages", () => {
  assert.deepEqual(pageWindow(1, 0), []);
  assert.deepEqual(pageWindow(1, 1), [1]);
  assert.deepEqual(pageWindow(2, 3), [1, 2, 3]);
  assert.deepEqual(pageWindow(1, 12), [1, 2, 3, 4, 5]);
  assert.deepEqual(pageWindow(3, 12), [1, 2, 3, 4, 5]);
  assert.deepEqual(pageWindow(4, 12), [2, 3, 4, 5, 6]);
  assert.deepEqual(pageWindow(7, 12), [5, 6, 7, 8, 9]);
  assert.deepEqual(pageWindow(11, 12), [8, 9, 10, 11, 12]);
  assert.deepEqual(pageWindow(12, 12), [8, 9, 10, 11, 12]);
  for (let pages = 1; pages <= 9; pages++) {
    for (let page = 1; page <= pages; page++) {
      const w = pageWindow(page, pages);
      assert.ok(w.includes(page) && w.length === Math.min(5, pages) && w[0] >= 1 && w.at(-1)! <= pages);
    }
  }
});

Deno.test("canGoTo accepts only whole pages from 1 to the page count", () => {
  assert.equal(canGoTo(1, 3), true);
  assert.equal(canGoTo(3, 3), true);
  for (const bad of [0, 4, -1, 1.5, NaN]) assert.equal(canGoTo(bad, 3), false, String(bad));
});

Deno.test("from, to and refund (issue 26): read when valid, written back, sent to the lists and the export", () => {
  const view = readView("?type=success&from=2026-11-01&to=2026-11-29");
  assert.deepEqual(view, { ...DEFAULT_VIEW, type: "success", from: "2026-11-01", to: "2026-11-29" });
  assert.equal(viewQuery(view), "?type=success&from=2026-11-01&to=2026-11-29");
  assert.deepEqual(readView(viewQuery({ ...view, page: 3 })), { ...view, page: 3 });
  // Days that do not exist, or a reversed pair, are dropped; one bound alone is kept.
  assert.deepEqual(readView("?from=2026-02-30&to=2026-13-01"), DEFAULT_VIEW);
  assert.deepEqual(readView("?from=2026-11-29&to=2026-11-01"), DEFAULT_VIEW);
  assert.deepEqual(readView("?from=1999-12-31"), DEFAULT_VIEW);
  assert.deepEqual(readView("?to=2026-11-01"), { ...DEFAULT_VIEW, to: "2026-11-01" });
  assert.deepEqual(readView("?refund=pending"), { ...DEFAULT_VIEW, refund: "pending" });
  assert.deepEqual(readView("?refund=yes"), DEFAULT_VIEW);
  assert.equal(filtersActive({ ...DEFAULT_VIEW, from: "2026-11-01" }), true);
  assert.equal(filtersActive({ ...DEFAULT_VIEW, refund: "pending" }), true);
  assert.deepEqual(listQueries(view), {
    success: "page=1&limit=10&from=2026-11-01&to=2026-11-29",
    error: "page=1&limit=10&from=2026-11-01&to=2026-11-29",
  });
  // Only gifts have refunds: the failed list is not asked for.
  assert.deepEqual(listQueries({ ...DEFAULT_VIEW, type: "success", refund: "pending" }), {
    success: "page=1&limit=10&refund=pending",
    error: null,
  });
  assert.equal(exportQuery(view, "en"), "type=success&from=2026-11-01&to=2026-11-29&lang=en");
  assert.equal(isDay("2028-02-29"), true);
  assert.equal(isDay("2026-02-29"), false);
});
