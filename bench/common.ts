/**
 * What the benchmarks share: load generation with `wrk` (Debian's package), the machine's
 * description for `bench/README.md`, and small statistics.
 *
 * @module
 */
import postgres from "postgres";

/** One `wrk` run's result. Latencies are milliseconds. */
export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Socket errors plus non-2xx/3xx answers. */
  errors: number;
  bytesPerRequest: number;
}

/** Options of {@link runWrk}. */
export interface LoadOptions {
  seconds: number;
  connections: number;
  threads: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Paths to cycle through (each connection requests them in turn); default: the URL's own. */
  paths?: readonly string[];
}

// wrk's Lua `done` hook prints exact figures (its text report rounds them).
const REPORT_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK_JSON {\\"requests\\":%d,\\"duration\\":%d,\\"bytes\\":%d,\\"errors\\":%d," ..
    "\\"p50\\":%d,\\"p90\\":%d,\\"p99\\":%d,\\"max\\":%d}\\n",
    summary.requests, summary.duration, summary.bytes,
    e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

const luaFiles = new Map<string, string>();

/** A Lua script for wrk: the report, plus a request function cycling through `paths`. */
async function luaScript(paths: readonly string[] | undefined): Promise<string> {
  const key = JSON.stringify(paths ?? []);
  let file = luaFiles.get(key);
  if (file) return file;
  let script = REPORT_LUA;
  if (paths?.length) {
    const list = paths.map((p) => JSON.stringify(p)).join(", ");
    script += `
local paths = { ${list} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format(nil, paths[i])
end
`;
  }
  file = await Deno.makeTempFile({ prefix: "bench-wrk-", suffix: ".lua" });
  await Deno.writeTextFile(file, script);
  luaFiles.set(key, file);
  return file;
}

/** The `wrk` binary, or exits with how to install it. */
export async function requireWrk(): Promise<string> {
  for (const path of [Deno.env.get("WRK_PATH"), "/usr/bin/wrk", "/usr/local/bin/wrk"]) {
    if (path && await Deno.stat(path).then(() => true, () => false)) return path;
  }
  console.error("wrk is not installed: apt-get install -y wrk (or set WRK_PATH)");
  Deno.exit(1);
}

/**
 * Loads `url` with `wrk` (keep-alive connections, one request in flight per connection).
 *
 * @example
 * ```ts
 * const r = await runWrk("http://127.0.0.1:8000/en/", { seconds: 10, connections: 50, threads: 1 });
 * console.log(r.rps, r.p99);
 * ```
 */
export async function runWrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const wrk = await requireWrk();
  const luaFile = await luaScript(options.paths);
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--timeout",
    "10s",
    "-s",
    luaFile,
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(url);
  const out = await new Deno.Command(wrk, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  const line = text.split("\n").find((l) => l.startsWith("WRK_JSON "));
  if (!out.success || !line) {
    throw new Error(`wrk failed: ${text}\n${new TextDecoder().decode(out.stderr)}`);
  }
  const r = JSON.parse(line.slice("WRK_JSON ".length));
  const seconds = r.duration / 1e6;
  return {
    requests: r.requests,
    seconds,
    rps: r.requests / seconds,
    p50: r.p50 / 1000,
    p90: r.p90 / 1000,
    p99: r.p99 / 1000,
    max: r.max / 1000,
    errors: r.errors,
    bytesPerRequest: r.requests ? r.bytes / r.requests : 0,
  };
}

/** A TCP port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A process's resident memory in MB (`VmRSS` of `/proc/<pid>/status`), or NaN when gone. */
export async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? NaN);
  return kb / 1024;
}

/** The name and CPU time (user + system, ms in 10 ms steps) a `/proc/…/stat` line gives. */
function statCpu(stat: string): { name: string; ms: number } {
  // Fields after the command name (which is in parentheses): utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
    ms: (Number(fields[11]) + Number(fields[12])) * 10,
  };
}

/** CPU time a process has used so far (user + system, all threads), in ms (10 ms steps). */
export async function cpuMs(pid: number): Promise<number> {
  return statCpu(await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "")).ms;
}

/** One thread's name (its `comm`: `deno` is the main thread, `worker-N` a Web Worker) and CPU so far. */
export interface ThreadCpu {
  name: string;
  /** User plus system time, ms (10 ms steps). */
  ms: number;
}

