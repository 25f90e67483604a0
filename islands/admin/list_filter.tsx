import { useEffect, useState } from "preact/hooks";
import type { Translate } from "@/islands/shared/texts.ts";

/**
 * A filter a back-office list takes from its page's query (the overview's links, issue 26): the
 * value of `name` in `search` (the query the server rendered), or, in the browser without it, in
 * the page's own; `undefined` until known, so the list loads once, already filtered.
 *
 * @example
 * ```ts
 * const since = useQueryParam(props.search, "failingSince"); // "2026-11-23", null, or undefined at first
 * ```
 */
export function useQueryParam(search: string | undefined, name: string): string | null | undefined {
  const [value, setValue] = useState(() =>
    search === undefined ? undefined : new URLSearchParams(search).get(name)
  );
  useEffect(() => {
    if (value === undefined) setValue(new URLSearchParams(location.search).get(name));
  }, []);
  return value;
}

/**
 * The line that says a list is filtered, and a link to all of it (the same page without its query).
 */
export function FilterNotice(props: { t: Translate; text: string }) {
  return (
    <p class="list-filter" role="status">
      <span>{props.text}</span> <a href="?">{props.t("overview.filter.showAll")}</a>
    </p>
  );
}
