import { useEffect, useState } from "preact/hooks";

/** A page of a cursor-paged list, as the API answers it (`/api/audit`, `/api/outbox`). */
export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
}

/** Where a list is: the cursors of the pages before this one (the first's is null), this page's, the page. */
export interface CursorState<T> {
  trail: (string | null)[];
  cursor: string | null;
  page: CursorPage<T> | null;
}

/**
 * The cursor and trail of the page 'Older' or 'Newer' goes to from `state`, or null where there is
 * none: 'Older' follows the page's `nextCursor`, 'Newer' goes back along the cursors seen.
 *
 * @example
 * ```ts
 * cursorStep({ trail: [], cursor: null, page: { data, nextCursor: "c2" } }, "older"); // { cursor: "c2", trail: [null] }
 * ```
 */
export function cursorStep<T>(
  state: CursorState<T>,
  way: "older" | "newer",
): { cursor: string | null; trail: (string | null)[] } | null {
  if (way === "newer") {
    return state.trail.length === 0 ? null : { cursor: state.trail.at(-1)!, trail: state.trail.slice(0, -1) };
  }
  const next = state.page?.nextCursor;
  return next ? { cursor: next, trail: [...state.trail, state.cursor] } : null;
}

/** A cursor-paged list in an island: its page, and the moves open from it (null where none). */
export interface CursorPages<T> {
  page: CursorPage<T> | null;
  newer: (() => void) | null;
  older: (() => void) | null;
  /** Asks for the page on screen again. */
  reload: () => void;
}

/**
 * Pages through a cursor-paged list: asks for the first page once `start` holds, then for the page
 * each move goes to; the page on screen and its place change when the next page has come, so a
 * failed request (given to `onError`) leaves both as they were.
 *
 * @example
 * ```ts
 * const pages = useCursorPages((cursor) => api.request(`/api/outbox${cursor ? `?cursor=${cursor}` : ""}`), ready, failed);
 * ```
 */
export function useCursorPages<T>(
  fetchPage: (cursor: string | null) => Promise<CursorPage<T>>,
  start: boolean,
  onError: (error: unknown) => void,
): CursorPages<T> {
  const [state, setState] = useState<CursorState<T>>({ trail: [], cursor: null, page: null });
  const go = async (to: { cursor: string | null; trail: (string | null)[] }) => {
    try {
      const page = await fetchPage(to.cursor);
      setState({ ...to, page });
    } catch (error) {
      onError(error);
    }
  };
  useEffect(() => {
    if (start) go({ cursor: null, trail: [] });
  }, [start]);
  const move = (way: "older" | "newer") => {
    const to = cursorStep(state, way);
    return to && (() => go(to));
  };
  return {
    page: state.page,
    newer: move("newer"),
    older: move("older"),
    reload: () => go(state),
  };
}

/**
 * The 'Newer' and 'Older' buttons of a cursor-paged list, each disabled where there is no page
 * that way (`Pagination.tsx` is the numbered pager of the transaction history).
 *
 * @example
 * ```tsx
 * <CursorPager class="audit-pages" label={t("staffAdmin.pages")} newer={t("staffAdmin.newer")}
 *   older={t("staffAdmin.older")} pages={pages} />
 * ```
 */
export function CursorPager(
  props: {
    class: string;
    label: string;
    newer: string;
    older: string;
    pages: Pick<CursorPages<unknown>, "newer" | "older">;
  },
) {
  const { newer, older } = props.pages;
  return (
    <nav class={props.class} aria-label={props.label}>
      <button type="button" class="button button-outline" disabled={!newer} onClick={newer ?? undefined}>
        {props.newer}
      </button>
      <button type="button" class="button button-outline" disabled={!older} onClick={older ?? undefined}>
        {props.older}
      </button>
    </nav>
  );
}
