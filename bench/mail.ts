/**
 * `deno task bench:mail`: how long after a payment is recorded its receipt email arrives, under
 * load. Many donors at once each give again and again on the sandbox (`POST /api/user`, `POST
 * /api/payment/create`, the sandbox card page, our return route, which records the transaction),
 * or, with `BENCH_RATE`, new donors arrive at a fixed rate whatever the app's pace (a gala);
 * the app, a process of its own with `SMTP_URL` pointing at an SMTP server in this process
 * (`smtp-server`), renders each receipt (HTML, text and the PDF) and sends it through its outbox.
 * The clock starts when the return route has answered (the transaction is recorded by then) and
 * stops when the SMTP server has the whole message; one gift and its receipt go first, unmeasured,
 * so the first receipt's worker start is not counted. Also counted: receipts not arrived 60 s after
 * the last payment (still queued, or lost) and sent twice, and how many receipts a second arrived
 * while the gifts went on. p50 and p99, on Deno KV and on PostgreSQL.
 *
 * Where the time goes, while the gifts go on: the CPU of each thread of the app (its main thread,
 * `deno`, runs the event loop; `worker-N` are its Web Workers, numbered as they started), of this
 * process (the donors' client and the SMTP server) and of PostgreSQL's connections to the
 * benchmark's database (not its shared background processes), as a share of one core; and the app's event loop's delay (`bench/loop_probe.ts`, loaded before the app's main
 * module: how late a 10 ms timer runs), p50, p99 and max.
 *
 * | variable              | default                                                  |
 * |-----------------------|----------------------------------------------------------|
 * | `BENCH_DONORS`        | `50` donors at once                                      |
 * | `BENCH_SECONDS`       | `10` seconds of giving per backend                       |
 * | `BENCH_THINK_MS`      | `0`: each donor's pause after a gift (a person's pace)   |
 * | `BENCH_RATE`          | `0`: donors as above; else this many new donors' gifts a second instead |
 * | `RECEIPT_WORKERS`     | the app's default (a worker per spare core)              |
 * | `OUTBOX_WORKER`       | the app's default (a thread of its own on PostgreSQL, the event loop on KV); `1`, `0` |
 * | `BENCH_BACKENDS`      | `kv,postgres`                                            |
 * | `BENCH_DATABASE_URL`  | `postgres://postgres:postgres@127.0.0.1:5432/bench_mail` (dropped and created at each run) |
 *
 * @module
 */
// @ts-types="@types/smtp-server"
import { SMTPServer } from "smtp-server";
import { signPayload } from "@/lib/shared/signing.ts";
import { GOOD_CARD } from "@/tests/helpers/payments.ts";
import { RAISED_RATE_LIMITS } from "@/tests/helpers/app.ts";
import { ROOT, startAppProcess } from "./app_process.ts";
import { freshDatabase, processesCpu, type ThreadCpu, threadCpu } from "./common.ts";

const env = Deno.env.toObject();
const DONORS = Number(env.BENCH_DONORS ?? 50);
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const THINK_MS = Number(env.BENCH_THINK_MS ?? 0);
const RATE = Number(env.BENCH_RATE ?? 0);
const BACKENDS = (env.BENCH_BACKENDS ?? "kv,postgres").split(",").map((b) => b.trim()).filter(Boolean);
const DATABASE_URL = env.BENCH_DATABASE_URL || "postgres://postgres:postgres@127.0.0.1:5432/bench_mail";
if (
  !Number.isSafeInteger(DONORS) || DONORS < 1 || !Number.isSafeInteger(SECONDS) || SECONDS < 1 ||
  !Number.isSafeInteger(THINK_MS) || THINK_MS < 0 || !Number.isSafeInteger(RATE) || RATE < 0
) {
  console.error(
    "BENCH_DONORS and BENCH_SECONDS must be whole numbers of at least 1, BENCH_THINK_MS and BENCH_RATE of 0",
  );
  Deno.exit(1);
}
const log = (line: string) => console.error(line);
const load = RATE > 0 ? `${RATE} new donors' gifts a second` : `${DONORS} donors at once`;