/** The CPU time of each thread of process `pid` so far, by thread id; empty when it is gone. */
export async function threadCpu(pid: number): Promise<Map<number, ThreadCpu>> {
  const threads = new Map<number, ThreadCpu>();
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const stat = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/stat`).catch(() => "");
      if (stat) threads.set(Number(task.name), statCpu(stat));
    }
  } catch { /* the process is gone */ }
  return threads;
}

/**
 * The CPU time so far of each process named `comm` whose command line holds `holding` (e.g.
 * `postgres` and a database's name: that database's connections, not other users' of the server),
 * in ms, by process id: compare two samples process by process, as connections come and go.
 */
export async function processesCpu(comm: string, holding = ""): Promise<Map<number, number>> {
  const processes = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    const { name, ms } = statCpu(stat);
    if (name !== comm) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.includes(holding)) processes.set(Number(entry.name), ms);
  }
  return processes;
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `nproc`, CPU model, RAM, load average, Deno version: the line each result is recorded with. */
export async function machine(): Promise<string> {
  const cpuinfo = await Deno.readTextFile("/proc/cpuinfo").catch(() => "");
  const model = cpuinfo.match(/^model name\s*:\s*(.+)$/m)?.[1] ?? "unknown CPU";
  const meminfo = await Deno.readTextFile("/proc/meminfo").catch(() => "");
  const kb = Number(meminfo.match(/^MemTotal:\s+(\d+)/m)?.[1] ?? 0);
  const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "")).split(" ").slice(0, 3).join(" ");
  return `${navigator.hardwareConcurrency} cores, ${model}, ${(kb / 1024 / 1024).toFixed(1)} GiB RAM, ` +
    `load average ${load} at start, Deno ${Deno.version.deno}`;
}

/** The load average over the last minute. */
export async function loadAverage(): Promise<number> {
  return Number((await Deno.readTextFile("/proc/loadavg").catch(() => "0")).split(" ")[0]);
}

/** A whole number from the environment, or exits naming the variable. */
export function envNumber(name: string, fallback: number, min = 1): number {
  const raw = Deno.env.get(name);
  const value = Number(raw ?? fallback);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`${name} must be a whole number of at least ${min} (got ${JSON.stringify(raw)})`);
    Deno.exit(1);
  }
  return value;
}

/** Formats a number with a fixed number of decimals. */
export const fixed = (n: number, digits = 0) => n.toFixed(digits);

/** The kiosk page the byte benchmarks weigh, as its paired kiosk sees it (any other browser gets a notice). */
export const KIOSK_PAGE = "/en/terminal-payment/7";

/** The paths the memory benchmarks load in turn (`start.ts`, `heap.ts`): the donor pages and one API call. */
export const MEMORY_LOAD_PATHS: readonly string[] = [
  "/en/",
  "/he/",
  KIOSK_PAGE,
  "/en/success",
  "/en/login",
  "/ru/",
  "/api/feature-flags",
];

/**
 * The request headers of `path` in the byte benchmarks: the kiosk page's carry `kioskCookie`, the
 * device cookie of a kiosk paired for shop 7 (`pairTestKiosk(app, "7")` of `tests/helpers/kiosk.ts`).
 */
export const pageHeaders = (path: string, kioskCookie: string): Record<string, string> =>
  path === KIOSK_PAGE ? { cookie: kioskCookie } : {};

/** The pages the byte benchmarks weigh: a name for the table, and the path. */
export const PAGES: readonly (readonly [string, string])[] = [
  ["donation", "/en/"],
  ["donation (he)", "/he/"],
  ["kiosk", KIOSK_PAGE],
  ["kiosk, no shop", "/en/terminal-payment"],
  ["terminal success", "/en/terminal-success/7"],
  ["terminal error", "/en/terminal-error/7"],
  ["success", "/en/success"],
  ["error", "/en/error"],
  ["cancel", "/en/cancel-subscription"],
  ["login", "/en/login"],
  ["register", "/en/register"],
  ["admin: overview", "/en/admin"],
  ["admin: transactions", "/en/admin/transactions"],
  ["admin: donors", "/en/admin/donors"],
  ["admin: members", "/en/admin/members"],
  ["admin: reports", "/en/admin/reports"],
  ["admin: kiosks", "/en/admin/kiosks"],
  ["admin: email", "/en/admin/email"],
  ["admin: staff", "/en/admin/staff"],
  ["admin: audit", "/en/admin/audit"],
  ["admin: settings", "/en/admin/settings"],
  ["admin: two-factor", "/en/admin/two-factor"],
  ["not found", "/en/no-such-page"],
];

/** Drops and creates the benchmark's database, so every run starts empty. */
export async function freshDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(database) || database === "postgres") {
    throw new Error(`BENCH_DATABASE_URL must name a database of its own (got ${JSON.stringify(database)})`);
  }
  const server = new URL(url);
  server.pathname = "/postgres";
  const sql = postgres(server.href, { max: 1, onnotice: () => {} });
  try {
    await sql`drop database if exists ${sql(database)} with (force)`;
    await sql`create database ${sql(database)}`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
