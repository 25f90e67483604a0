/**
 * The back office's one table: the scrolling region named by its caption, the column heads, the
 * rows, the empty line across every column, a footer; the markup each section's table had; and each
 * cell labelled with its column's head, which a phone shows on the row's card (issue 26).
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { DataTable } from "./DataTable.tsx";

/** The markup, without the spaces precompiled JSX leaves inside tags. */
const tight = (html: string) => html.replace(/ +>/g, ">").replace(/ {2,}/g, " ");

const table = (rows: string[] | null, extra: Record<string, unknown> = {}) =>
  tight(renderToString(
    <DataTable
      id="things-caption"
      class="thing-table"
      caption="Things"
      columns={["Name", "Size"]}
      rows={rows}
      row={(r) => (
        <tr key={r}>
          <th scope="row">{r}</th>
          <td>1</td>
        </tr>
      )}
      empty="No things"
      {...extra}
    />,
  ));

const head = `<div class="table-scroll" role="region" aria-labelledby="things-caption" tabindex="0">` +
  `<table class="thing-table"><caption id="things-caption">Things</caption>` +
  `<thead><tr><th scope="col">Name</th><th scope="col">Size</th></tr></thead>`;

Deno.test("DataTable: caption, heads and rows in a scrolling region named by the caption", () => {
  assert.equal(
    table(["a", "b"]),
    `${head}<tbody><tr><th scope="row" data-label="Name">a</th><td data-label="Size">1</td></tr>` +
      `<tr><th scope="row" data-label="Name">b</th><td data-label="Size">1</td></tr>` +
      `</tbody></table></div>`,
  );
});

Deno.test("DataTable: no rows is the empty line across the columns; not loaded yet is an empty body", () => {
  assert.equal(
    table([]),
    `${head}<tbody><tr><td colspan="2" class="tx-empty">No things</td></tr></tbody></table></div>`,
  );
  assert.equal(table(null), `${head}<tbody></tbody></table></div>`);
  // Without an empty text (a list that always has rows), nothing stands in for them.
  assert.equal(table([], { empty: undefined }), `${head}<tbody></tbody></table></div>`);
});

Deno.test("DataTable: a footer, and the loaded mark tests wait for", () => {
  const html = table(["a"], {
    foot: (
      <tr>
        <th scope="row">Total</th>
        <td>1</td>
      </tr>
    ),
    loaded: true,
  });
  assert.ok(
    html.startsWith(
      `<div class="table-scroll" role="region" aria-labelledby="things-caption" tabindex="0" data-loaded="">`,
    ),
  );
  assert.ok(
    html.endsWith(
      `</tbody><tfoot><tr><th scope="row" data-label="Name">Total</th><td data-label="Size">1</td></tr>` +
        `</tfoot></table></div>`,
    ),
  );
  assert.ok(!table(["a"], { loaded: false }).includes("data-loaded"));
});

/** Cells in a group, as a row may render them (the reports' money cells). */
const pair = () => (
  <>
    <td>1</td>
    <td>2</td>
  </>
);

Deno.test("DataTable: each cell carries its column's head, for the row's card on a phone", () => {
  const html = tight(renderToString(
    <DataTable
      id="money-caption"
      caption="Money"
      columns={["Month", "Amount", <span key="count">Count (ILS)</span>, "Note"]}
      rows={["jan"]}
      row={(r) => (
        <tr key={r} class="month">
          <th scope="row">{r}</th>
          {pair()}
          {false && <td>never</td>}
          <td class="note">n</td>
        </tr>
      )}
      foot={
        <tr>
          <th scope="row">Total</th>
          <td>1</td>
          <td>2</td>
          <td />
        </tr>
      }
    />,
  ));
  assert.ok(
    html.includes(
      `<tbody><tr class="month"><th scope="row" data-label="Month">jan</th><td data-label="Amount">1</td>` +
        `<td>2</td><td class="note" data-label="Note">n</td></tr></tbody>`,
    ),
    html,
  );
  assert.ok(
    html.includes(
      `<tfoot><tr><th scope="row" data-label="Month">Total</th><td data-label="Amount">1</td><td>2</td>` +
        `<td data-label="Note"></td></tr></tfoot>`,
    ),
    html,
  );
});

Deno.test("DataTable: a row with a cell across columns has no labels (the empty line, a footer's total)", () => {
  const html = table([], {
    foot: (
      <tr>
        <th scope="row" colSpan={1}>Total</th>
        <td>0</td>
      </tr>
    ),
  });
  assert.ok(html.includes(`<tfoot><tr><th scope="row" colspan="1" data-label="Name">Total</th>`), html);
  const spanning = table(["a"], {
    foot: (
      <tr>
        <th scope="row" colSpan={2}>Total</th>
        <td>0</td>
      </tr>
    ),
  });
  assert.ok(
    spanning.includes(`<tfoot><tr><th scope="row" colspan="2">Total</th><td>0</td></tr></tfoot>`),
    spanning,
  );
  assert.ok(table([]).includes(`<td colspan="2" class="tx-empty">No things</td>`));
});
