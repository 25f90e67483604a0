/**
 * Reading transactions on PostgreSQL: pages of the lists (with or without a search), keyset scans
 * of a whole list, and daily totals. Every read is an index range whose cost follows the page, the
 * batch or the matches, never the size of the table.
 *
 * Indexes read (the tables are described in `transaction_rows.ts`):
 * - `transactions_kind_seq_all` `(kind, seq_all)` and `transactions_kind_monthly_seq_sub`
 *   `(kind, is_monthly, seq_sub)` (migration 6; errors numbered in `seq_sub` since migration 9):
 *   a page is the range of sequence numbers below the list's counter (`transaction_counters`),
 *   total and rows in one statement, so both come from one snapshot;
 * - `search_values_trgm` (pg_trgm GIN, migration 7) finds the distinct lower-cased donor fields
 *   containing the term; the primary key of `transaction_search` `(part, value, seq_all)`
 *   (migrations 7 and 9) then counts and pages their entries by index-only scans: work in
 *   proportion to the matches, never a visit to each matching row (see {@link searchPage});
 * - `transactions.scan` reads the same indexes below the cursor (the last `seq_all` or `seq_sub`
 *   answered), so reading a whole list never pays for deep offsets; with a search, the newest
 *   entries below the cursor of each matching field value, or the list walked along `seq_all`
 *   when the values are many;
 * - a `range` is first a window of the list's numbers, found by two probes of the kind's
 *   `created_at` index (`transactions_success_report`, `transactions_error_created_at`: migration
 *   30), then read as above within that window;
 * - `transactions_success_created_at` (migration 9), a partial index of successes' `created_at`
 *   including amount and currency: `dailyTotals` is one `group by` of `width_bucket` over the
 *   days' bounds (computed by the app in the museum's zone) over a range of it, index-only.
 *
 * @module
 */

import type postgres from "postgres";
import {
  listOf,
  listRange,
  pageWindow,
  scanWindow,
  SEARCH_SEPARATOR,
  searchTermOf,
  totalsBounds,
} from "@/lib/storage/queries.ts";
import type {
  DailyTotal,
  Page,
  SearchScope,
  Transaction,
  TransactionBatch,
  TransactionQuery,
  TransactionScanQuery,
} from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";
import { searchPartsOf, toTransaction, type TransactionRow } from "./transaction_rows.ts";

/**
 * A search that matches more distinct donor fields than this reads its page from the list itself,
 * newest first, rather than from the newest entries of every field value (one index probe each).
 */
const NARROW_SEARCH_VALUES = 200;
/** ... and past this many, it counts its total in one pass over the list rather than by value. */
const PROBED_SEARCH_VALUES = 20_000;

/** A `like` pattern that finds `term` anywhere, its own %, _ and \ matching literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A piece of a statement. */
type Fragment = postgres.PendingQuery<postgres.Row[]>;

/** A window of a list in its own numbering: sequence numbers `low <= seq < high`. */
interface SeqWindow {
  low: number;
  high: number;
}

/**
 * A statement answering the window `(low, high)` of the list `(kind, isMonthly)` that `range`
 * covers (see `TransactionQuery.range`): `low` is the number of its first transaction with
 * `created_at >= from`, `high` of its first with `created_at >= to`, the list's end (counter plus
 * one) when none. Each is one probe of the kind's `created_at` index (migrations 9 and 30).
 */
function windowQuery(
  sql: PgContext["sql"],
  kind: Transaction["kind"],
  isMonthly: boolean | undefined,
  range: { from: string; to: string },
) {
  const seq = isMonthly === undefined ? sql`w.seq_all` : sql`w.seq_sub`;
  const monthly = isMonthly === undefined ? sql`` : sql`and w.is_monthly = ${isMonthly}`;
  const end = sql`(coalesce((select n from transaction_counters where list = ${
    listOf(kind, isMonthly)
  }), 0) + 1)`;
  const first = (instant: string) =>
    sql`(select ${seq} from transactions w where w.kind = ${kind} ${monthly} and w.created_at >= ${instant}
      order by w.created_at, ${seq} limit 1)`;
  return sql`select coalesce(${first(range.from)}, ${end})::int8 as low, coalesce(${
    first(range.to)
  }, ${end})::int8 as high`;
}

