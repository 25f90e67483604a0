/**
 * `deno task bench:heap`: what the server's memory holds, idle and after load, and what V8 flags cost.
 *
 * Starts the server as `bench/start.ts` does (production settings, Deno KV in a temporary file, the
 * flags of `deno task start`, a first start that creates the store), plus `--inspect` on a free port.
 * For each variant (a checkout and a set of V8 flags), in rounds, interleaved:
 *
 * - `VmRSS`, `RssAnon`, `RssFile` (`/proc/<pid>/status`) and V8's heap (`Runtime.getHeapUsage`)
 *   idle 3 s after the first answer, the highest RSS under `wrk` load (the 7 paths of
 *   `bench/start.ts`), and idle again 5 s after the load;
 * - in the first round, a heap snapshot idle and one after the load (each after the RSS was read:
 *   a snapshot forces a full GC and costs memory itself). Printed: the constructors holding most
 *   (self size, and the change from idle to after), and the objects retaining most (dominator tree),
 *   each with its path from the roots, which names the cache or map that holds it.
 *
 * | variable          | default                                            |
 * |-------------------|----------------------------------------------------|
 * | `HEAP_BEFORE`     | unset: another checkout (e.g. `/work/wt/base-8986dc9`), measured side by side |
 * | `HEAP_FLAGS`      | the flags of `deno task start`; several sets separated by `;` (`none` for no flags) |
 * | `HEAP_ROUNDS`     | `1`                                                |
 * | `HEAP_SECONDS`    | `10`                                               |
 * | `HEAP_TOP`        | `15` rows per table                                |
 * | `HEAP_SNAPSHOTS`  | `1`; `0` measures only                             |
 *
 * The inspector's own session costs a few MB of RSS: compare variants within one run.
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
  runWrk,
} from "./common.ts";
import { ROOT, startAppProcess, startTaskRun } from "./app_process.ts";
import { type HeapSummary, summarize } from "./heap_snapshot.ts";

const SECONDS = envNumber("HEAP_SECONDS", 10);
const ROUNDS = envNumber("HEAP_ROUNDS", 1);
const TOP = envNumber("HEAP_TOP", 15);
const SNAPSHOTS = Deno.env.get("HEAP_SNAPSHOTS") !== "0";
const BEFORE = Deno.env.get("HEAP_BEFORE");
const SAVE = Deno.env.get("HEAP_SAVE");
const LOAD_PATHS = MEMORY_LOAD_PATHS;

const log = (line: string) => console.error(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = (bytes: number) => bytes / 1024 / 1024;

/** The environment and V8 flags of `deno task start` in `root`'s deno.json, as `NAME=value … flags`. */
function startFlags(root: string): string {
  const { run, env } = startTaskRun(JSON.parse(Deno.readTextFileSync(`${root}/deno.json`)).tasks.start);
  const flags = run.match(/--v8-flags=(\S+)/)?.[1] ?? "none";
  return [...Object.entries(env).map(([k, v]) => `${k}=${v}`), flags].join(" ");
}

interface Variant {
  name: string;
  root: string;
  flags: string;
  /** Environment for the server (`MALLOC_ARENA_MAX=2` and the like, given before the flags). */
  env: Record<string, string>;
}

/** `NAME=value … --v8-flag,--v8-flag` (either part optional; `none` for no flags). */
function parseVariant(text: string): { flags: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const rest: string[] = [];
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const m = token.match(/^([A-Z_][A-Z0-9_]*)=(.*)$/);
    if (m) env[m[1]] = m[2];
    else rest.push(token);
  }
  const flags = rest.join(",");
  return { flags: flags === "none" ? "" : flags, env };
}

const roots = BEFORE ? [["before", BEFORE], ["after", ROOT]] : [["this", ROOT]];
const flagSets = (Deno.env.get("HEAP_FLAGS") ?? "").split(";").map((f) => f.trim()).filter(Boolean);
const variants: Variant[] = roots.flatMap(([name, root]) =>
  (flagSets.length ? flagSets : [startFlags(root)]).map((text) => ({
    name: flagSets.length > 1 ? `${name}, ${text}` : name,
    root,
    ...parseVariant(text),
  }))
);

