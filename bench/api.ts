/**
 * `deno task bench:api`: latency of the two admin transaction lists over real HTTP, on a store
 * filled with the demo data (80% successes), on PostgreSQL and on Deno KV.
 *
 * Fills each store with `demoTransactions` through `transactions.import()` (a run that finds the
 * rows there already reuses them; an interrupted fill continues where it stopped), starts the real
 * app on it, signs in an approved admin and sends one request at a time, after a warm-up, for
 * each case. On PostgreSQL it first runs `VACUUM (ANALYZE)` on the benchmark's tables, as autovacuum
 * would soon after a back-fill. Progress goes to stderr; stdout gets the results as Markdown, for
 * `bench/README.md`.
 *
 * | variable             | default                                                   |
 * |----------------------|-----------------------------------------------------------|
 * | `BENCH_ROWS`         | `1000000` transactions                                    |
 * | `BENCH_KV_ROWS`      | `BENCH_ROWS` (KV fills slower; a smaller KV size is allowed) |
 * | `BENCH_SAMPLES`      | `200` requests per case                                   |
 * | `BENCH_CASE_SECONDS` | `60`: a case stops early after this long (at least 10 samples) |
 * | `BENCH_BACKENDS`     | `postgres,kv`                                             |
 * | `BENCH_DATABASE_URL` | `postgres://postgres:postgres@127.0.0.1:5432/bench_api` (created if missing; one schema per size, `bench_<rows>`) |
 * | `BENCH_KV_PATH`      | `data/bench-kv.sqlite3`                                   |
 *
 * @module
 */
import postgres from "postgres";
import { hashPassword } from "@/lib/staff/passwords.ts";
import { demoTransactions } from "@/lib/app/demo_data.ts";
import { newId } from "@/lib/core/ids.ts";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { MAX_IMPORT } from "@/lib/storage/queries.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";

const env = Deno.env.toObject();

function wholeNumber(name: string, fallback: number, min = 1): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`${name} must be a whole number of at least ${min} (got ${JSON.stringify(env[name])})`);
    Deno.exit(1);
  }
  return value;
}

const ROWS = wholeNumber("BENCH_ROWS", 1_000_000);
const KV_ROWS = wholeNumber("BENCH_KV_ROWS", ROWS);
const SAMPLES = wholeNumber("BENCH_SAMPLES", 200);
const CASE_SECONDS = wholeNumber("BENCH_CASE_SECONDS", 60);
const BACKENDS = (env.BENCH_BACKENDS ?? "postgres,kv").split(",").map((b) => b.trim()).filter(Boolean);
const DATABASE_URL = env.BENCH_DATABASE_URL || "postgres://postgres:postgres@127.0.0.1:5432/bench_api";
const KV_PATH = env.BENCH_KV_PATH || "data/bench-kv.sqlite3";
for (const backend of BACKENDS) {
  if (backend !== "postgres" && backend !== "kv") {
    console.error(`BENCH_BACKENDS: unknown backend ${JSON.stringify(backend)} (use postgres, kv)`);
    Deno.exit(1);
  }
}

/** The demo data: two years up to the benchmark's date, always the same for a size. */
const DATA = { seed: 1, from: new Date("2024-11-22T00:00:00Z"), to: new Date("2026-11-22T00:00:00Z") };
const ADMIN = { email: "bench@museum.test", password: "bench-lists-at-scale-2026" };
const LIMIT = 10;
/** A case with fewer samples than this is not cut short by BENCH_CASE_SECONDS. */
const MIN_SAMPLES = 10;

const log = (line: string) => console.error(line);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

// ---- stores ----

