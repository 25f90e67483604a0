/**
 * What the storage contract suite shares: the options a backend gives each part of the contract
 * ({@link ContractOptions}), opening and closing stores around a step, reading whole lists page by
 * page or batch by batch, ISO instant checks, and where the PostgreSQL under test is. The records
 * the steps write are built in `fixtures.ts`.
 *
 * @module
 */

import postgres from "postgres";
import type {
  FeatureFlag,
  Page,
  Store,
  Transaction,
  TransactionBatch,
  TransactionScanQuery,
} from "@/lib/storage/types.ts";
import assert from "node:assert/strict";

/** The PostgreSQL server the tests use: `TEST_DATABASE_URL`, or the local default. */
export const PG_URL = Deno.env.get("TEST_DATABASE_URL") ||
  "postgres://postgres:postgres@127.0.0.1:5432/postgres";
/** Whether env `CI` is set to something other than "", "0" or "false": then PostgreSQL is required. */
export const IN_CI = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());

/** What every part of the contract is given about the backend under test. */
export interface ContractOptions {
  /** The backend `open` is expected to answer. */
  kind: Store["kind"];
  /**
   * Opens a store on the backend under test. Its data is empty before the first part's first step;
   * parts and steps run in order and share that data, so each step uses its own names (a prefix, a
   * `uid`) and filters what it lists by them.
   */
  open: () => Promise<Store>;
  /**
   * Whether every store `open` answers sees the same data (a file, a database schema). A
   * `:memory:` KV is a new empty database each time, so cross-instance steps race within one store.
   */
  sharedData: boolean;
  /**
   * Answers an opener of new, empty data on every call (a new `:memory:` store, file or schema),
   * for steps that need whole lists to themselves: totals, pages, "no approved admin yet". The
   * stores one opener answers share their data when `sharedData` is true.
   */
  fresh: () => () => Promise<Store>;
}

/** One part of the contract: registers its steps on `t`, one after another, for one backend. */
export type Contract = (t: Deno.TestContext, options: ContractOptions) => Promise<void>;

/** Exactly what `Date.prototype.toISOString` writes. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a store, runs `fn`, and closes the store whatever happens. */
export async function withStore<T>(open: () => Promise<Store>, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await open();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The flags whose name starts with `prefix`, in the order given: each step keeps to its own names. */
export const under = (flags: FeatureFlag[], prefix: string) => flags.filter((f) => f.flag.startsWith(prefix));

/** Asserts that `value` is an ISO 8601 instant exactly as `toISOString` writes it. */
export function assertIsoInstant(value: string, what: string): void {
  assert.match(value, ISO_INSTANT, `${what}: ${JSON.stringify(value)} is not an ISO 8601 instant`);
  assert.deepEqual(new Date(value).toISOString(), value, `${what} does not round-trip through Date`);
}

/**
 * Opens one store on `openData`, or two that share the data when the backend can (a file, a
 * schema), runs `fn` with both, and closes them: concurrent steps then race across instances.
 */
export async function withTwo<T>(
  openData: () => Promise<Store>,
  sharedData: boolean,
  fn: (a: Store, b: Store) => Promise<T>,
): Promise<T> {
  const a = await openData();
  try {
    const b = sharedData ? await openData() : a;
    try {
      return await fn(a, b);
    } finally {
      if (b !== a) await b.close();
    }
  } finally {
    await a.close();
  }
}

/** Runs `count` calls of `fn` at once, alternating the two stores. */
export const race = <T>(a: Store, b: Store, count: number, fn: (store: Store, i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => fn(i % 2 === 0 ? a : b, i)));

// ---- reading whole lists ----

/** The ids of every page of a list, fetched one page at a time, and the page sizes. */
export async function allPages(
  list: (query: { page: number; limit: number }) => Promise<Page<Transaction>>,
  limit: number,
  expectedTotal: number,
): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  const pages = Math.ceil(expectedTotal / limit);
  for (let page = 1; page <= pages + 1; page++) {
    const result = await list({ page, limit });
    assert.deepEqual(result.total, expectedTotal, `total on page ${page}`);
    sizes.push(result.data.length);
    ids.push(...result.data.map((tx) => tx.id));
  }
  return { ids, sizes };
}

/**
 * The ids of a whole list read with `transactions.scan`, batch after batch, and how many batches
 * it took; checks that no batch is larger than `limit` and no id comes twice.
 */