/** A Chrome DevTools Protocol session over the inspector's WebSocket. */
class Inspector {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, (result: unknown) => void>();
  #chunks: string[] = [];

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.method === "HeapProfiler.addHeapSnapshotChunk") this.#chunks.push(msg.params.chunk);
      else if (msg.id) this.#pending.get(msg.id)?.(msg.error ? Promise.reject(msg.error) : msg.result);
    };
  }

  static async open(port: number): Promise<Inspector> {
    const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    return new Inspector(ws);
  }

  call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    this.#ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.#pending.set(id, resolve as (r: unknown) => void));
  }

  async heap(): Promise<{ usedSize: number; totalSize: number }> {
    return await this.call("Runtime.getHeapUsage");
  }

  async snapshot(): Promise<string> {
    this.#chunks = [];
    await this.call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    const text = this.#chunks.join("");
    this.#chunks = [];
    return text;
  }

  close(): void {
    this.#ws.close();
  }
}

interface Memory {
  rss: number;
  anon: number;
  file: number;
}

async function memory(pid: number): Promise<Memory> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, anon: kb("RssAnon") / 1024, file: kb("RssFile") / 1024 };
}

interface Measured {
  idle: Memory;
  idleRegions: Regions;
  peak: number;
  peakAnon: number;
  peakRegions: Regions;
  after: Memory;
  rps: number;
  p99: number;
  /** The server's CPU time (all threads) per request under load, µs: steadier than req/s on a busy machine. */
  cpuUs: number;
}

interface Snapshots {
  idle: HeapSummary;
  after: HeapSummary;
  idleHeap: number;
  afterHeap: number;
}

const dir = await Deno.makeTempDir({ prefix: "bench-heap-" });
const env: Record<string, string> = {
  DENO_ENV: "production",
  APP_SECRET: "bench-start-secret-0123456789abcdefghijklmnop",
  PUBLIC_URL: "https://donate.museum.test",
  SANDBOX_ALLOWED: "1",
  ADMIN_REGISTRATION: "approval",
  SMTP_URL: "smtp://127.0.0.1:9",
  MAIL_FROM: "donations@museum.test",
  NO_COLOR: "1",
};

/** Starts `variant` as bench/start.ts does, after a first start that creates its store. */
async function startVariant(variant: Variant, index: number, inspect?: number) {
  const kvPath = `${dir}/kv-${index}.sqlite3`;
  const denoFlags = (port?: number) => [
    "--node-modules-dir=manual",
    ...(variant.flags ? [`--v8-flags=${variant.flags}`] : []),
    ...(port ? [`--inspect=127.0.0.1:${port}`] : []),
  ];
  const options = { root: variant.root, timeoutMs: 120_000 };
  const first = await startAppProcess({ ...env, ...variant.env, KV_PATH: kvPath }, "/dev/null", {
    ...options,
    denoFlags: denoFlags(),
  });
  await first.close();
  const app = await startAppProcess({ ...env, ...variant.env, KV_PATH: kvPath }, "/dev/null", {
    ...options,
    denoFlags: denoFlags(inspect),
  });
  await (await fetch(`${app.url}/en/`)).body?.cancel();
  return app;
}

/**
 * Where a process's resident anonymous memory is, MB, from `/proc/<pid>/smaps`: V8's heap (its
 * 256 KB pages), glibc's main arena (`[heap]`) and its threads' arenas (64 MB-aligned mappings),
 * and the rest.
 */
async function regions(pid: number): Promise<Regions> {
  const text = await Deno.readTextFile(`/proc/${pid}/smaps`).catch(() => "");
  const out: Regions = { v8: 0, mainArena: 0, threadArenas: 0, other: 0 };
  let bucket: keyof Regions | null = null;
  for (const line of text.split("\n")) {
    const head = line.match(/^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/);
    if (head) {
      const [start, end] = [parseInt(head[1], 16), parseInt(head[2], 16)];
      const name = head[3].trim();
      bucket = name === "[heap]"
        ? "mainArena"
        : name
        ? null
        : end - start === 256 * 1024
        ? "v8"
        : start % 2 ** 26 === 0 && start > 0x7f0000000000
        ? "threadArenas"
        : "other";
    } else if (bucket && line.startsWith("Rss:")) {
      out[bucket] += Number(line.split(/\s+/)[1]) / 1024;
    }
  }
  return out;
}

interface Regions {
  v8: number;
  mainArena: number;
  threadArenas: number;
  other: number;
}