/** Opens the PostgreSQL store of this size, creating the database when it is missing. */
async function openPostgres(rows: number): Promise<Store> {
  const url = new URL(DATABASE_URL);
  const database = decodeURIComponent(url.pathname.slice(1)) || "postgres";
  const server = new URL(url.href);
  server.pathname = "/postgres";
  const sql = postgres(server.href, { max: 1, onnotice: () => {} });
  try {
    const [found] = await sql`select 1 as found from pg_database where datname = ${database}`;
    if (!found) {
      log(`postgres: creating database ${database}`);
      await sql`create database ${sql(database)}`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
  return await openPostgresStore(url.href, { schema: `bench_${rows}` });
}

/**
 * `VACUUM (ANALYZE)` of the benchmark's schema: the state autovacuum reaches a minute or so after a
 * back-fill (visibility maps for index-only scans, statistics), so every run measures the same.
 */
async function vacuumPostgres(rows: number): Promise<void> {
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ name: string }[]>`
      select tablename as name from pg_tables where schemaname = ${`bench_${rows}`}
    `;
    for (const { name } of tables) await sql`vacuum (analyze) ${sql(`bench_${rows}`)}.${sql(name)}`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function totalRows(store: Store): Promise<number> {
  const success = await store.transactions.listSuccess({ page: 1, limit: 1 });
  const errors = await store.transactions.listErrors({ page: 1, limit: 1 });
  return success.total + errors.total;
}

/**
 * Brings the store to `rows` demo transactions: nothing to do when they are there, the missing
 * ones when a fill was interrupted (import is ordered and idempotent), a refusal when the store
 * holds other data. Answers the fill's duration (ms), or null when the rows were there.
 */
async function fill(store: Store, rows: number, where: string): Promise<number | null> {
  const present = await totalRows(store);
  if (present > 0) {
    let expected: Transaction | undefined;
    let i = 0;
    for (const tx of demoTransactions(rows, DATA)) {
      if (i++ === Math.min(present, rows) - 1) {
        expected = tx;
        break;
      }
    }
    const stored = await store.transactions.getByProviderId("demo", expected!.providerTransactionId!);
    if (present > rows || stored?.id !== expected!.id || stored.createdAt !== expected!.createdAt) {
      throw new Error(
        `${where} holds ${present} transactions that are not the first ${present} of this benchmark's ` +
          `${rows}; point the benchmark elsewhere or delete them`,
      );
    }
    if (present === rows) {
      log(`${store.kind}: ${rows} transactions there already (${where})`);
      return null;
    }
    log(`${store.kind}: ${present} of ${rows} transactions there; recording the rest`);
  }
  const started = performance.now();
  let batch: Transaction[] = [];
  let done = present;
  let lastReport = started;
  const flush = async () => {
    await store.transactions.import(batch);
    done += batch.length;
    batch = [];
    const now = performance.now();
    if (now - lastReport > 10_000 || done === rows) {
      lastReport = now;
      const rate = Math.round((done - present) / ((now - started) / 1000));
      log(`${store.kind}: ${done} / ${rows} (${rate}/s, ${seconds(now - started)} s)`);
    }
  };
  let index = 0;
  for (const tx of demoTransactions(rows, DATA)) {
    if (index++ < present) continue;
    batch.push(tx);
    if (batch.length === MAX_IMPORT) await flush();
  }
  if (batch.length > 0) await flush();
  const ms = performance.now() - started;
  log(`${store.kind}: filled ${rows - present} transactions in ${seconds(ms)} s`);
  return ms;
}

/** The benchmark's approved admin, created directly in the store once. */
async function ensureAdmin(store: Store): Promise<void> {
  if (await store.admins.getByEmail(ADMIN.email)) return;
  const now = new Date().toISOString();
  await store.admins.create({
    id: newId(),
    email: ADMIN.email,
    name: "Benchmark",
    passwordHash: await hashPassword(ADMIN.password),
    status: "approved",
    role: "owner",
    createdAt: now,
    decidedBy: "bench",
    decidedAt: now,
  });
}

// ---- measuring ----

interface Case {
  endpoint: "success" | "error";
  query: string;
}

const CASES: Case[] = [
  { endpoint: "success", query: `page=1&limit=${LIMIT}` },
  { endpoint: "success", query: `page=5000&limit=${LIMIT}` },
  { endpoint: "success", query: `page=1&limit=${LIMIT}&isMonthly=true` },
  { endpoint: "success", query: `page=1&limit=${LIMIT}&searchString=Levi` },
  { endpoint: "error", query: `page=1&limit=${LIMIT}` },
  { endpoint: "error", query: `page=5000&limit=${LIMIT}` },
  { endpoint: "error", query: `page=1&limit=${LIMIT}&searchString=Levi` },
];

const PATHS = {
  success: "/api/transaction/get-all-success-transactions",
  error: "/api/transaction/get-all-error-transactions",
};

interface Result {
  backend: string;
  rows: number;
  endpoint: string;
  query: string;
  samples: number;
  p50: number;
  p95: number;
  max: number;
  total: number;
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];

async function measure(store: Store, rows: number): Promise<Result[]> {
  await ensureAdmin(store);
  const app = await startTestApp({ store });
  try {
    let token = "";
    let signedInAt = 0;
    /** A fresh access token (they live 15 minutes; a slow case can outlast one). */
    const bearer = async () => {
      if (token === "" || performance.now() - signedInAt > 10 * 60_000) {
        const res = await fetch(`${app.url}/api/auth/admin/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(ADMIN),
        });
        const body = await res.json();
        if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(body)}`);
        token = body.accessToken;
        signedInAt = performance.now();
      }
      return `Bearer ${token}`;
    };
    const request = async (c: Case) => {
      const authorization = await bearer();
      const started = performance.now();
      const res = await fetch(`${app.url}${PATHS[c.endpoint]}?${c.query}`, { headers: { authorization } });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${c.endpoint} ?${c.query} answered ${res.status}: ${text}`);
      return { ms, body: JSON.parse(text) as { total: number; data: unknown[] } };
    };

    const results: Result[] = [];
    for (const c of CASES) {
      // Warm-up: 5 requests, or 10 s of them (at least one), not measured.
      const warmStart = performance.now();
      let answer = await request(c);
      for (let i = 1; i < 5 && performance.now() - warmStart < 10_000; i++) answer = await request(c);
      if (answer.body.data.length === 0) log(`warning: ${c.endpoint} ?${c.query} answers an empty page`);
      const times: number[] = [];
      const started = performance.now();
      while (
        times.length < SAMPLES &&
        (times.length < MIN_SAMPLES || performance.now() - started < CASE_SECONDS * 1000)
      ) {
        times.push((await request(c)).ms);
      }
      times.sort((a, b) => a - b);
      const result: Result = {
        backend: store.kind,
        rows,
        endpoint: c.endpoint,
        query: c.query,
        samples: times.length,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        max: times[times.length - 1],
        total: answer.body.total,
      };
      log(
        `${result.backend} ${result.endpoint} ?${result.query}: p50 ${result.p50.toFixed(1)} ms, ` +
          `p95 ${result.p95.toFixed(1)} ms (${result.samples} samples)`,
      );
      results.push(result);
    }
    return results;
  } finally {
    await app.close();
    await store.close(); // idempotent: whether or not the helper closed it
  }
}

// ---- run ----

const results: Result[] = [];
const fills: string[] = [];
for (const backend of BACKENDS) {
  const rows = backend === "kv" ? KV_ROWS : ROWS;
  const where = backend === "kv"
    ? KV_PATH
    : `${DATABASE_URL.replace(/\/\/[^@/]*@/, "//")} schema bench_${rows}`;
  const store = backend === "kv" ? await openKvStore(KV_PATH) : await openPostgres(rows);
  let filled: number | null;
  try {
    filled = await fill(store, rows, where);
  } catch (error) {
    await store.close();
    throw error;
  }
  if (backend === "postgres") {
    const started = performance.now();
    await vacuumPostgres(rows);
    log(`postgres: vacuum (analyze) in ${seconds(performance.now() - started)} s`);
  }
  fills.push(
    `${backend}: ${rows} transactions, ${
      filled === null ? "reused from an earlier run" : `filled in ${seconds(filled)} s`
    }`,
  );
  results.push(...await measure(store, rows));
}

const ms = (value: number) => value.toFixed(1);
console.log(fills.map((line) => `- ${line}`).join("\n"));
console.log();
console.log("| backend | rows | endpoint | case | p50 ms | p95 ms | max ms | samples | total |");
console.log("|---|---:|---|---|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${r.backend} | ${r.rows} | ${r.endpoint} | \`${r.query}\` | ${ms(r.p50)} | ${ms(r.p95)} | ${
      ms(r.max)
    } | ${r.samples} | ${r.total} |`,
  );
}