/** {@link windowQuery} run on its own: the window as numbers, or the whole list without a range. */
async function seqWindow(
  sql: PgContext["sql"],
  kind: Transaction["kind"],
  isMonthly: boolean | undefined,
  range: { from: string; to: string } | null,
): Promise<SeqWindow | null> {
  if (range === null) return null;
  const [row] = await sql<{ low: string; high: string }[]>`${windowQuery(sql, kind, isMonthly, range)}`;
  return { low: Number(row.low), high: Number(row.high) };
}

/** `and <column> >= low and <column> < high`, or nothing without a window. */
const inWindow = (sql: PgContext["sql"], column: Fragment, window: SeqWindow | null): Fragment =>
  window === null ? sql`` : sql`and ${column} >= ${window.low} and ${column} < ${window.high}`;

/** One page of a list (`listSuccess`, `listErrors`), searched or not, with its total. */
export async function listPage(
  ctx: PgContext,
  kind: Transaction["kind"],
  isMonthly: boolean | undefined,
  query: TransactionQuery,
): Promise<Page<Transaction>> {
  const { sql } = ctx;
  const { offset, limit } = pageWindow(query);
  const term = searchTermOf(query.search);
  const range = listRange(query.range);
  const monthly = isMonthly === undefined ? sql`` : sql`and t.is_monthly = ${isMonthly}`;

  if (term === null && range !== null) {
    // One statement, as below: the window (two index probes) and the page's seq range of it.
    const seq = isMonthly === undefined ? sql`t.seq_all` : sql`t.seq_sub`;
    const rows = await sql<(TransactionRow & { total: string })[]>`
      with w as (${windowQuery(sql, kind, isMonthly, range)})
      select w.high - w.low as total, t.*
      from w
      left join transactions t
        on t.kind = ${kind} ${monthly}
        and ${seq} >= w.low and ${seq} < w.high - ${offset} and ${seq} >= w.high - ${offset + limit}
      order by ${seq} desc
    `;
    const total = Number(rows[0].total);
    return { data: rows.filter((row) => row.id !== null).map(toTransaction), total };
  }
  if (term === null) {
    // One statement, so the total and the page come from one snapshot: the counter row, joined
    // to the page's seq range of the list (an index range scan on the seq index).
    const seq = isMonthly === undefined ? sql`t.seq_all` : sql`t.seq_sub`;
    const rows = await sql<(TransactionRow & { total: string })[]>`
      select c.n as total, t.*
      from transaction_counters c
      left join transactions t
        on t.kind = ${kind} ${monthly}
        and ${seq} <= c.n - ${offset} and ${seq} > c.n - ${offset + limit}
      where c.list = ${listOf(kind, isMonthly)}
      order by ${seq} desc
    `;
    const total = rows.length === 0 ? 0 : Number(rows[0].total);
    return { data: rows.filter((row) => row.id !== null).map(toTransaction), total };
  }

  // Search (see migration 7), inside the kind's window of `seq_all` when a range is given: in time
  // order, that window of the whole list holds exactly the range's part of each sub-list.
  const window = await seqWindow(sql, kind, undefined, range);
  const rows = await searchPage(
    ctx,
    kind,
    isMonthly,
    term,
    query.searchScope ?? "all",
    offset,
    limit,
    window,
  );
  const total = rows.length === 0 ? 0 : Number(rows[0].total);
  return { data: rows.filter((row) => row.id !== null).map(toTransaction), total };
}