/** Loads the app as bench/start.ts does; the highest RSS (and where it was) meanwhile, CPU per request. */
async function load(url: string, pid: number) {
  let peak = 0;
  let peakAnon = 0;
  let peakRegions: Regions = { v8: 0, mainArena: 0, threadArenas: 0, other: 0 };
  let sampling = true;
  const cpuBefore = await cpuMs(pid);
  const sampler = (async () => {
    while (sampling) {
      const m = await memory(pid);
      if (m.rss > peak) [peak, peakAnon, peakRegions] = [m.rss, m.anon, await regions(pid)];
      await sleep(100);
    }
  })();
  const result = await runWrk(`${url}/en/`, {
    seconds: SECONDS,
    connections: 50,
    threads: 1,
    paths: LOAD_PATHS,
  });
  sampling = false;
  await sampler;
  const cpuUs = ((await cpuMs(pid)) - cpuBefore) * 1000 / Math.max(1, result.requests);
  return { ...result, peak, peakAnon, peakRegions, cpuUs };
}

/** RSS idle, at the peak of the load and after it, without an inspector attached. */
async function measure(variant: Variant, index: number): Promise<Measured> {
  const app = await startVariant(variant, index);
  try {
    await sleep(3000);
    const idle = await memory(app.pid);
    const idleRegions = await regions(app.pid);
    const loaded = await load(app.url, app.pid);
    await sleep(5000);
    const after = await memory(app.pid);
    const { peak, peakAnon, peakRegions, rps, p99, cpuUs } = loaded;
    return { idle, idleRegions, after, peak, peakAnon, peakRegions, rps, p99, cpuUs };
  } finally {
    await app.close();
  }
}

/** Heap snapshots idle and 5 s after the load, in a process of their own (a snapshot costs memory). */
async function snapshots(variant: Variant, index: number): Promise<Snapshots> {
  const port = freePort();
  const app = await startVariant(variant, index, port);
  try {
    const inspector = await Inspector.open(port);
    await sleep(3000);
    const take = async (label: string) => {
      const text = await inspector.snapshot();
      if (SAVE) {
        await Deno.writeTextFile(`${SAVE}/${variant.name.replace(/\W+/g, "_")}-${label}.heapsnapshot`, text);
      }
      return { summary: summarize(text), heapUsed: (await inspector.heap()).usedSize };
    };
    const idle = await take("idle");
    await load(app.url, app.pid);
    await sleep(5000);
    const after = await take("after");
    inspector.close();
    return { idle: idle.summary, after: after.summary, idleHeap: idle.heapUsed, afterHeap: after.heapUsed };
  } finally {
    await app.close();
  }
}

await requireWrk();
const machineLine = await machine();
const results = new Map<Variant, Measured[]>(variants.map((v) => [v, []]));
const snaps = new Map<Variant, Snapshots>();
let runs = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    log(`round ${round + 1}: ${variant.name} (${variant.flags || "no V8 flags"}) …`);
    const m = await measure(variant, runs++);
    log(
      `  idle ${fixed(m.idle.rss, 1)} MB, peak ${fixed(m.peak, 1)} MB, after ${fixed(m.after.rss, 1)} MB, ` +
        `${fixed(m.rps)} req/s`,
    );
    results.get(variant)!.push(m);
  }
}
if (SNAPSHOTS) {
  // One snapshot pair per checkout, with its first set of flags.
  for (const variant of variants.filter((v, i) => variants.findIndex((w) => w.root === v.root) === i)) {
    log(`heap snapshots: ${variant.name} …`);
    snaps.set(variant, await snapshots(variant, runs++));
  }
}
await Deno.remove(dir, { recursive: true }).catch(() => {});

console.log(`Machine: ${machineLine}; load average ${await loadAverage()} at the end.`);
console.log(
  `${ROUNDS} round(s), variants interleaved; ${SECONDS} s of wrk, 50 connections, the 7 paths of bench/start.ts. ` +
    "MB; the median first where there are several runs.\n",
);
const med = (list: Measured[], f: (m: Measured) => number, digits = 1) =>
  list.length > 1
    ? `${fixed(median(list.map(f)), digits)} (${list.map((m) => fixed(f(m), digits)).join(", ")})`
    : fixed(f(list[0]), digits);
