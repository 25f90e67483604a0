/**
 * `deno task bench:ssr`: server rendering against its ceiling. Requests per second and p99 latency
 * of the English and Hebrew donation pages, against the very same bytes answered as a constant by
 * the same app on the same server and port.
 *
 * This process builds the real app (`createApp`, production configuration, Deno KV in a temporary
 * file, the sandbox provider) and serves it with `Deno.serve`. The ceiling is a benchmark-only route
 * added here to that app, `/__const/<lang>/`, never present in the product: it goes through the
 * same middleware stack (request id, request log, security headers with a fresh CSP nonce, body
 * limit, language detection, state) and answers the bytes of one captured `/<lang>/` response from
 * memory, with the same content type, cache control and language headers. What it skips is exactly
 * the page's own work: the `[lang]` middleware (flags), the route, the render, the signing key.
 *
 * Load comes from `wrk` (Debian package `wrk`) in a child process: `BENCH_CONNECTIONS` keep-alive
 * connections for `BENCH_SECONDS` per run, interleaved per language (constant, page, constant,
 * page…) over `BENCH_ROUNDS` rounds after a short warm-up. The request log's lines are built as
 * always but dropped instead of written, in both cases. Prints a Markdown table for
 * `bench/README.md`.
 *
 * | variable            | default |
 * |---------------------|---------|
 * | `BENCH_SECONDS`     | `10`    |
 * | `BENCH_CONNECTIONS` | `50`    |
 * | `BENCH_ROUNDS`      | `2`     |
 * | `BENCH_THREADS`     | `1` (wrk threads; the server is one JavaScript thread) |
 * | `BENCH_LANGS`       | `en,he` |
 *
 * @module
 */
import { loadConfig } from "../lib/config.ts";
import { seedFlags } from "../lib/flags.ts";
import { loadBuild } from "../lib/framework/assets.ts";
import { ensureBuild } from "../lib/framework/build.ts";
import { createLogger } from "../lib/log.ts";
import { openStore } from "../lib/storage/mod.ts";
import { envNumber, fixed, loadAverage, machine, median, requireWrk, runWrk } from "./common.ts";
import type { LoadResult } from "./common.ts";

const SECONDS = envNumber("BENCH_SECONDS", 10);
const CONNECTIONS = envNumber("BENCH_CONNECTIONS", 50);
const ROUNDS = envNumber("BENCH_ROUNDS", 2);
const THREADS = envNumber("BENCH_THREADS", 1);
const LANGS = (Deno.env.get("BENCH_LANGS") ?? "en,he").split(",").map((l) => l.trim()).filter(Boolean);
const WARMUP_SECONDS = 3;

const log = (line: string) => console.error(line);
const root = new URL("../", import.meta.url).pathname;

await requireWrk();
const machineLine = await machine();
const loadBefore = await loadAverage();
await ensureBuild(root);
await loadBuild(`${root}/_build`);

const dir = await Deno.makeTempDir({ prefix: "bench-ssr-" });
const config = await loadConfig({
  DENO_ENV: "production",
  APP_SECRET: "bench-ssr-secret-0123456789abcdefghijklmnop",
  PUBLIC_URL: "https://donate.museum.test",
  SANDBOX_ALLOWED: "1",
  ADMIN_REGISTRATION: "approval",
  FEATURE_MONTHLY_PAYMENT: "1",
  FEATURE_TEST_TERMINAL_PAYMENT: "0",
  KV_PATH: `${dir}/kv.sqlite3`,
}, { dataDir: dir });
const store = await openStore({ kvPath: config.kvPath });
await seedFlags(store, config.features);
const { createApp } = await import("../lib/app.ts");
const { createServices } = await import("../lib/services.ts");
// Request log lines are serialized as in production, then dropped.
const services = await createServices(config, store, createLogger(() => {}));
const app = createApp(services);

// The ceiling: one captured response per language, answered from memory. Benchmark only.
const constant = new Map<string, { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> }>();
app.get("/__const/:lang", (c) => {
  const page = constant.get(c.req.param("lang"));
  if (!page) return c.notFound();
  return c.body(page.body, 200, page.headers);
});

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
const base = `http://127.0.0.1:${server.addr.port}`;

try {
  for (const lang of LANGS) {
    const res = await fetch(`${base}/${lang}/`);
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`/${lang}/ answered ${res.status}`);
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "cache-control", "content-language"]) {
      const value = res.headers.get(name);
      if (value) headers[name] = value;
    }
    constant.set(lang, { body, headers });
    const check = await fetch(`${base}/__const/${lang}/`);
    const same = new Uint8Array(await check.arrayBuffer());
    if (check.status !== 200 || same.length !== body.length) {
      throw new Error(`the constant route is broken: ${check.status} ${check.headers.get("location")}`);
    }
    log(`/${lang}/: ${body.length} bytes of HTML`);
  }

  const load = (path: string, seconds = SECONDS) =>
    runWrk(base + path, { seconds, connections: CONNECTIONS, threads: THREADS });
  log(`warm-up: ${WARMUP_SECONDS} s per case`);
  for (const lang of LANGS) {
    await load(`/__const/${lang}/`, WARMUP_SECONDS);
    await load(`/${lang}/`, WARMUP_SECONDS);
  }

  const runs = new Map<string, { constant: LoadResult[]; page: LoadResult[] }>();
  for (const lang of LANGS) runs.set(lang, { constant: [], page: [] });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const lang of LANGS) {
      const r = runs.get(lang)!;
      for (const [kind, path] of [["constant", `/__const/${lang}/`], ["page", `/${lang}/`]] as const) {
        const result = await load(path);
        if (result.errors > 0) throw new Error(`${path}: ${result.errors} errors under load`);
        r[kind].push(result);
        log(
          `round ${round} ${kind.padEnd(8)} /${lang}/: ${fixed(result.rps)} req/s, ` +
            `p50 ${fixed(result.p50, 2)} ms, p99 ${fixed(result.p99, 2)} ms`,
        );
      }
    }
  }
  const loadAfter = await loadAverage();

  console.log(`Machine: ${machineLine}; load average ${loadAfter} at the end (this benchmark included).`);
  console.log(
    `wrk: ${CONNECTIONS} connections, ${THREADS} thread(s), ${SECONDS} s per run, ${ROUNDS} round(s), ` +
      `interleaved; medians over the rounds.\n`,
  );
  console.log(
    "| page | HTML bytes | constant req/s | constant p99 ms | page req/s | page p99 ms | page / constant |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const lang of LANGS) {
    const r = runs.get(lang)!;
    const c = median(r.constant.map((x) => x.rps)), p = median(r.page.map((x) => x.rps));
    console.log(
      `| \`/${lang}/\` | ${constant.get(lang)!.body.length} | ${fixed(c)} | ` +
        `${fixed(median(r.constant.map((x) => x.p99)), 2)} | ${fixed(p)} | ` +
        `${fixed(median(r.page.map((x) => x.p99)), 2)} | ${fixed((100 * p) / c)}% |`,
    );
  }
  if (loadBefore > navigator.hardwareConcurrency / 2) {
    console.log(
      `\nThe machine was busy before the run (load average ${loadBefore}): figures are indicative.`,
    );
  }
} finally {
  await server.shutdown();
  await store.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