/**
 * One page of a search and its total: rows of the page (or one row of nulls) carrying the total.
 * The trigram index on search_values finds the distinct donor fields that contain the term
 * (`like` on the lower-cased values, with the term's own %, _ and the escape character \
 * escaped, so they match literally). A first query counts them (up to a cap), which picks how
 * the second reads the total and the page; the second finds the fields again itself, so the
 * total and the page come from one snapshot.
 * - Up to {@link NARROW_SEARCH_VALUES} fields (a name, an email): the total is an index-only
 *   count of their entries in transaction_search (a transaction with two matching fields has
 *   two entries: counted once), the page the newest `offset + limit` entries of each, merged.
 * - Up to {@link PROBED_SEARCH_VALUES} (part of many emails): the same count; the page is the
 *   list read newest first and filtered, since the matches are then many.
 * - More (a letter, a domain): the total is one pass over the list's rows, cheaper then than
 *   most of the entries; the page as above.
 */
async function searchPage(
  { sql }: PgContext,
  kind: Transaction["kind"],
  isMonthly: boolean | undefined,
  term: string,
  scope: SearchScope,
  offset: number,
  limit: number,
  window: SeqWindow | null,
): Promise<(TransactionRow & { total: string })[]> {
  const pattern = containing(term);
  const entryInWindow = inWindow(sql, sql`s.seq_all`, window);
  const parts = searchPartsOf(kind, isMonthly);
  const monthly = isMonthly === undefined ? sql`` : sql`and t.is_monthly = ${isMonthly}`;
  // Names only: a value holding @ is (or may be, values being shared by fields) an address; in a
  // row's search_text the names are the values after the email.
  const names = scope === "names";
  const values = sql`select value from search_values where value like ${pattern} ${
    names ? sql`and strpos(value, '@') = 0` : sql``
  }`;
  const entries = sql`transaction_search s where s.part = any(${parts}::"char"[]) ${entryInWindow}`;
  const matching = names
    ? sql`exists (
        select 1 from unnest((string_to_array(t.search_text, ${SEARCH_SEPARATOR}))[2:]) as f (value)
        where f.value like ${pattern} and strpos(f.value, '@') = 0
      )`
    : sql`t.search_text like ${pattern}`;
  const listed = sql`transactions t where t.kind = ${kind} ${monthly} and ${matching} ${
    inWindow(sql, sql`t.seq_all`, window)
  }`;
  const [{ n }] = await sql<{ n: string }[]>`
    select count(*) as n from (${values} limit ${PROBED_SEARCH_VALUES + 1}) as m
  `;
  const matched = Number(n);
  if (matched === 0) return [];
  if (matched <= NARROW_SEARCH_VALUES) {
    return await sql<(TransactionRow & { total: string })[]>`
      with m as materialized (${values}),
      total as (
        select case
          when (select count(*) from m) = 1 then
            (select count(*) from ${entries} and s.value = (select value from m))
          else (select count(distinct s.seq_all) from ${entries} and s.value = any(array(select value from m)))
        end as n
      ),
      page as (
        select distinct x.seq
        from m
        cross join unnest(${parts}::"char"[]) as p (part)
        cross join lateral (
          select s.seq_all as seq from transaction_search s
          where s.part = p.part and s.value = m.value ${entryInWindow}
          order by s.seq_all desc
          limit ${offset + limit}
        ) as x
        order by x.seq desc
        offset ${offset} limit ${limit}
      )
      select total.n as total, t.*
      from total
      left join (page join transactions t on t.kind = ${kind} and t.seq_all = page.seq) on true
      order by t.seq_all desc
    `;
  }
  const total = matched <= PROBED_SEARCH_VALUES
    ? sql`select count(distinct s.seq_all) as n from ${entries} and s.value = any(array(${values}))`
    : sql`select count(*) as n from ${listed}`;
  return await sql<(TransactionRow & { total: string })[]>`
    with total as (${total}),
    page as (select t.* from ${listed} order by t.seq_all desc offset ${offset} limit ${limit})
    select total.n as total, page.*
    from total left join page on true
    order by page.seq_all desc
  `;
}

