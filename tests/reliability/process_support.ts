/**
 * Support for the reliability tests: the app (or a script) as a real child process, a fresh
 * PostgreSQL database on the shared cluster, a throwaway PostgreSQL cluster of our own (to stop and
 * start in the middle of load without touching anyone else's), and latency figures.
 *
 * Sizes: `RELIABILITY_SIZE=full` runs the full-size scenarios; anything else (CI) a small size.
 *
 * @module
 */
import postgres from "postgres";
import { ensureTestBuild, RAISED_RATE_LIMITS, ROOT } from "@/tests/helpers/app.ts";
import { IN_CI, PG_URL, postgresProblem } from "@/tests/helpers/stores.ts";

export { IN_CI, PG_URL, ROOT };

/** `full` under `RELIABILITY_SIZE=full`, else `small` (CI). */
export const SIZE: "small" | "full" = Deno.env.get("RELIABILITY_SIZE") === "full" ? "full" : "small";

/** Picks the figure for the current size. */
export const sized = <T>(small: T, full: T): T => SIZE === "full" ? full : small;

/** The same secret for every process of one test, so keys and tokens work across them. */
export const TEST_SECRET = "reliability-secret-that-is-long-enough-0123456789";

/** A running app (or script) process. */
export interface ChildProcess {
  label: string;
  pid: number;
  /** The last lines it wrote (standard output and error), oldest first. */
  tail(): string[];
  /** Log lines of level `error`, and anything on standard error. */
  errors: string[];
  /** Every line with `msg` equal to one of these, parsed (set with `keep`). */
  kept: Record<string, unknown>[];
  status: Promise<Deno.CommandStatus>;
  kill(signal?: Deno.Signal): void;
}

/** A running app process. */
export interface AppProcess extends ChildProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Deno's own notice on stderr while another process (a parallel test's child) holds the project's
 * `node_modules` lock at start-up: it waits, then runs. Not the app's error.
 */
const DENO_NOTICE = /^Blocking waiting for file lock on /;

/** Environment for children: only what Deno needs to find its caches, plus `env`. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const keep = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR", "LANG", "DENO_NO_UPDATE_CHECK"];
  const out: Record<string, string> = { NO_COLOR: "1" };
  for (const name of keep) {
    const value = Deno.env.get(name);
    if (value !== undefined) out[name] = value;
  }
  return { ...out, ...env };
}

/**
 * Starts a Deno script of this repository as a child process, reading its output as it comes
 * (so it never blocks on a full pipe) and keeping the tail.
 */
export function spawnScript(
  script: string,
  env: Record<string, string>,
  options: { label?: string; keep?: string[]; onLine?: (line: string) => void } = {},
): ChildProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    cwd: ROOT,
    env: childEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const errors: string[] = [];
  const kept: Record<string, unknown>[] = [];
  const keep = new Set(options.keep ?? []);
  const read = async (stream: ReadableStream<Uint8Array>, isErr: boolean) => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const bytes of stream) {
      rest += decoder.decode(bytes, { stream: true });
      const parts = rest.split("\n");
      rest = parts.pop()!;
      for (const line of parts) {
        if (line === "") continue;
        lines.push(line);
        if (lines.length > 400) lines.splice(0, lines.length - 200);
        if ((isErr && !DENO_NOTICE.test(line)) || line.includes('"level":"error"')) errors.push(line);
        if (keep.size > 0 && line.startsWith("{")) {
          try {
            const parsed = JSON.parse(line);
            if (keep.has(parsed.msg)) kept.push(parsed);
          } catch { /* not a log line */ }
        }
        options.onLine?.(line);
      }
    }
  };
  const reading = Promise.all([read(child.stdout, false), read(child.stderr, true)]);
  const status = child.status.then(async (s) => {
    await reading.catch(() => {});
    return s;
  });
  return {
    label: options.label ?? script,
    pid: child.pid,
    tail: () => [...lines],
    errors,
    kept,
    status,
    kill(signal: Deno.Signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
    },
  };
}

/**
 * Runs `deno run -A main.ts` with test settings (the {@link RAISED_RATE_LIMITS} among them: load
 * and scale-out tests send many donors from one address) plus `env` on a free port, and answers
 * once it listens.
 *
 * @example
 * ```ts
 * const app = await spawnApp({ KV_PATH: "/tmp/x/kv.sqlite3" });
 * await fetch(`${app.url}/health`);
 * await app.stop();
 * ```
 */
export async function spawnApp(
  env: Record<string, string>,
  options: { label?: string; keep?: string[] } = {},
): Promise<AppProcess> {
  // Build once here, so concurrent children never rebuild `_build` at the same time.
  await ensureTestBuild();
  let listening: (url: string) => void;
  const heard = new Promise<string>((resolve) => listening = resolve);
  const child = spawnScript("main.ts", {
    DENO_ENV: "test",
    APP_SECRET: TEST_SECRET,
    PORT: "0",
    ...RAISED_RATE_LIMITS,
    ...env,
  }, {
    ...options,
    label: options.label ?? "app",
    onLine(line) {
      if (!line.includes('"msg":"listening"')) return;
      const port = line.match(/:(\d+)\/"/)?.[1];
      if (port) listening(`http://127.0.0.1:${port}`);
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const url = await Promise.race([
    heard,
    child.status.then((s) => {
      throw new Error(`${child.label} exited with ${s.code} before listening:\n${child.tail().join("\n")}`);
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`${child.label} did not listen within 90 s:\n${child.tail().join("\n")}`));
      }, 90_000);
    }),
  ]).finally(() => clearTimeout(timer));
  return {
    ...child,
    url,
    async stop() {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await child.status;
      clearTimeout(killer);
    },
  };
}