const rows: [string, (list: Measured[]) => string][] = [
  ["RSS idle, MB", (l) => med(l, (m) => m.idle.rss)],
  ["… of it the binary's and libraries' pages (`RssFile`)", (l) => med(l, (m) => m.idle.file)],
  ["… V8's heap pages, idle", (l) => med(l, (m) => m.idleRegions.v8)],
  [
    "… glibc's arenas (main + threads), idle",
    (l) => med(l, (m) => m.idleRegions.mainArena + m.idleRegions.threadArenas),
  ],
  ["**RSS highest under load, MB**", (l) => `**${med(l, (m) => m.peak)}**`],
  ["… V8's heap pages at that peak", (l) => med(l, (m) => m.peakRegions.v8)],
  ["… glibc's main arena at that peak", (l) => med(l, (m) => m.peakRegions.mainArena)],
  ["… glibc's thread arenas at that peak", (l) => med(l, (m) => m.peakRegions.threadArenas)],
  ["RSS idle again 5 s after the load, MB", (l) => med(l, (m) => m.after.rss)],
  ["req/s over the 7 paths", (l) => med(l, (m) => m.rps, 0)],
  ["server CPU per request (all threads), µs", (l) => med(l, (m) => m.cpuUs, 0)],
  ["p99 latency, ms", (l) => med(l, (m) => m.p99)],
];
const columns = [...results];
console.log(`| measure | ${columns.map(([v]) => `${v.name}`).join(" | ")} |`);
console.log(`|---|${columns.map(() => "---:").join("|")}|`);
for (const [label, cell] of rows) {
  console.log(`| ${label} | ${columns.map(([, l]) => cell(l)).join(" | ")} |`);
}
console.log("\nVariants:");
for (const [v] of columns) {
  const envText = Object.entries(v.env).map(([k, x]) => `${k}=${x} `).join("");
  console.log(`- ${v.name}: \`${v.root}\`, \`${envText}--v8-flags=${v.flags || "(none)"}\``);
}

// Node ids (`@123`, `(synthetic).45`) differ between two snapshots of one process; the names do not.
const samePlace = (a: string, b: string) => {
  const place = (p: string) => p.replace(/ @\d+/g, "").replace(/\(synthetic\)\.\[?\d+\]?/g, "(synthetic)");
  return place(a) === place(b);
};
const kb = (n: number) => fixed(n / 1024, 0);
for (const [variant, { idle, after, idleHeap, afterHeap }] of snaps) {
  console.log(
    `\n### ${variant.name}: heap snapshots (reachable ${kb(idle.total)} KB idle, ${
      kb(after.total)
    } KB after the ` +
      `load; V8 heap used ${fixed(MB(idleHeap), 1)} and ${fixed(MB(afterHeap), 1)} MB)\n`,
  );
  console.log("Constructors by self size after the load, and their change since idle:\n");
  console.log("| constructor | objects | KB after | KB idle | change KB |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, a] of after.byConstructor.slice(0, TOP)) {
    const i = idle.byConstructor.find(([n]) => n === name)?.[1] ?? { count: 0, size: 0 };
    console.log(`| \`${name}\` | ${a.count} | ${kb(a.size)} | ${kb(i.size)} | ${kb(a.size - i.size)} |`);
  }
  console.log("\nModule sources V8 keeps (for lazy compiling), by package, idle:\n");
  console.log("| package or folder | modules | source KB |");
  console.log("|---|---:|---:|");
  for (const [name, t] of idle.sources.slice(0, TOP)) {
    console.log(`| \`${name}\` | ${t.count} | ${kb(t.size)} |`);
  }
  console.log("\nMaps and sets (the caches) after the load, by retained size, and idle:\n");
  console.log("| retained KB after | KB idle | object | path |");
  console.log("|---:|---:|---|---|");
  for (const r of after.collections.slice(0, TOP)) {
    const before = idle.collections.find((c) => samePlace(c.path, r.path));
    console.log(`| ${kb(r.retained)} | ${before ? kb(before.retained) : "—"} | \`${r.name}\` | ${r.path} |`);
  }
  for (const [label, summary] of [["idle", idle], ["after the load", after]] as const) {
    console.log(`\nObjects retaining most, ${label} (retained KB, the path from the roots):\n`);
    console.log("| retained KB | object | path |");
    console.log("|---:|---|---|");
    for (const r of summary.topRetainers.slice(0, TOP)) {
      console.log(`| ${kb(r.retained)} | \`${r.name}\` | ${r.path} |`);
    }
  }
}