/** `transactions.scan`: one keyset batch of a list below the cursor, newest first. */
export async function scan({ sql }: PgContext, query: TransactionScanQuery): Promise<TransactionBatch> {
  const { limit, term, before } = scanWindow(query);
  const { kind, isMonthly } = query;
  const range = listRange(query.range);
  const monthly = isMonthly === undefined ? sql`` : sql`and t.is_monthly = ${isMonthly}`;
  let rows: (TransactionRow & { seq: string })[];
  // The lowest number the batches go down to: the window's start with a range (in the list's own
  // numbering, or `seq_all`'s for a search).
  let low = 1;
  if (term === null) {
    // An index range of the list below the cursor: (kind, seq_all) or (kind, is_monthly, seq_sub).
    const seq = isMonthly === undefined ? sql`t.seq_all` : sql`t.seq_sub`;
    const window = await seqWindow(sql, kind, isMonthly, range);
    low = window?.low ?? 1;
    rows = await sql<(TransactionRow & { seq: string })[]>`
      select ${seq} as seq, t.* from transactions t
      where t.kind = ${kind} ${monthly} ${before === null ? sql`` : sql`and ${seq} < ${before}`}
        ${inWindow(sql, seq, window)}
      order by ${seq} desc
      limit ${limit}
    `;
  } else {
    // A search walks seq_all (see searchPage): through the entries of the few matching field
    // values when there are few, else along the list itself.
    const pattern = containing(term);
    const window = await seqWindow(sql, kind, undefined, range);
    low = window?.low ?? 1;
    const below = sql`${before === null ? sql`` : sql`and s.seq_all < ${before}`} ${
      inWindow(sql, sql`s.seq_all`, window)
    }`;
    const values = sql`select value from search_values where value like ${pattern}`;
    const [{ n }] = await sql<{ n: string }[]>`
      select count(*) as n from (${values} limit ${NARROW_SEARCH_VALUES + 1}) as m
    `;
    rows = Number(n) <= NARROW_SEARCH_VALUES
      ? await sql<(TransactionRow & { seq: string })[]>`
        with m as materialized (${values}),
        batch as (
          select distinct x.seq
          from m
          cross join unnest(${searchPartsOf(kind, isMonthly)}::"char"[]) as p (part)
          cross join lateral (
            select s.seq_all as seq from transaction_search s
            where s.part = p.part and s.value = m.value ${below}
            order by s.seq_all desc
            limit ${limit}
          ) as x
          order by x.seq desc
          limit ${limit}
        )
        select t.seq_all as seq, t.* from batch join transactions t on t.kind = ${kind} and t.seq_all = batch.seq
        order by t.seq_all desc
      `
      : await sql<(TransactionRow & { seq: string })[]>`
        select t.seq_all as seq, t.* from transactions t
        where t.kind = ${kind} ${monthly} and t.search_text like ${pattern}
          ${before === null ? sql`` : sql`and t.seq_all < ${before}`} ${inWindow(sql, sql`t.seq_all`, window)}
        order by t.seq_all desc
        limit ${limit}
      `;
  }
  const last = rows.length === 0 ? 0 : Number(rows[rows.length - 1].seq);
  return { data: rows.map(toTransaction), next: rows.length === limit && last > low ? String(last) : null };
}

/** `transactions.dailyTotals`: successes summed per period of the bounds (the museum's days) and currency. */
export async function dailyTotals(
  { sql }: PgContext,
  input: readonly string[],
): Promise<DailyTotal[]> {
  const bounds = totalsBounds(input);
  const [from, to] = [bounds[0], bounds[bounds.length - 1]];
  // A range of the partial index on successes' created_at (migration 9), index-only, bucketed by
  // the same bounds Deno KV uses (`periodOf`): the app's days, never PostgreSQL's own zone data.
  const rows = await sql<{ period: number; currency: number; amount: string; count: number }[]>`
    select width_bucket(created_at, ${bounds}::timestamptz[]) - 1 as period, currency,
      sum(amount)::text as amount, count(*)::int as count
    from transactions
    where kind = 'success' and created_at >= ${from} and created_at < ${to}
      and amount is not null and currency is not null
    group by 1, 2
    order by 1, 2
  `;
  return rows.map((row) => ({
    period: row.period,
    currency: row.currency as DailyTotal["currency"],
    amount: Number(row.amount),
    count: row.count,
  }));
}
