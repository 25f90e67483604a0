/**
 * `deno task bench:donations`: the two calls a donor's browser makes to give, under load: `POST
 * /api/user` (the donor), then `POST /api/payment/create` (sandbox provider), signed as the page's
 * island signs it (`GET /api/signing-key` once per donor, as a page holds its key, then HMAC with
 * `lib/shared/signing.ts`). Many donors at once, each repeating the pair for the run's length; p50 and p99
 * of each call and of the pair, on Deno KV and on PostgreSQL.
 *
 * The app runs as its own process (`deno run -A main.ts`), so this client does not share its event
 * loop; each backend gets a fresh store: a KV file in a temporary folder, and a PostgreSQL
 * database `bench_donations` dropped and created anew. Progress goes to stderr; stdout gets the
 * results as Markdown, for `bench/README.md`.
 *
 * | variable              | default                                                  |
 * |-----------------------|----------------------------------------------------------|
 * | `BENCH_DONORS`        | `50` donors at once                                      |
 * | `BENCH_SECONDS`       | `10` seconds measured per backend                        |
 * | `BENCH_WARMUP_SECONDS`| `2` seconds before that, not measured                    |
 * | `BENCH_BACKENDS`      | `kv,postgres`                                            |
 * | `BENCH_KEEP_LOGS`     | unset; `1` keeps each app's log (its path goes to stderr) |
 * | `BENCH_DATABASE_URL`  | `postgres://postgres:postgres@127.0.0.1:5432/bench_donations` (dropped and created at each run) |
 *
 * @module
 */
import { signPayload } from "@/lib/shared/signing.ts";
import { RAISED_RATE_LIMITS } from "@/tests/helpers/app.ts";
import { cpuMs, startAppProcess } from "./app_process.ts";
import { freshDatabase } from "./common.ts";

const env = Deno.env.toObject();

function wholeNumber(name: string, fallback: number, min: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`${name} must be a whole number of at least ${min} (got ${JSON.stringify(env[name])})`);
    Deno.exit(1);
  }
  return value;
}

const DONORS = wholeNumber("BENCH_DONORS", 50, 1);
const SECONDS = wholeNumber("BENCH_SECONDS", 10, 1);
const WARMUP_SECONDS = wholeNumber("BENCH_WARMUP_SECONDS", 2, 0);
const BACKENDS = (env.BENCH_BACKENDS ?? "kv,postgres").split(",").map((b) => b.trim()).filter(Boolean);
const DATABASE_URL = env.BENCH_DATABASE_URL ||
  "postgres://postgres:postgres@127.0.0.1:5432/bench_donations";
for (const backend of BACKENDS) {
  if (backend !== "kv" && backend !== "postgres") {
    console.error(`BENCH_BACKENDS: unknown backend ${JSON.stringify(backend)} (use kv, postgres)`);
    Deno.exit(1);
  }
}

const log = (line: string) => console.error(line);

interface Samples {
  user: number[];
  create: number[];
  pair: number[];
  errors: Map<string, number>;
}

async function call(
  url: string,
  body: unknown,
  expected: number,
): Promise<{ ok: boolean; status: number; json: Record<string, string> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, string> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: counted by status below
  }
  return { ok: res.status === expected, status: res.status, json };
}

/**
 * One donor: fetches a browser key, then gives again and again until `until` (ms since the epoch),
 * recording from `from` on.
 */
