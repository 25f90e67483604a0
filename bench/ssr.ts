/**
 * `deno task bench:ssr`: the request pipeline and server rendering against the machine's ceiling.
 * Requests per second and p99 latency of the English and Hebrew donation pages and of
 * `/robots.txt`, each against a bare `Deno.serve` answering the very same bytes from memory.
 *
 * Two processes, started here: the real app (`main.ts` with the flags of `deno task start`,
 * production configuration, Deno KV in a temporary file, the sandbox provider), whose log lines are
 * written as always, to `/dev/null`; and the ceiling, `bench/bare_server.ts`, a bare `Deno.serve` with
 * no framework, no middleware and no log, which answers the bytes of one captured response per path.
 * The ratio app / bare is what the app's whole pipeline (request id, log, security headers with a
 * fresh CSP nonce, body limit, timeout, language, state, routing, the `[lang]` middleware, the page
 * and its signing key) leaves of what this machine's HTTP stack serves. `/robots.txt` is a static
 * file through the same pipeline: its ratio is the pipeline's cost alone.
 *
 * Load comes from `wrk` (Debian package `wrk`) in a child process: `BENCH_CONNECTIONS` keep-alive
 * connections for `BENCH_SECONDS` per run, interleaved (bare, app, bare, app…) over `BENCH_ROUNDS`
 * rounds after a short warm-up. Prints a Markdown table for `bench/README.md`.
 *
 * | variable            | default |
 * |---------------------|---------|
 * | `BENCH_SECONDS`     | `5`     |
 * | `BENCH_CONNECTIONS` | `50`    |
 * | `BENCH_ROUNDS`      | `3`     |
 * | `BENCH_THREADS`     | `1` (wrk threads; the server is one JavaScript thread) |
 * | `BENCH_PATHS`       | `/en/,/he/,/robots.txt` |
 * | `BENCH_BEFORE`      | unset; a checkout of another commit (`git worktree add`, `deno install`): its app is loaded too, interleaved, as "before" |
 *
 * @module
 */
import { freePort, productionAppEnv, ROOT, startAppProcess } from "./app_process.ts";
import { cpuMs, envNumber, fixed, loadAverage, machine, median, requireWrk, runWrk } from "./common.ts";
import type { LoadResult } from "./common.ts";

const SECONDS = envNumber("BENCH_SECONDS", 5);
const CONNECTIONS = envNumber("BENCH_CONNECTIONS", 50);
const ROUNDS = envNumber("BENCH_ROUNDS", 3);
const THREADS = envNumber("BENCH_THREADS", 1);
const PATHS = (Deno.env.get("BENCH_PATHS") ?? "/en/,/he/,/robots.txt").split(",").map((p) => p.trim())
  .filter(Boolean);
const BEFORE = Deno.env.get("BENCH_BEFORE");
const WARMUP_SECONDS = 3;
/** Headers the ceiling answers with too: what a client needs to read the same bytes the same way. */
const COPIED_HEADERS = ["content-type", "cache-control", "content-language"];

const log = (line: string) => console.error(line);

await requireWrk();
const machineLine = await machine();
const loadBefore = await loadAverage();

const dir = await Deno.makeTempDir({ prefix: "bench-ssr-" });
const app = await startAppProcess(productionAppEnv(dir), "/dev/null", { startTaskFlags: true });
let bare: Deno.ChildProcess | null = null;
// The other commit's app gets its own store: the two must not share a KV file.
const before = BEFORE
  ? await Deno.mkdir(`${dir}/before`).then(() =>
    startAppProcess({ ...productionAppEnv(dir), KV_PATH: `${dir}/before/kv.sqlite3` }, "/dev/null", {
      startTaskFlags: true,
      root: BEFORE,
    })
  )
  : null;

