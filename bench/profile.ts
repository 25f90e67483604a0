/**
 * `deno task bench:profile`: where a request's time goes. Starts the real app (as `bench/ssr.ts`
 * does: `main.ts` with the start task's flags, production configuration, log to `/dev/null`) with
 * V8's inspector, loads one path with `wrk`, and records a CPU profile (the `--cpu-prof` profiler,
 * started and stopped through the inspector so that it covers exactly the load). Each sample is
 * charged to the step of the request pipeline it was taken in: the innermost frame of the stack that
 * belongs to a known step (a module of ours, or one of Hono's middlewares); a sample with none is
 * Hono's own core, Deno's HTTP server and Response machinery, garbage collection, or idle (the event
 * loop waiting, and the HTTP server's work outside JavaScript).
 *
 * Prints a Markdown table for `bench/README.md`: each step's share of the samples and its cost in
 * microseconds per request (its time divided by the requests served while profiling). The profile is
 * kept as `bench/profiles/<path>.cpuprofile` for Chrome DevTools (not committed).
 *
 * | variable            | default |
 * |---------------------|---------|
 * | `BENCH_PATH`        | `/en/`  |
 * | `BENCH_SECONDS`     | `10`    |
 * | `BENCH_CONNECTIONS` | `50`    |
 * | `BENCH_BEFORE`      | unset; a checkout of another commit (`git worktree add`, `deno install`) to profile instead |
 *
 * @module
 */
import { productionAppEnv, ROOT, startAppProcess } from "./app_process.ts";
import { envNumber, fixed, freePort, machine, requireWrk, runWrk } from "./common.ts";

const PATH = Deno.env.get("BENCH_PATH") ?? "/en/";
const SECONDS = envNumber("BENCH_SECONDS", 10);
const CONNECTIONS = envNumber("BENCH_CONNECTIONS", 50);
/** The checkout whose app is profiled: this one, or `BENCH_BEFORE`'s (its files named the same way). */
const PROFILED = Deno.env.get("BENCH_BEFORE")?.replace(/\/$/, "") ?? ROOT;

/**
 * A step and the frames that are its own: by the file's path (relative, `npm:` for packages). The
 * modules of the pipeline before issue 12 (hono's middlewares, `lib/http/request_log.ts`) are named
 * too, so that the same script can profile an older checkout.
 */
