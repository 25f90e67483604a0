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
 * With `BENCH_BEFORE=<checkout>` (another commit's worktree, built and installed: `git worktree add`,
 * `deno install`, `deno task build`), that checkout's `main.ts` is started too, each of its starts
 * right after one of ours (ours, before, ours, before…, each on its own KV file), its memory
 * measured the same way after ours; the table shows both side by side. Its build is not timed (the
 * checkout may be read-only).
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
 * | `BENCH_BEFORE`      | unset; a checkout of another commit, started interleaved with this one, as "before" |
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
  MEMORY_LOAD_PATHS,
  requireWrk,
  rssMb,
  runWrk,
} from "./common.ts";
import { startTaskEnv } from "./app_process.ts";

const STARTS = envNumber("BENCH_STARTS", 7);
const BUILDS = envNumber("BENCH_BUILDS", 3);
const SECONDS = envNumber("BENCH_SECONDS", 10);
const CONNECTIONS = envNumber("BENCH_CONNECTIONS", 50);
const V8_FLAGS = Deno.env.get("BENCH_V8_FLAGS") ?? "--max-semi-space-size=2,--max-old-space-size=512";
const ROOT = new URL("../", import.meta.url).pathname;
const BEFORE = Deno.env.get("BENCH_BEFORE")?.replace(/\/?$/, "/");
if (BEFORE) {
  await Deno.stat(`${BEFORE}_build/manifest.json`).catch(() => {
    throw new Error(`BENCH_BEFORE=${BEFORE}: no _build/manifest.json there (run deno task build in it)`);
  });
}
const LOAD_PATHS = MEMORY_LOAD_PATHS;

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
  // What `deno task start` sets before `deno run` (MALLOC_ARENA_MAX=2), as the server runs.
  ...startTaskEnv(),
  DENO_ENV: "production",
  APP_SECRET: "bench-start-secret-0123456789abcdefghijklmnop",
  PUBLIC_URL: "https://donate.museum.test",
  SANDBOX_ALLOWED: "1",
  ADMIN_REGISTRATION: "approval",
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

/** Starts `main.ts` of the checkout at `root` on the KV file `kvPath`, and waits for its first 200. */
async function start(root: string, kvPath: string): Promise<Started> {
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
    cwd: root,
    env: { ...env, KV_PATH: kvPath, PORT: String(port) },
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

/** One checkout's measures. */
interface Side {
  name: string;
  root: string;
  kvPath: string;
  first: Started | null;
  starts: Started[];
  idle: number;
  peak: number;
  after: number;
  load: Awaited<ReturnType<typeof runWrk>> | null;
}
const side = (name: string, root: string, kvPath: string): Side => ({
  name,
  root,
  kvPath,
  first: null,
  starts: [],
  idle: NaN,
  peak: NaN,
  after: NaN,
  load: null,
});
const ours = side("this checkout", ROOT, `${dir}/kv.sqlite3`);
const sides = BEFORE ? [ours, side("before", BEFORE, `${dir}/before-kv.sqlite3`)] : [ours];

for (const s of sides) {
  log(`${s.name}: first start (creates the store) …`);
  s.first = await start(s.root, s.kvPath);
  await s.first.stop();
  log(`${s.name}: first start: first 200 after ${fixed(s.first.firstOk)} ms`);
}

// Interleaved: one start of each checkout per round, so that both see the same machine.
for (let i = 0; i < STARTS; i++) {
  for (const s of sides) {
    const started = await start(s.root, s.kvPath);
    s.starts.push(started);
    log(
      `${s.name}, start ${i + 1}: listening after ${fixed(started.listening)} ms, first 200 after ` +
        `${fixed(started.firstOk)} ms (${started.cpu} ms of CPU)`,
    );
    if (i < STARTS - 1) await started.stop();
  }
}

// ---- memory ----

for (const s of sides) {
  const last = s.starts.at(-1)!;
  const pid = last.child.pid;
  await sleep(3000);
  s.idle = await rssMb(pid);
  log(`${s.name}: idle ${fixed(s.idle, 1)} MB; loading for ${SECONDS} s …`);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssMb(pid));
      await sleep(100);
    }
  })();
  s.load = await runWrk(last.url + "/en/", {
    seconds: SECONDS,
    connections: CONNECTIONS,
    threads: 1,
    paths: LOAD_PATHS,
  });
  sampling = false;
  await sampler;
  s.peak = peak;
  await sleep(5000);
  s.after = await rssMb(pid);
  await last.stop();
}
await Deno.remove(dir, { recursive: true }).catch(() => {});
const loadAfter = await loadAverage();