try {
  // Capture each path's answer from the app, then hand the bytes to the ceiling.
  const pages: Record<string, { body: string; headers: Record<string, string> }> = {};
  const sizes = new Map<string, number>();
  for (const path of PATHS) {
    const res = await fetch(app.url + path);
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    const headers: Record<string, string> = {};
    for (const name of COPIED_HEADERS) {
      const value = res.headers.get(name);
      if (value) headers[name] = value;
    }
    let binary = "";
    for (const byte of body) binary += String.fromCharCode(byte);
    pages[path] = { body: btoa(binary), headers };
    const all: Record<string, string> = {};
    for (const [name, value] of res.headers) {
      if (name !== "date" && name !== "content-length") all[name] = value;
    }
    pages[`/all-headers${path}`] = { body: pages[path].body, headers: all };
    sizes.set(path, body.length);
    log(`${path}: ${body.length} bytes`);
  }
  await Deno.writeTextFile(`${dir}/pages.json`, JSON.stringify(pages));
  const barePort = freePort();
  bare = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", "bench/bare_server.ts"],
    cwd: ROOT,
    env: { BARE_PAGES: `${dir}/pages.json`, BARE_PORT: String(barePort) },
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const bareUrl = `http://127.0.0.1:${barePort}`;
  for (let i = 0;; i++) {
    const res = await fetch(bareUrl + PATHS[0]).catch(() => null);
    if (res) {
      const same = new Uint8Array(await res.arrayBuffer());
      if (same.length !== sizes.get(PATHS[0])) throw new Error("the bare server answers other bytes");
      break;
    }
    if (i > 100) throw new Error("the bare server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }

  const load = (url: string, seconds = SECONDS) =>
    runWrk(url, { seconds, connections: CONNECTIONS, threads: THREADS });
  const targets = [
    ["bare", bareUrl, bare.pid],
    ["bare, all headers", `${bareUrl}/all-headers`, bare.pid],
    ["app", app.url, app.pid],
    ...(before ? [["before", before.url, before.pid] as const] : []),
  ] as const;
  log(`warm-up: ${WARMUP_SECONDS} s per case`);
  for (const path of PATHS) for (const [, base] of targets) await load(base + path, WARMUP_SECONDS);

  // Each run's server CPU per request (user + system, every thread; 10 ms steps): steadier than
  // requests per second on a shared machine, where a neighbour's load takes the cores away.
  type Run = LoadResult & { cpuUs: number };
  const runs = new Map<string, Record<(typeof targets)[number][0], Run[]>>();
  for (const path of PATHS) runs.set(path, { "bare": [], "bare, all headers": [], "app": [], "before": [] });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const path of PATHS) {
      for (const [kind, base, pid] of targets) {
        const cpuBefore = await cpuMs(pid);
        const loaded = await load(base + path);
        const result = { ...loaded, cpuUs: ((await cpuMs(pid)) - cpuBefore) * 1000 / loaded.requests };
        if (result.errors > 0) throw new Error(`${kind} ${path}: ${result.errors} errors under load`);
        runs.get(path)![kind].push(result);
        log(
          `round ${round} ${kind.padEnd(17)} ${path}: ${fixed(result.rps)} req/s, ` +
            `p50 ${fixed(result.p50, 2)} ms, p99 ${fixed(result.p99, 2)} ms, ${
              fixed(result.cpuUs, 1)
            } µs CPU/req`,
        );
      }
    }
  }
  const loadAfter = await loadAverage();

  console.log(`Machine: ${machineLine}; load average ${loadAfter} at the end (this benchmark included).`);
  console.log(
    `wrk: ${CONNECTIONS} connections, ${THREADS} thread(s), ${SECONDS} s per run, ${ROUNDS} round(s), ` +
      `interleaved; medians over the rounds. App log to /dev/null.\n`,
  );
  console.log(
    "| path | bytes | bare req/s | bare, all headers req/s | app req/s | app p99 ms | app / bare | " +
      "app / bare, all headers | CPU µs/req: bare, all headers | app |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const path of PATHS) {
    const r = runs.get(path)!;
    const rps = (kind: keyof typeof r) => median(r[kind].map((x) => x.rps));
    const cpu = (kind: keyof typeof r) => fixed(median(r[kind].map((x) => x.cpuUs)), 1);
    const [b, full, a] = [rps("bare"), rps("bare, all headers"), rps("app")];
    console.log(
      `| \`${path}\` | ${sizes.get(path)} | ${fixed(b)} | ${fixed(full)} | ${fixed(a)} | ` +
        `${fixed(median(r.app.map((x) => x.p99)), 2)} | ${fixed((100 * a) / b)}% | ${
          fixed((100 * a) / full)
        }% | ${cpu("bare, all headers")} | ${cpu("app")} |`,
    );
  }
  if (before) {
    console.log(`\nBefore (\`${BEFORE}\`), the same rounds:\n`);
    console.log(
      "| path | before req/s | before p99 ms | before / bare | before / bare, all headers | app / before | " +
        "before CPU µs/req |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const path of PATHS) {
      const r = runs.get(path)!;
      const [b, full, a, o] = [r.bare, r["bare, all headers"], r.app, r.before].map((xs) =>
        median(xs.map((x) => x.rps))
      );
      console.log(
        `| \`${path}\` | ${fixed(o)} | ${fixed(median(r.before.map((x) => x.p99)), 2)} | ` +
          `${fixed((100 * o) / b)}% | ${fixed((100 * o) / full)}% | ${fixed((100 * a) / o)}% | ` +
          `${fixed(median(r.before.map((x) => x.cpuUs)), 1)} |`,
      );
    }
  }
  if (loadBefore > navigator.hardwareConcurrency / 2) {
    console.log(
      `\nThe machine was busy before the run (load average ${loadBefore}): figures are indicative.`,
    );
  }
} finally {
  if (bare) {
    bare.kill("SIGTERM");
    await bare.status;
  }
  await app.close();
  await before?.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
