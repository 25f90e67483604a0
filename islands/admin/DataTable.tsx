import { type ComponentChildren, Fragment, type VNode } from "preact";

/** What {@link DataTable} shows. */
export interface DataTableProps<T> {
  /** The caption's id, which names the scrolling region. */
  id: string;
  /** The table's class (the section's styles), if any. */
  class?: string;
  caption: ComponentChildren;
  /** The column heads, in order. */
  columns: ComponentChildren[];
  /** The rows' items; null or undefined while they load (an empty body). */
  rows: readonly T[] | null | undefined;
  /** One item's row, with its key. */
  row: (item: T, index: number) => VNode;
  /** The line across every column when there are no rows; without it, an empty body. */
  empty?: ComponentChildren;
  /** The footer's rows (totals). */
  foot?: ComponentChildren;
  /** Marks the region `data-loaded` (tests wait for it); without it, no mark. */
  loaded?: boolean;
}

/**
 * An email address that may break after its `@` first (a table's narrow column), and anywhere only
 * when a part is still too long; its text is the address as it is.
 *
 * @example
 * ```tsx
 * <td><Address email="noa.levi@example.org" /></td>
 * ```
 */
export function Address(props: { email: string }) {
  const at = props.email.lastIndexOf("@");
  if (at < 1) return <>{props.email}</>;
  return (
    <>
      {props.email.slice(0, at + 1)}
      <wbr />
      {props.email.slice(at + 1)}
    </>
  );
}

/** A Preact element (what JSX makes), as opposed to text, a number or nothing. */
type Element = { type: unknown; key?: unknown; props: Record<string, unknown> };
const isElement = (child: unknown): child is Element =>
  typeof child === "object" && child !== null && "type" in child && "props" in child;

/** `children` as one list, the cells of a group (`<>…</>`) in its place; nothing left out. */
function flat(children: unknown): unknown[] {
  if (Array.isArray(children)) return children.flatMap(flat);
  if (children === null || children === undefined || typeof children === "boolean") return [];
  if (!isElement(children) || children.type !== Fragment) return [children];
  // The server's precompiled JSX makes a group of cells a template whose only parts are the cells
  // (`tr`, `th`, `td` are built as elements: deno.json's `jsxPrecompileSkipElements`).
  const { tpl, exprs } = children.props as { tpl?: string[]; exprs?: unknown[] };
  if (!tpl) return flat(children.props.children);
  return tpl.every((part) => !part.trim()) ? flat(exprs) : [children];
}

/** `element` with `props` added (and its key kept): `cloneElement` without its bytes in every page. */
function withProps(element: Element, props: Record<string, unknown>): VNode {
  const Type = element.type as "td";
  return <Type key={element.key as string} {...element.props} {...props} />;
}

/**
 * `row` with each cell labelled with its column's head (`data-label`, when the head is text): a
 * narrow table shows its rows as cards, each value under its label (`static/styles.css`). A row
 * with a cell across columns (the empty line, a footer's total) keeps no labels.
 */
function labelled(row: unknown, labels: (string | undefined)[]): ComponentChildren {
  if (!isElement(row) || row.type !== "tr") return row as ComponentChildren;
  const cells = flat(row.props.children);
  // `colspan` as the server's JSX writes it, `colSpan` as the browser's.
  const spans = cells.some((c) => isElement(c) && Number(c.props.colSpan ?? c.props.colspan ?? 1) > 1);
  if (spans) return row as ComponentChildren;
  let column = 0;
  const labelledCells = cells.map((c) =>
    isElement(c) && (c.type === "td" || c.type === "th")
      ? withProps(c, { "data-label": labels[column++] })
      : c
  );
  return withProps(row, { children: labelledCells });
}

/**
 * The back office's table: a region named by the table's caption (reachable by keyboard), the
 * column heads, the rows, the empty line and a footer. Each cell carries its column's head, so that
 * where the table has no room for its columns (a phone) each row shows as a card of labelled values.
 *
 * @example
 * ```tsx
 * <DataTable id="outbox-caption" class="outbox-table" caption={t("backofficeMail.outboxTitle")}
 *   columns={["created", "kind"].map((c) => t(`backofficeMail.columns.${c}`))}
 *   rows={page?.data} row={(m) => <tr key={m.id}>…</tr>} empty={t("backofficeMail.none")} />
 * ```
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { id, columns, rows } = props;
  const labels = columns.map((c) => typeof c === "string" ? c : undefined);
  return (
    <div
      class="table-scroll"
      role="region"
      aria-labelledby={id}
      tabIndex={0}
      data-loaded={props.loaded ? "" : undefined}
    >
      <table class={props.class}>
        <caption id={id}>{props.caption}</caption>
        <thead>
          <tr>
            {columns.map((c, i) => <th scope="col" key={i}>{c}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows?.length === 0 && props.empty !== undefined && (
            <tr>
              <td colSpan={columns.length} class="tx-empty">{props.empty}</td>
            </tr>
          )}
          {rows?.map((item, i) => labelled(props.row(item, i), labels))}
        </tbody>
        {props.foot !== undefined && <tfoot>{flat(props.foot).map((row) => labelled(row, labels))}</tfoot>}
      </table>
    </div>
  );
}