const stats = (values: number[]) =>
  `${fixed(median(values))} | ${fixed(Math.min(...values))} | ${fixed(Math.max(...values))}`;
console.log(
  `Machine: ${machineLine}; load average ${loadBefore} before, ${loadAfter} at the end (this benchmark included).`,
);
console.log(
  `Server: \`deno run -A --node-modules-dir=manual ${V8_FLAGS ? `--v8-flags=${V8_FLAGS} ` : ""}main.ts\`` +
    (BEFORE ? `; "before" is ${BEFORE}, its starts interleaved with this checkout's.\n` : ".\n"),
);
const heads = sides.map((s) => `${s.name}: median | min | max`).join(" | ");
console.log(`| measure | ${heads} | runs |`);
console.log(`|---|${sides.map(() => "---:|---:|---:|").join("")}---:|`);
const row = (label: string, values: (s: Side) => number[], runs: number, bold = false) => {
  const cells = sides.map((s) => {
    const v = values(s);
    if (v.length === 0) return " | | ";
    const [m, ...rest] = stats(v).split(" | ");
    return [bold ? `**${m}**` : m, ...rest].join(" | ");
  });
  console.log(`| ${label} | ${cells.join(" | ")} | ${runs} |`);
};
row("`deno task build`, ms", (s) => s === ours ? builds : [], BUILDS);
row("the build itself (its own log line), ms", (s) => s === ours ? internal : [], BUILDS);
row("start → `listening` log line, ms", (s) => s.starts.map((x) => x.listening), STARTS);
row("start → first 200 on `/en/`, ms", (s) => s.starts.map((x) => x.firstOk), STARTS, true);
row(
  "CPU time used until the first 200 (user + system, all threads), ms",
  (s) => s.starts.map((x) => x.cpu),
  STARTS,
);
row("first start on an empty store → first 200, ms", (s) => [s.first!.firstOk], 1);
console.log(`\n| memory (VmRSS), MB | ${sides.map((s) => s.name).join(" | ")} |`);
console.log(`|---|${sides.map(() => "---:|").join("")}`);
console.log(
  `| idle, 3 s after the first answer | ${sides.map((s) => `**${fixed(s.idle, 1)}**`).join(" | ")} |`,
);
console.log(
  `| highest under load (${CONNECTIONS} connections, ${SECONDS} s over ${LOAD_PATHS.length} paths) | ` +
    `${sides.map((s) => `**${fixed(s.peak, 1)}**`).join(" | ")} |`,
);
console.log(`| idle again, 5 s after the load | ${sides.map((s) => fixed(s.after, 1)).join(" | ")} |`);
console.log(
  `| requests per second under load (p99 latency, ms) | ${
    sides.map((s) => `${fixed(s.load!.rps)} (${fixed(s.load!.p99, 1)})`).join(" | ")
  } |`,
);
for (const s of sides) {
  if (s.load!.errors > 0) console.log(`\n${s.name}: ${s.load!.errors} requests failed under load.`);
}
if (loadBefore > navigator.hardwareConcurrency / 2) {
  console.log(`\nThe machine was busy before the run (load average ${loadBefore}): figures are indicative.`);
}