/** An SMTP server that notes when each message for each recipient has arrived (no parsing). */
async function startInbox(): Promise<
  { url: string; arrivals: Map<string, number[]>; close(): Promise<void> }
> {
  const arrivals = new Map<string, number[]>();
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        const at = performance.now();
        for (const rcpt of session.envelope.rcptTo) {
          const list = arrivals.get(rcpt.address) ?? [];
          list.push(at);
          arrivals.set(rcpt.address, list);
        }
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve((server as unknown as { server: { address(): { port: number } } }).server.address().port);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function postJson(url: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${new URL(url).pathname} answered ${res.status}`);
  return json;
}

type SigningKey = { keyId: string; key: string };

/** One gift by a new donor of `email`, to the return route's answer (the transaction is recorded then). */
async function give(base: string, key: SigningKey, email: string, n: number): Promise<void> {
  const user = await postJson(`${base}/api/user`, {
    firstName: "Bench",
    lastName: `Donor${n}`,
    email,
    country: "Israel",
  });
  const signed = await signPayload(
    { amount: 100, currency: "nis", userId: user.id, isMonthly: false, language: "en" },
    key,
  );
  const { url } = await postJson(`${base}/api/payment/create`, signed);
  const page = await fetch(url, {
    method: "POST",
    body: new URLSearchParams({
      cardNumber: GOOD_CARD,
      expiry: "12/30",
      cvv: "123",
      idNumber: "123456789",
    }),
  });
  const href = (await page.text()).match(/<a class="button button-primary" href="([^"]+)" target="_top">/)
    ?.[1];
  if (!href) throw new Error("no return link on the sandbox page");
  const back = await fetch(href.replaceAll("&amp;", "&"), { redirect: "manual" });
  await back.body?.cancel();
  if (back.status !== 303) throw new Error(`the return route answered ${back.status}`);
}

const signingKey = async (base: string) =>
  await (await fetch(`${base}/api/signing-key`)).json() as SigningKey;

/** One donor giving until `until`; each recorded payment's time, by the donor's email address. */
async function donor(base: string, n: number, until: number, recorded: Map<string, number>) {
  const key = await signingKey(base);
  for (let i = 0; Date.now() < until; i++) {
    const email = `donor${n}.${i}@example.org`;
    await give(base, key, email, n);
    recorded.set(email, performance.now());
    if (THINK_MS > 0) await new Promise((r) => setTimeout(r, THINK_MS));
  }
}

/**
 * Gifts started at `RATE` a second until `until`, each by a new donor, however long the ones
 * before take (an open loop: a slow app does not slow the arrivals down, as at a gala).
 */
async function arrivals(base: string, until: number, recorded: Map<string, number>) {
  const key = await signingKey(base);
  const started = performance.now();
  const gifts: Promise<void>[] = [];
  for (let n = 0; Date.now() < until; n++) {
    const email = `arrival${n}@example.org`;
    // A gift the app refused (a 503 when storage stays busy on a loaded machine) is counted, not
    // fatal: the run goes on and its receipts are measured.
    gifts.push(
      give(base, key, email, n).then(() => void recorded.set(email, performance.now()), (error) => {
        refusals.push(error instanceof Error ? error.message : String(error));
      }),
    );
    const due = started + ((n + 1) * 1000) / RATE;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  }
  await Promise.all(gifts);
}

/** The gifts refused while arriving at `BENCH_RATE` (the reason of each). */
const refusals: string[] = [];

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/** CPU so far: each thread of the app, this process, PostgreSQL's processes. */
interface CpuSample {
  /** The app's process id: its main thread's id too. */
  pid: number;
  app: Map<number, ThreadCpu>;
  bench: number;
  postgres: Map<number, number>;
}

const cpuSample = async (pid: number): Promise<CpuSample> => ({
  pid,
  app: await threadCpu(pid),
  bench: [...(await threadCpu(Deno.pid)).values()].reduce((sum, t) => sum + t.ms, 0),
  // The benchmark's database's connections (the server is shared with others' tests).
  postgres: await processesCpu("postgres", ` ${new URL(DATABASE_URL).pathname.slice(1)} `),
});

/**
 * The share of one core each used between two samples `ms` apart, in %: the app's main thread
 * (`deno` with the process's id), each of its workers, the rest of its threads (Deno's I/O and
 * V8's helpers), this process, PostgreSQL.
 */
function cpuShares(before: CpuSample, after: CpuSample, ms: number): Record<string, number> {
  const share = (used: number) => Math.round((100 * used) / ms);
  const shares: Record<string, number> = {};
  let other = 0;
  for (const [tid, thread] of after.app) {
    const used = thread.ms - (before.app.get(tid)?.ms ?? 0);
    if (tid === after.pid) shares["app main"] = share(used);
    else if (thread.name.startsWith("worker-")) shares[`app ${thread.name}`] = share(used);
    else other += used;
  }
  shares["app other"] = share(other);
  shares.bench = share(after.bench - before.bench);
  // Each PostgreSQL process's time since the first sample (or since it started); one that ended
  // between the two is left out (its last moments are lost, a few ms).
  shares.postgres = share(
    [...after.postgres].reduce((sum, [pid, ms]) => sum + ms - (before.postgres.get(pid) ?? 0), 0),
  );
  return shares;
}

interface Result {
  /** Gifts the app refused (`BENCH_RATE` only), the reason of each. */
  refused: string[];
  /** CPU while giving, % of one core, by thread or process (see {@link cpuShares}). */
  cpu: Record<string, number>;
  /** The same after the gifts, until the last receipt arrived. */
  cpuDrain: Record<string, number>;
  drainSeconds: number;
  /** The event loop's delay while giving (the first second left out), ms. */
  loop: { p50: number; p99: number; max: number };
  backend: string;
  payments: number;
  arrived: number;
  lost: number;
  twice: number;
  p50: number;
  p99: number;
  max: number;
  /** Receipt emails that arrived while the gifts went on, per second. */
  during: number;
}

async function measure(backend: "kv" | "postgres"): Promise<Result> {
  const tmp = await Deno.makeTempDir({ prefix: "bench-mail-" });
  const inbox = await startInbox();
  const appEnv: Record<string, string> = {
    DENO_ENV: "development",
    APP_SECRET: crypto.randomUUID() + crypto.randomUUID(),
    KV_PATH: `${tmp}/kv.sqlite3`,
    PAYMENT_PROVIDER: "sandbox",
    SMTP_URL: inbox.url,
    MAIL_FROM: "Museum donations <donations@museum.example>",
    ...RAISED_RATE_LIMITS,
    ...(env.RECEIPT_WORKERS ? { RECEIPT_WORKERS: env.RECEIPT_WORKERS } : {}),
    ...(env.OUTBOX_WORKER ? { OUTBOX_WORKER: env.OUTBOX_WORKER } : {}),
  };
  if (backend === "postgres") {
    await freshDatabase(DATABASE_URL);
    appEnv.DATABASE_URL = DATABASE_URL;
  }
  const probeFile = `${tmp}/loop.jsonl`;
  appEnv.LOOP_PROBE_FILE = probeFile;
  const app = await startAppProcess(appEnv, "/dev/null", {
    denoFlags: ["--preload", `${ROOT}/bench/loop_probe.ts`],
  });
  try {
    // One gift first, its receipt awaited: the clock measures a running app, not the first
    // receipt's worker starting and loading the PDF libraries (a second or two, once per process).
    await give(app.url, await signingKey(app.url), "warm.up@example.org", 0);
    const warm = Date.now() + 30_000;
    while (!inbox.arrivals.has("warm.up@example.org") && Date.now() < warm) {
      await new Promise((r) => setTimeout(r, 50));
    }
    log(`${backend}: app on ${app.url}; ${load} for ${SECONDS} s`);
    const recorded = new Map<string, number>();
    const refusedBefore = refusals.length;
    const until = Date.now() + SECONDS * 1000;
    const cpuBefore = await cpuSample(app.pid);
    const started = performance.now();
    const startedAt = Date.now();
    if (RATE > 0) await arrivals(app.url, until, recorded);
    else await Promise.all(Array.from({ length: DONORS }, (_, n) => donor(app.url, n, until, recorded)));
    const ended = performance.now();
    const endedAt = Date.now();
    const cpuEnd = await cpuSample(app.pid);
    const cpu = cpuShares(cpuBefore, cpuEnd, ended - started);
    const deadline = Date.now() + 60_000;
    while ([...recorded.keys()].some((e) => !inbox.arrivals.has(e)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const drained = performance.now();
    const cpuDrain = cpuShares(cpuEnd, await cpuSample(app.pid), drained - ended);
    await new Promise((r) => setTimeout(r, 2_000)); // a duplicate would come now
    const latencies: number[] = [];
    let lost = 0, twice = 0;
    for (const [email, at] of recorded) {
      const arrivals = inbox.arrivals.get(email) ?? [];
      if (arrivals.length === 0) lost++;
      if (arrivals.length > 1) twice++;
      if (arrivals.length) latencies.push(Math.max(0, arrivals[0] - at));
    }
    latencies.sort((a, b) => a - b);
    const delays = (await Deno.readTextFile(probeFile).catch(() => "")).split("\n").filter(Boolean)
      .map((line) => JSON.parse(line) as { at: number; delays: number[] })
      .filter((second) => second.at > startedAt + 1000 && second.at <= endedAt)
      .flatMap((second) => second.delays).sort((a, b) => a - b);
    return {
      refused: refusals.slice(refusedBefore),
      cpu,
      cpuDrain,
      drainSeconds: (drained - ended) / 1000,
      loop: { p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays.at(-1) ?? NaN },
      backend,
      payments: recorded.size,
      arrived: latencies.length,
      lost,
      twice,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
      during: [...recorded.keys()].filter((e) => (inbox.arrivals.get(e)?.[0] ?? Infinity) <= ended).length /
        ((ended - started) / 1000),
    };
  } finally {
    await app.close();
    await inbox.close();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

const results: Result[] = [];
for (const backend of BACKENDS as ("kv" | "postgres")[]) results.push(await measure(backend));
console.log(`${load} for ${SECONDS} s; from the payment recorded to its receipt email's arrival.\n`);
console.log(
  "| backend  | payments (per s) | arrived | not in 60 s | sent twice | p50 ms | p99 ms | max ms | sent per s while giving |",
);
console.log(
  "| -------- | ---------------: | ------: | ----------: | ---------: | -----: | -----: | -----: | ----------------------: |",
);
for (const r of results) {
  const payments = `${r.payments} (${Math.round(r.payments / SECONDS)})`;
  console.log(
    `| ${r.backend.padEnd(8)} | ${payments.padStart(16)} | ${String(r.arrived).padStart(7)} | ${
      String(r.lost).padStart(11)
    } | ${String(r.twice).padStart(10)} | ${r.p50.toFixed(1).padStart(6)} | ${
      r.p99.toFixed(1).padStart(6)
    } | ${r.max.toFixed(1).padStart(6)} | ${r.during.toFixed(0).padStart(23)} |`,
  );
}
for (const r of results.filter((r) => r.refused.length)) {
  const reasons = [...new Set(r.refused)].join("; ");
  console.log(`\n${r.backend}: ${r.refused.length} gifts refused, not measured (${reasons})`);
}
console.log(
  `\nCPU (% of one core) while giving and after (to the last receipt); the app's event loop delay (ms).\n`,
);
const shares = (cpu: Record<string, number>) =>
  Object.entries(cpu).map(([name, share]) => `${name} ${share}%`).join(", ");
for (const r of results) {
  console.log(
    `- ${r.backend}, giving: ${shares(r.cpu)}; event loop delay p50 ${r.loop.p50.toFixed(0)}, p99 ${
      r.loop.p99.toFixed(0)
    }, max ${r.loop.max.toFixed(0)}`,
  );
  console.log(`- ${r.backend}, after (${r.drainSeconds.toFixed(1)} s): ${shares(r.cpuDrain)}`);
}