async function donor(base: string, n: number, from: number, until: number, samples: Samples): Promise<void> {
  const keyRes = await fetch(`${base}/api/signing-key`);
  const key = await keyRes.json() as { keyId: string; key: string };
  const fail = (what: string) => samples.errors.set(what, (samples.errors.get(what) ?? 0) + 1);
  for (let i = 0; Date.now() < until; i++) {
    const t0 = performance.now();
    const user = await call(`${base}/api/user`, {
      firstName: "Bench",
      lastName: `Donor${n}`,
      email: `donor${n}.${i}@example.org`,
      country: "Israel",
    }, 201);
    const t1 = performance.now();
    if (!user.ok) {
      fail(`POST /api/user ${user.status}`);
      continue;
    }
    const signed = await signPayload({
      amount: 100,
      currency: "nis",
      userId: user.json.id,
      isMonthly: false,
      language: "en",
    }, key);
    const t2 = performance.now();
    const created = await call(`${base}/api/payment/create`, signed, 200);
    const t3 = performance.now();
    if (!created.ok || !created.json.url) {
      fail(`POST /api/payment/create ${created.status}`);
      continue;
    }
    if (t0 >= from) {
      samples.user.push(t1 - t0);
      samples.create.push(t3 - t2);
      samples.pair.push(t3 - t0);
    }
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Row {
  backend: string;
  call: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

interface Result {
  rows: Row[];
  errors: Map<string, number>;
  /** The app process's CPU time (user and system) per measured donation, in ms. */
  cpuPerDonation: number | null;
}

async function measure(backend: "kv" | "postgres"): Promise<Result> {
  const tmp = await Deno.makeTempDir({ prefix: "bench-donations-" });
  const appEnv: Record<string, string> = {
    DENO_ENV: "development",
    APP_SECRET: crypto.randomUUID() + crypto.randomUUID(),
    KV_PATH: `${tmp}/kv.sqlite3`,
    PAYMENT_PROVIDER: "sandbox",
    // Every donor comes from this one address: the limits are raised, so the limiter runs (and
    // counts every call) without refusing, and what is measured includes its own cost.
    ...RAISED_RATE_LIMITS,
  };
  if (backend === "postgres") {
    await freshDatabase(DATABASE_URL);
    appEnv.DATABASE_URL = DATABASE_URL;
  }
  const app = await startAppProcess(appEnv, `${tmp}/app.log`);
  try {
    log(
      `${backend}: app on ${app.url}; ${DONORS} donors, ${WARMUP_SECONDS} s warm-up, ${SECONDS} s measured`,
    );
    const samples: Samples = { user: [], create: [], pair: [], errors: new Map() };
    const start = Date.now();
    const from = performance.now() + WARMUP_SECONDS * 1000;
    const until = start + (WARMUP_SECONDS + SECONDS) * 1000;
    let cpuAtStart: Promise<number | null> = Promise.resolve(null);
    const timer = setTimeout(() => cpuAtStart = cpuMs(app.pid), WARMUP_SECONDS * 1000);
    await Promise.all(Array.from({ length: DONORS }, (_, n) => donor(app.url, n, from, until, samples)));
    clearTimeout(timer);
    const [cpuStart, cpuEnd] = [await cpuAtStart, await cpuMs(app.pid)];
    const cpuPerDonation = cpuStart !== null && cpuEnd !== null && samples.pair.length > 0
      ? (cpuEnd - cpuStart) / samples.pair.length
      : null;
    const rows: Row[] = [];
    for (
      const [name, values] of [
        ["`POST /api/user`", samples.user],
        ["`POST /api/payment/create`", samples.create],
        ["the pair", samples.pair],
      ] as const
    ) {
      const sorted = [...values].sort((a, b) => a - b);
      rows.push({
        backend,
        call: name,
        count: sorted.length,
        perSecond: sorted.length / SECONDS,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
      });
    }
    log(`${backend}: ${samples.pair.length} donations measured`);
    return { rows, errors: samples.errors, cpuPerDonation };
  } finally {
    await app.close();
    if (env.BENCH_KEEP_LOGS === "1") log(`${backend}: the app's log is ${app.logFile}`);
    else await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

const rows: Row[] = [];
const errors: string[] = [];
const cpu: string[] = [];
for (const backend of BACKENDS as ("kv" | "postgres")[]) {
  const result = await measure(backend);
  rows.push(...result.rows);
  for (const [what, count] of result.errors) errors.push(`${backend}: ${what} × ${count}`);
  if (result.cpuPerDonation !== null) cpu.push(`${backend} ${result.cpuPerDonation.toFixed(1)} ms`);
}

const ms = (n: number) => n.toFixed(1);
console.log(
  `${DONORS} donor${
    DONORS === 1 ? "" : "s"
  } at once, ${SECONDS} s measured after ${WARMUP_SECONDS} s of warm-up.\n`,
);
console.log("| backend  | call                         | calls | per second | p50 ms | p99 ms | max ms |");
console.log("| -------- | ---------------------------- | ----: | ---------: | -----: | -----: | -----: |");
for (const r of rows) {
  console.log(
    `| ${r.backend.padEnd(8)} | ${r.call.padEnd(28)} | ${String(r.count).padStart(5)} | ${
      r.perSecond.toFixed(1).padStart(10)
    } | ${ms(r.p50).padStart(6)} | ${ms(r.p99).padStart(6)} | ${ms(r.max).padStart(6)} |`,
  );
}
if (cpu.length) console.log(`\nThe app process's CPU time per donation (both calls): ${cpu.join(", ")}.`);
console.log(errors.length ? `\nErrors: ${errors.join("; ")}` : "\nNo errors.");
