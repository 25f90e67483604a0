/**
 * The real app as a separate process for benchmarks (`bench/lighthouse/`, `bench/donations.ts`): a
 * client in the same process would share the server's event loop and measure itself.
 *
 * @module
 */

/** The repository's root folder. */
export const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/** Options of {@link startAppProcess}. */
export interface StartOptions {
  /** How long to wait for `/health` (default 180 s: the first start may build the client). */
  timeoutMs?: number;
  /** Run with the flags of `deno task start` (V8 heap limits, `--node-modules-dir=manual`), as in production. */
  startTaskFlags?: boolean;
  /** More flags for `deno run` (e.g. `--inspect=127.0.0.1:9229`). */
  denoFlags?: string[];
  /** The checkout to run (default this one): another commit's, to measure before and after in one run. */
  root?: string;
}

/** The flags `deno task start` gives `deno run` (read from deno.json, so the two cannot drift), besides `-A`. */
function startTaskFlags(): string[] {
  const task: string = JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`)).tasks.start;
  const run = startTaskRun(task).run;
  return run.split(/\s+/).slice(2).filter((arg) => arg !== "-A" && arg !== "main.ts");
}

/** The start task's `deno run …` part, and the environment it sets before it (`MALLOC_ARENA_MAX=2`). */
export function startTaskRun(task: string): { run: string; env: Record<string, string> } {
  for (const part of task.split("&&").map((p) => p.trim())) {
    const env: Record<string, string> = {};
    let rest = part;
    for (let m; (m = rest.match(/^([A-Z_][A-Z0-9_]*)=(\S*)\s+/));) {
      env[m[1]] = m[2];
      rest = rest.slice(m[0].length);
    }
    if (rest.startsWith("deno run ")) return { run: rest, env };
  }
  throw new Error(`deno.json's start task has no 'deno run': ${task}`);
}

/** The environment `deno task start` sets for the server (e.g. `MALLOC_ARENA_MAX=2`). */
export function startTaskEnv(): Record<string, string> {
  return startTaskRun(JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`)).tasks.start).env;
}

/**
 * The environment of the app as the request-pipeline benchmarks run it (`ssr.ts`, `profile.ts`):
 * production, Deno KV in `dir`, the sandbox provider, the monthly tab on.
 */
export function productionAppEnv(dir: string): Record<string, string> {
  return {
    DENO_ENV: "production",
    APP_SECRET: "bench-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    PUBLIC_URL: "https://donate.museum.test",
    SANDBOX_ALLOWED: "1",
    ADMIN_REGISTRATION: "approval",
    FEATURE_MONTHLY_PAYMENT: "1",
    FEATURE_TEST_TERMINAL_PAYMENT: "0",
    KV_PATH: `${dir}/kv.sqlite3`,
    SMTP_URL: "smtp://127.0.0.1:9",
    MAIL_FROM: "donations@museum.test",
  };
}

/** A running app process. */
export interface AppProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The file that receives the process's stdout and stderr. */
  logFile: string;
  /** The process id. */
  pid: number;
  /** Stops the process (SIGTERM, then SIGKILL after 10 s). */
  close(): Promise<void>;
}

/**
 * CPU time a process has used so far (user plus system), in ms, from Linux's `/proc`; null where
 * that cannot be read.
 */
export async function cpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    // Fields after the command name (which may hold spaces) start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return Number.isFinite(ticks) ? ticks * 10 : null; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** A port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The environment for a child Deno process: ours, less what would change its output, plus `env`. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const base = Deno.env.toObject();
  delete base.RUST_BACKTRACE;
  delete base.DATABASE_URL;
  delete base.PORT;
  return { ...base, ...env };
}

/** Runs a Deno script of the repository to its end; throws with its output when it fails. */
export async function runScript(script: string, env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    cwd: ROOT,
    env: childEnv(env),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${script} failed (exit ${out.code}):\n${text}`);
  return text;
}

/**
 * Starts `deno run -A main.ts` with `env` on a free port and waits until `GET /health` answers 200
 * (the first start may build the client). Its output goes to `logFile`; `"/dev/null"` discards it
 * in the process itself.
 *
 * @example
 * ```ts
 * const app = await startAppProcess({ KV_PATH: "/tmp/x/kv.sqlite3", APP_SECRET: "…" }, "/tmp/x/app.log");
 * await fetch(`${app.url}/en/`);
 * await app.close();
 * ```
 */
export async function startAppProcess(
  env: Record<string, string>,
  logFile: string,
  options: StartOptions = {},
): Promise<AppProcess> {
  const port = freePort();
  // `/dev/null` is given to the process itself: its log lines are written as in production, and no
  // process of ours spends CPU copying them.
  const discard = logFile === "/dev/null";
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(options.startTaskFlags ? startTaskFlags() : []),
      ...(options.denoFlags ?? []),
      "main.ts",
    ],
    cwd: options.root ?? ROOT,
    env: childEnv({ ...(options.startTaskFlags ? startTaskEnv() : {}), ...env, PORT: String(port) }),
    stdin: "null",
    stdout: discard ? "null" : "piped",
    stderr: discard ? "null" : "piped",
  }).spawn();
  const log = discard ? null : await Deno.open(logFile, { create: true, write: true, truncate: true });
  const copy = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      for (let done = 0; done < chunk.length;) done += await log!.write(chunk.subarray(done));
    }
  };
  const copied = discard
    ? Promise.resolve()
    : Promise.all([copy(child.stdout), copy(child.stderr)]).catch(() => {});
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (;;) {
    if (exited) {
      await copied;
      log?.close();
      throw new Error(`the app exited at start (exit ${(await status).code}); see ${logFile}`);
    }
    const ok = await fetch(`${url}/health`).then(async (r) => {
      await r.body?.cancel();
      return r.ok;
    }, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      await status;
      await copied;
      log?.close();
      throw new Error(`the app did not answer /health in time; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    logFile,
    pid: child.pid,
    async close() {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => {
          if (!exited) child.kill("SIGKILL");
        }, 10_000);
        await status;
        clearTimeout(timer);
      }
      await copied;
      log?.close();
    },
  };
}
