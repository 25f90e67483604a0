/**
 * The lists that grow by 'Show more' (the members, today's visits; issue 29: one home for what the
 * two sections copied). Their own module beside `CursorPager.tsx` (the 'Newer'/'Older' pages of the
 * audit log and the outgoing email): a shared module lands whole in the chunk every importer loads,
 * so the four sections ship only the paging they use.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";

/**
 * A list that grows by 'Show more' (the members, today's visits): the rows so far, the cursor of
 * the rest (null: no more), whether a page is on its way, and the last failure's words.
 */
export interface MoreRows<T> {
  rows: T[];
  next: string | null;
  loading: boolean;
  error: string | null;
  /** Asks for the next page; null while one loads or when there is none. */
  more: (() => void) | null;
}

/** The list once `page` (`{ data, next }`, as `/api/memberships` and `/api/visits` answer) has come. */
export function withPage<T, L extends Omit<MoreRows<T>, "more">>(
  load: L,
  page: { data: T[]; next: string | null },
): L {
  return { ...load, rows: [...load.rows, ...page.data], next: page.next, loading: false, error: null };
}

/**
 * Grows a list by 'Show more': asks for the first page once `start` holds, then for the next on
 * `more`. A failed request keeps the rows and the cursor (so 'Show more' tries again) and shows
 * `failed(error)`.
 *
 * @example
 * ```ts
 * const list = useMoreRows((cursor) => api.request(`/api/visits${cursor ? `?cursor=${cursor}` : ""}`), ready, failed);
 * ```
 */
export function useMoreRows<T>(
  fetchPage: (cursor: string | null) => Promise<{ data: T[]; next: string | null }>,
  start: boolean,
  failed: (error: unknown) => string,
): MoreRows<T> {
  type Load = Omit<MoreRows<T>, "more">;
  const [load, setLoad] = useState<Load>({ rows: [], next: null, loading: true, error: null });
  const go = (cursor: string | null, rows: T[]) => {
    const before: Load = { rows, next: cursor, loading: true, error: null };
    setLoad(before);
    fetchPage(cursor).then((page) => setLoad(withPage(before, page)))
      .catch((error) => setLoad({ ...before, loading: false, error: failed(error) }));
  };
  useEffect(() => {
    if (start) go(null, []);
  }, [start]);
  return { ...load, more: !load.loading && load.next ? () => go(load.next, load.rows) : null };
}

/** Below a growing list: its loading line (`loading`), its failure, and the 'Show more' button (`more`). */
export function ShowMore(props: { list: MoreRows<unknown>; loading: string; more: string }) {
  const { list } = props;
  return (
    <>
      {list.loading && (
        <div class="loading" role="status">
          <span class="spinner" aria-hidden="true" />
          <span>{props.loading}</span>
        </div>
      )}
      {list.error && <p class="form-alert" role="alert">{list.error}</p>}
      {list.more && (
        <button type="button" class="button button-outline" onClick={list.more}>
          {props.more}
        </button>
      )}
    </>
  );
}
