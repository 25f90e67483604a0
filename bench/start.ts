/**
 * `deno task bench:start`: cold start, memory and build time of the real server process.
 *
 * - **Build**: `deno task build` (manifest, esbuild bundle of the islands, CSS, gzip and brotli of
 *   every file) run `BENCH_BUILDS` times; wall time from spawn to exit.
 * - **Cold start**: `deno run -A --node-modules-dir=manual --v8-flags=… main.ts` (as `deno task start` runs it,
 *   after its `deno install`) with the built assets in `_build/`, production settings
 *   and Deno KV in a temporary file, spawned `BENCH_STARTS` times; the time from the spawn to the
 *   first 200 answer on `/en/` (polled every 2 ms), and to its `listening` log line. A first,
 *   separate start creates the store (migrations, flag seeding); the measured starts reopen it,
 *   as a restart or a new instance on existing data does.
 * - **Memory**: `VmRSS` from `/proc/<pid>/status` of the last started process: idle 3 s after its
 *   first answer, the highest sample (every 100 ms) under `wrk` load (`BENCH_CONNECTIONS`
 *   connections for `BENCH_SECONDS` over the donor pages in turn), and idle 5 s after the load.
 *
 * Prints Markdown for `bench/README.md`; progress goes to stderr.
 *
 * | variable            | default |
 * |---------------------|---------|
 * | `BENCH_STARTS`      | `7`     |
 * | `BENCH_BUILDS`      | `3`     |
 * | `BENCH_SECONDS`     | `10`    |
 * | `BENCH_CONNECTIONS` | `50`    |
 * | `BENCH_V8_FLAGS`    | `--max-semi-space-size=2,--max-old-space-size=512`, as `deno task start`; empty for none |
 *
 * @module
 */
import {
  cpuMs,
  envNumber,
  fixed,
  freePort,
  loadAverage,
  machine,
  median,
  requireWrk,
  rssMb,
  runWrk,
} from "./common.ts";

const STARTS = envNumber("BENCH_STARTS", 7);
const BUILDS = envNumber("BENCH_BUILDS", 3);
const SECONDS = envNumber("BENCH_SECONDS", 10);
const CONNECTIONS = envNumber("BENCH_CONNECTIONS", 50);
const V8_FLAGS = Deno.env.get("BENCH_V8_FLAGS") ?? "--max-semi-space-size=2,--max-old-space-size=512";
const ROOT = new URL("../", import.meta.url).pathname;
const LOAD_PATHS = [
  "/en/",
  "/he/",
  "/en/terminal-payment/7",
  "/en/success",
  "/en/login",
  "/ru/",
  "/api/feature-flags",
];

const log = (line: string) => console.error(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await requireWrk();
const machineLine = await machine();
const loadBefore = await loadAverage();

// ---- build ----

const builds: number[] = [];
const internal: number[] = [];
for (let i = 0; i < BUILDS; i++) {
  const t0 = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "build"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`deno task build failed:\n${text}`);
  builds.push(ms);
  const reported = Number(text.match(/files in (\d+) ms/)?.[1] ?? NaN);
  internal.push(reported);
  log(`build ${i + 1}: ${fixed(ms)} ms (the build itself: ${reported} ms)`);
}

// ---- starts ----

const dir = await Deno.makeTempDir({ prefix: "bench-start-" });
const env: Record<string, string> = {
  ...Deno.env.toObject(),
  DENO_ENV: "production",
  APP_SECRET: "bench-start-secret-0123456789abcdefghijklmnop",
  PUBLIC_URL: "https://donate.museum.test",
  SANDBOX_ALLOWED: "1",
  ADMIN_REGISTRATION: "approval",
  KV_PATH: `${dir}/kv.sqlite3`,
  SMTP_URL: "smtp://127.0.0.1:9",
  MAIL_FROM: "donations@museum.test",
  NO_COLOR: "1",
};
delete env.RUST_BACKTRACE;
delete env.DATABASE_URL;

interface Started {
  child: Deno.ChildProcess;
  url: string;
  /** ms from spawn to the first 200 on /en/ */
  firstOk: number;
  /** ms from spawn to the "listening" log line */
  listening: number;
  /** CPU ms the process used until its first 200 */
  cpu: number;
  stop(): Promise<void>;
}