const STEPS: { step: string; file: RegExp }[] = [
  { step: "request id", file: /hono\/dist\/middleware\/request-id\/|^lib\/http\/request_id\.ts$/ },
  {
    step: "request log (line and write)",
    file: /^lib\/(core\/)?(log|log_redact)\.ts$|^lib\/http\/request_log\.ts$/,
  },
  {
    step: "security headers and CSP nonce",
    file: /hono\/dist\/middleware\/secure-headers\/|^lib\/http\/security\.ts$/,
  },
  { step: "random bytes (nonce, key id)", file: /^lib\/core\/random\.ts$/ },
  {
    step: "host check, body limit, timeout",
    file: /hono\/dist\/middleware\/body-limit\/|^lib\/http\/(timeout|limits)\.ts$/,
  },
  { step: "language detection", file: /hono\/dist\/(middleware\/language|helper\/cookie|utils\/accept)/ },
  {
    step: "the pipeline and per-request state",
    file: /^lib\/(app|app\/app|app\/request_state|http\/pipeline|http\/request_state)\.ts$/,
  },
  { step: "built assets and public files", file: /^lib\/framework\/assets\.ts$/ },
  {
    step: "`[lang]` middleware, flags and museum settings",
    file:
      /^routes\/\[lang\]\/_middleware\.ts$|^lib\/(flags|settings\/flags|museum\/\w+|core\/shared_read)\.ts$/,
  },
  {
    step: "browser signing key (HMAC-SHA256)",
    file: /^lib\/(signature_check|sha256|shared\/signing|signing\/signature_check|core\/sha256)\.ts$/,
  },
  { step: "page cache (key, fill)", file: /^lib\/framework\/page_cache\.ts$/ },
  {
    step: "page: data and cache key",
    file:
      /^routes\/\[lang\]\/(index\.tsx|_donation_page\.ts|terminal-payment\/)|^lib\/(donation_page|payments\/)/,
  },
  { step: "route layer (routing, context, chain, responses)", file: /^lib\/framework\// },
  { step: "other code of ours", file: /^(lib|routes|components|islands)\// },
  { step: "Hono core (router, compose, context)", file: /hono\/dist\// },
];

/** Where a sample with no step frame was taken, by its innermost frame. */
function unstepped(url: string, name: string): string {
  if (name === "(idle)" || name === "(program)") return "idle: waiting, and work outside JavaScript";
  if (name === "(garbage collector)") return "garbage collection";
  if (url.startsWith("ext:")) return "Deno.serve, Request and Response";
  return "other";
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** µs per category of a profile: each sample's interval charged to its category. */
export function attribute(profile: Profile): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map<number, Node>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const categoryOf = new Map<number, string>();
  const classify = (leaf: number): string => {
    const known = categoryOf.get(leaf);
    if (known) return known;
    let found: string | null = null;
    for (let at: number | undefined = leaf; at !== undefined && !found; at = parent.get(at)) {
      const path = relativeUrl(byId.get(at)!.callFrame.url);
      found = STEPS.find((s) => s.file.test(path))?.step ?? null;
    }
    const frame = byId.get(leaf)!.callFrame;
    const category = found ?? unstepped(frame.url, frame.functionName);
    categoryOf.set(leaf, category);
    return category;
  };
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const category = classify(id);
    out.set(category, (out.get(category) ?? 0) + us);
  });
  return out;
}

function relativeUrl(url: string): string {
  const root = `file://${PROFILED}/`;
  if (url.startsWith(root)) {
    const path = url.slice(root.length);
    const npm = path.match(/^node_modules\/\.deno\/[^/]+\/node_modules\/(.*)$/);
    return npm ? `npm:${npm[1]}` : path;
  }
  return url;
}

/** A minimal client of V8's inspector protocol: one session, calls answered by id. */
async function inspector(port: number) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.onmessage = (e) => {
    const message = JSON.parse(e.data);
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  };
  return {
    call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = next++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => pending.set(id, resolve as (result: unknown) => void));
    },
    close: () => socket.close(),
  };
}

if (import.meta.main) {
  await requireWrk();
  const dir = await Deno.makeTempDir({ prefix: "bench-profile-" });
  const inspectPort = freePort();
  const app = await startAppProcess(productionAppEnv(dir), "/dev/null", {
    startTaskFlags: true,
    denoFlags: [`--inspect=127.0.0.1:${inspectPort}`],
    root: PROFILED,
  });
  try {
    const load = (seconds: number) =>
      runWrk(app.url + PATH, { seconds, connections: CONNECTIONS, threads: 1 });
    await load(3); // warm-up: every code path compiled, the page cached
    const session = await inspector(inspectPort);
    await session.call("Profiler.enable");
    await session.call("Profiler.setSamplingInterval", { interval: 100 });
    await session.call("Profiler.start");
    const result = await load(SECONDS);
    const { profile } = await session.call<{ profile: Profile }>("Profiler.stop");
    session.close();
    await Deno.mkdir(`${ROOT}/bench/profiles`, { recursive: true });
    const name = PATH.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "") || "root";
    await Deno.writeTextFile(`${ROOT}/bench/profiles/${name}.cpuprofile`, JSON.stringify(profile));

    const costs = attribute(profile);
    const total = [...costs.values()].reduce((a, b) => a + b, 0);
    console.log(`Machine: ${await machine()}.`);
    console.log(
      `\`${PATH}\`: ${
        fixed(result.rps)
      } req/s under wrk (${CONNECTIONS} connections, ${SECONDS} s) with the ` +
        `profiler on; ${result.requests} requests, ${fixed(total / 1000)} ms sampled.\n`,
    );
    console.log("| step | share of samples | µs per request |");
    console.log("|---|---:|---:|");
    for (const [category, us] of [...costs].sort((a, b) => b[1] - a[1])) {
      console.log(`| ${category} | ${fixed((100 * us) / total, 1)}% | ${fixed(us / result.requests, 1)} |`);
    }
    const busy = total - (costs.get("idle: waiting, and work outside JavaScript") ?? 0);
    console.log(
      `| **JavaScript, all steps** | ${fixed((100 * busy) / total, 1)}% | ${
        fixed(busy / result.requests, 1)
      } |`,
    );
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