export async function scanAll(
  store: Store,
  query: Omit<TransactionScanQuery, "before" | "limit">,
  limit: number,
): Promise<{ ids: string[]; batches: number }> {
  const ids: string[] = [];
  let before: string | null = null;
  let batches = 0;
  do {
    const batch: TransactionBatch = await store.transactions.scan({ ...query, before, limit });
    assert.ok(batch.data.length <= limit, `a batch of ${batch.data.length} > ${limit}`);
    ids.push(...batch.data.map((tx) => tx.id));
    before = batch.next;
    assert.ok(++batches < 10_000, "scan() does not end");
  } while (before !== null);
  assert.deepEqual(new Set(ids).size, ids.length, "scan() answered an id twice");
  return { ids, batches };
}

/** Every list of a store, read page by page (`limit` 7), with its total: what an admin can see. */
export const everyList = async (store: Store) => {
  const read = async (list: (q: { page: number; limit: number }) => Promise<Page<Transaction>>) => {
    const { total } = await list({ page: 1, limit: 1 });
    const { ids, sizes } = await allPages(list, 7, total);
    // Pages are consistent: full pages, then the rest, then an empty one; no id twice.
    assert.deepEqual(sizes.slice(0, -1).every((n, i, all) => n === 7 || i === all.length - 1), true);
    assert.deepEqual(new Set(ids).size, ids.length, "an id appears on two pages");
    return { total, ids };
  };
  return {
    all: await read((q) => store.transactions.listSuccess(q)),
    monthly: await read((q) => store.transactions.listSuccess({ ...q, isMonthly: true })),
    oneTime: await read((q) => store.transactions.listSuccess({ ...q, isMonthly: false })),
    errors: await read((q) => store.transactions.listErrors(q)),
    monthlyErrors: await read((q) => store.transactions.listErrors({ ...q, isMonthly: true })),
    oneTimeErrors: await read((q) => store.transactions.listErrors({ ...q, isMonthly: false })),
  };
};

/** Every list of a store (ids of all pages) and a search of each error list: what an admin sees. */
export async function listsSeen(store: Store) {
  const read = async (list: (q: { page: number; limit: number }) => Promise<Page<Transaction>>) => {
    const { total } = await list({ page: 1, limit: 1 });
    return { total, ids: (await allPages(list, 100, total)).ids };
  };
  const out: Record<string, { total: number; ids: string[] }> = {};
  for (const isMonthly of [undefined, true, false]) {
    for (const search of [undefined, "LEGACY"]) {
      out[`success ${isMonthly} ${search}`] = await read((q) =>
        store.transactions.listSuccess({ ...q, isMonthly, search })
      );
      out[`error ${isMonthly} ${search}`] = await read((q) =>
        store.transactions.listErrors({ ...q, isMonthly, search })
      );
    }
  }
  return out;
}

// ---- PostgreSQL ----

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(unparsable URL)";
  }
}

/** Answers why PostgreSQL cannot be used, or `null` when it can. */
async function probePostgres(url: string): Promise<string | null> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    return [code, message].filter(Boolean).join(": ") || "unknown error";
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Why the PostgreSQL tests cannot run (the server at {@link PG_URL} is unreachable, and how to
 * start it), or "" when they can. Each test file that needs PostgreSQL asks once, at load time.
 */
export async function postgresUnavailable(): Promise<string> {
  const pgProblem = await probePostgres(PG_URL);
  return pgProblem === null
    ? ""
    : `PostgreSQL at ${redact(PG_URL)} is unreachable (${pgProblem}); set TEST_DATABASE_URL, or start it: ` +
      `pg_ctlcluster 15 main start`;
}

/** A new random schema name: each run, and each fresh store, gets its own, dropped at the end. */
export const randomSchema = () => `test_storage_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

/** A separate connection that looks at the tables from outside the store. */
export const adminConnection = () => postgres(PG_URL, { max: 2, connect_timeout: 5, onnotice: () => {} });

/** The rows of `schema_migrations` in schema `name`, by version, read through `admin`. */
export const migrationRows = (admin: postgres.Sql, name: string) =>
  admin<{ version: number; name: string; applied_at: Date }[]>`
        select version, name, applied_at from ${admin(name)}.schema_migrations order by version
      `.then((rows) => [...rows]);
