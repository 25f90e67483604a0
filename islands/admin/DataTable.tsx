import type { ComponentChildren, VNode } from "preact";

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
 * The back office's table: a region that scrolls sideways on a phone and is named by the table's
 * caption (reachable by keyboard), the column heads, the rows, the empty line and a footer.
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
          {rows?.map(props.row)}
        </tbody>
        {props.foot !== undefined && <tfoot>{props.foot}</tfoot>}
      </table>
    </div>
  );
}
