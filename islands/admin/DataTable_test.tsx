/**
 * The back office's one table: the scrolling region named by its caption, the column heads, the
 * rows, the empty line across every column, a footer; the markup each section's table had.
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
    `${head}<tbody><tr><th scope="row">a</th><td>1</td></tr><tr><th scope="row">b</th><td>1</td></tr>` +
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
    html.endsWith(`</tbody><tfoot><tr><th scope="row">Total</th><td>1</td></tr></tfoot></table></div>`),
  );
  assert.ok(!table(["a"], { loaded: false }).includes("data-loaded"));
});