/** Runs a script to its end; answers its exit code and output. */
export async function runScript(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string[] }> {
  const child = spawnScript(script, { DENO_ENV: "test", APP_SECRET: TEST_SECRET, ...env });
  const { code } = await child.status;
  return { code, output: child.tail() };
}

/** Skips (one line) or, under CI, fails when PostgreSQL is missing; answers whether to go on. */
export async function requirePostgres(what: string): Promise<boolean> {
  const why = await postgresProblem();
  if (!why) return true;
  if (IN_CI) throw new Error(`CI is set, so PostgreSQL is required, but ${PG_URL} is unreachable: ${why}`);
  console.log(`${what} skipped: PostgreSQL at ${PG_URL} is unreachable (${why})`);
  return false;
}

/** A database created for one test on the shared cluster. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the shared cluster (`TEST_DATABASE_URL`), for app processes to
 * migrate and use; `drop` removes it (disconnecting whatever is left).
 */
export async function freshDatabase(label: string): Promise<TestDatabase> {
  const name = `rel_${label}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
  };
}

/** A PostgreSQL cluster of our own, in a temporary folder, on its own port. */
export interface OwnCluster {
  url: string;
  port: number;
  /** `immediate` is a crash (the next start recovers from the WAL); `fast` a clean shutdown. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts it and waits until it accepts connections. */
  start(): Promise<void>;
  /**
   * Freezes (SIGSTOP) or thaws (SIGCONT) the server and its backends: connections stay open but
   * nothing answers, as in a network partition.
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

const PG_BIN = "/usr/lib/postgresql/15/bin";

/**
 * Creates and starts a throwaway cluster (initdb into a temporary folder, trust authentication,
 * 127.0.0.1 only) as the `postgres` user. Needs root (to run as `postgres`) and PostgreSQL 15's
 * binaries; answers why not when it cannot.
 */
export async function ownCluster(): Promise<OwnCluster | string> {
  if (Deno.uid() !== 0) return "not running as root (needed to run PostgreSQL as the postgres user)";
  try {
    await Deno.stat(`${PG_BIN}/initdb`);
    await Deno.stat(`${PG_BIN}/pg_ctl`);
  } catch {
    return `PostgreSQL 15 binaries missing under ${PG_BIN}`;
  }
  const owner = await output("id", ["-u", "postgres"]).catch(() => "");
  if (!/^\d+$/.test(owner)) return "no postgres user";
  const dir = await Deno.makeTempDir({ prefix: "reliability-pg-" });
  await Deno.chown(dir, Number(owner), null);
  const data = `${dir}/data`;
  const port = await freePort();
  const asPostgres = (cmd: string, args: string[]) =>
    output("runuser", ["-u", "postgres", "--", `${PG_BIN}/${cmd}`, ...args]);
  await asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = async () => {
    await asPostgres("pg_ctl", ["-D", data, "-o", opts, "-l", `${dir}/log`, "-w", "-t", "60", "start"]);
  };
  let running = false;
  let paused: number[] = [];
  /** The postmaster's id (first line of postmaster.pid) and its children's. */
  const processes = async () => {
    const main = Number((await Deno.readTextFile(`${data}/postmaster.pid`)).split("\n")[0]);
    const ids = [main];
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === main) ids.push(Number(entry.name));
    }
    return ids;
  };
  const cluster: OwnCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop(mode = "immediate") {
      await asPostgres("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "60", "stop"]);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async pause() {
      paused = await processes();
      for (const pid of paused) Deno.kill(pid, "SIGSTOP");
    },
    resume() {
      for (const pid of paused) {
        try {
          Deno.kill(pid, "SIGCONT");
        } catch { /* gone */ }
      }
      paused = [];
      return Promise.resolve();
    },
    async destroy() {
      await cluster.resume();
      if (running) await cluster.stop("immediate").catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  try {
    await cluster.start();
  } catch (e) {
    await cluster.destroy();
    throw e;
  }
  return cluster;
}

async function output(cmd: string, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(stdout).trim();
  if (code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed (${code}): ${new TextDecoder().decode(stderr)}`);
  }
  return text;
}

/** A TCP port nobody listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Percentiles of a list of milliseconds. */
export function latency(ms: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
  return {
    n: sorted.length,
    p50: Math.round(at(0.5) * 10) / 10,
    p99: Math.round(at(0.99) * 10) / 10,
    max: Math.round((sorted.at(-1) ?? 0) * 10) / 10,
  };
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