async function start(): Promise<Started> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--node-modules-dir=manual",
      ...(V8_FLAGS ? [`--v8-flags=${V8_FLAGS}`] : []),
      "main.ts",
    ],
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let listening = NaN;
  const output: string[] = [];
  // Drain the logs (one line per request) so the process never blocks on a full pipe.
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      if (Number.isNaN(listening) && text.includes('"msg":"listening"')) listening = performance.now() - t0;
      if (output.length < 50) output.push(text);
    }
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const exited = child.status.then((s) => s);
  let firstOk = NaN;
  let cpu = NaN;
  while (Number.isNaN(firstOk)) {
    const status = await Promise.race([exited, sleep(0).then(() => null)]);
    if (status) throw new Error(`main.ts exited with ${status.code}:\n${output.join("")}`);
    try {
      const res = await fetch(`${url}/en/`);
      await res.body?.cancel();
      if (res.status === 200) {
        firstOk = performance.now() - t0;
        cpu = await cpuMs(child.pid);
      }
    } catch { /* not listening yet */ }
    if (Number.isNaN(firstOk)) {
      if (performance.now() - t0 > 60_000) throw new Error(`no 200 within 60 s:\n${output.join("")}`);
      await sleep(2);
    }
  }
  return {
    child,
    url,
    firstOk,
    listening,
    cpu,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      await drained;
    },
  };
}

log("first start (creates the store) …");
const first = await start();
await first.stop();
log(`first start: first 200 after ${fixed(first.firstOk)} ms`);

const starts: Started[] = [];
let last: Started | null = null;
for (let i = 0; i < STARTS; i++) {
  const s = await start();
  starts.push(s);
  log(
    `start ${i + 1}: listening after ${fixed(s.listening)} ms, first 200 after ${fixed(s.firstOk)} ms ` +
      `(${s.cpu} ms of CPU)`,
  );
  if (i < STARTS - 1) await s.stop();
  else last = s;
}

// ---- memory ----

const pid = last!.child.pid;
await sleep(3000);
const idle = await rssMb(pid);
log(`idle: ${fixed(idle, 1)} MB; loading for ${SECONDS} s …`);
let peak = 0;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    peak = Math.max(peak, await rssMb(pid));
    await sleep(100);
  }
})();
const load = await runWrk(last!.url + "/en/", {
  seconds: SECONDS,
  connections: CONNECTIONS,
  threads: 1,
  paths: LOAD_PATHS,
});
sampling = false;
await sampler;
await sleep(5000);
const after = await rssMb(pid);
await last!.stop();
await Deno.remove(dir, { recursive: true }).catch(() => {});
const loadAfter = await loadAverage();

const firstOks = starts.map((s) => s.firstOk);
const listens = starts.map((s) => s.listening);
console.log(`Machine: ${machineLine}; load average ${loadAfter} at the end (this benchmark included).`);
console.log(
  `Server: \`deno run -A --node-modules-dir=manual ${V8_FLAGS ? `--v8-flags=${V8_FLAGS} ` : ""}main.ts\`.\n`,
);
console.log("| measure | median | min | max | runs |");
console.log("|---|---:|---:|---:|---:|");
console.log(
  `| \`deno task build\`, ms | ${fixed(median(builds))} | ${fixed(Math.min(...builds))} | ` +
    `${fixed(Math.max(...builds))} | ${BUILDS} |`,
);
console.log(
  `| the build itself (its own log line), ms | ${fixed(median(internal))} | ${
    fixed(Math.min(...internal))
  } | ` +
    `${fixed(Math.max(...internal))} | ${BUILDS} |`,
);
console.log(
  `| start → \`listening\` log line, ms | ${fixed(median(listens))} | ${fixed(Math.min(...listens))} | ` +
    `${fixed(Math.max(...listens))} | ${STARTS} |`,
);
console.log(
  `| start → first 200 on \`/en/\`, ms | **${fixed(median(firstOks))}** | ${
    fixed(Math.min(...firstOks))
  } | ` +
    `${fixed(Math.max(...firstOks))} | ${STARTS} |`,
);
const cpus = starts.map((s) => s.cpu);
console.log(
  `| CPU time used until the first 200 (user + system, all threads), ms | ${fixed(median(cpus))} | ` +
    `${fixed(Math.min(...cpus))} | ${fixed(Math.max(...cpus))} | ${STARTS} |`,
);
console.log(`| first start on an empty store → first 200, ms | ${fixed(first.firstOk)} | | | 1 |`);
console.log("\n| memory (VmRSS) | MB |");
console.log("|---|---:|");
console.log(`| idle, 3 s after the first answer | **${fixed(idle, 1)}** |`);
console.log(
  `| highest under load (${CONNECTIONS} connections, ${SECONDS} s, ${fixed(load.rps)} req/s over ` +
    `${LOAD_PATHS.length} paths, p99 ${fixed(load.p99, 1)} ms) | **${fixed(peak, 1)}** |`,
);
console.log(`| idle again, 5 s after the load | ${fixed(after, 1)} |`);
if (load.errors > 0) console.log(`\n${load.errors} requests failed under load.`);
if (loadBefore > navigator.hardwareConcurrency / 2) {
  console.log(`\nThe machine was busy before the run (load average ${loadBefore}): figures are indicative.`);
}
