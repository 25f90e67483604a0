/**
 * `deno task bench:overview`: latency of `GET /api/overview` (issue 26) over real HTTP, as an owner
 * (every part), on stores holding the demo data of the last 60 days (`lib/app/demo_data.ts`, as
 * `deno task seed` writes it, so the overview reads two months of gifts) and, scaled to their size,
 * monthly gifts failing, pending refunds, a week of receipt emails (2% failed, 1% retrying), kiosks
 * and accounts waiting. Each store is filled fresh (a temporary KV file; a schema of its own in
 * `BENCH_DATABASE_URL`, vacuumed and analysed after the fill), the real app started on it, and the
 * requests sent one at a time after a warm-up (the first, which reads the gifts the others find
 * kept, is shown on its own). Progress goes to stderr, the table to stdout.
 *
 * | variable             | default                                                     |
 * |----------------------|-------------------------------------------------------------|
 * | `BENCH_SIZES`        | `200,20000` transactions                                    |
 * | `BENCH_BACKENDS`     | `kv,postgres`                                               |
 * | `BENCH_SAMPLES`      | `100` requests per case                                     |
 * | `BENCH_DATABASE_URL` | `postgres://postgres:postgres@127.0.0.1:5432/bench_overview` |
 *
 * @module
 */
import postgres from "postgres";
import { demoTransactions } from "@/lib/app/demo_data.ts";
import { newId } from "@/lib/core/ids.ts";
import { hashPassword } from "@/lib/staff/passwords.ts";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import { MAX_IMPORT } from "@/lib/storage/queries.ts";
import type { MessageInput, OutboxOutcome, Store, Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { envNumber, freshDatabase, machine } from "./common.ts";

const SIZES = (Deno.env.get("BENCH_SIZES") ?? "200,20000").split(",").map(Number);
const BACKENDS = (Deno.env.get("BENCH_BACKENDS") ?? "kv,postgres").split(",");
const SAMPLES = envNumber("BENCH_SAMPLES", 100);
const DATABASE_URL = Deno.env.get("BENCH_DATABASE_URL") ||
  "postgres://postgres:postgres@127.0.0.1:5432/bench_overview";
const ADMIN = { email: "bench@museum.test", password: "bench-the-overview-2026" };
const DAY = 86_400_000;
const log = (line: string) => console.error(line);

/** Fills `store` with `rows` demo transactions and, in proportion, something in every part. */
async function fill(store: Store, rows: number): Promise<void> {
  const now = Date.now();
  const txs = [...demoTransactions(rows, { seed: 1 })];
  for (let i = 0; i < txs.length; i += MAX_IMPORT) {
    await store.transactions.import(txs.slice(i, i + MAX_IMPORT));
  }
  // One monthly gift in 10 is active; one in 100 failing, due within the retry window.
  for (let i = 0; i < Math.max(10, rows / 10); i++) {
    const failing = i % 10 === 0;
    await store.subscriptions.create({
      id: newId(),
      donorId: newId(),
      amount: 5_000,
      currency: 1,
      provider: "demo",
      token: `tok-${i}`,
      cardMasked: null,
      language: "en",
      status: "active",
      createdAt: new Date(now - 90 * DAY).toISOString(),
      paymentDate: null,
      nextPaymentDate: new Date(now + ((i % 30) - (failing ? 31 : 0)) * DAY).toISOString(),
      failedAttempts: failing ? 1 : 0,
      retryAt: failing ? new Date(now + (i % 3) * DAY).toISOString() : null,
      cancelledAt: null,
    });
  }
  const gifts = txs.filter((tx) => tx.kind === "success");
  for (const tx of gifts.slice(-5)) await refund(store, tx);
  await emails(store, txs.filter((tx) => Date.parse(tx.createdAt) > now - 7 * DAY));
  for (let i = 0; i < 5; i++) {
    await store.kioskDevices.create({
      id: newId(),
      name: `Kiosk ${i}`,
      shopNumber: String(i + 1),
      terminalId: `sim-${i + 1}`,
      createdBy: "bench",
      createdAt: new Date(now - 30 * DAY).toISOString(),
      pairingCodeHash: null,
      pairingExpiresAt: null,
      credentialHash: String(i).repeat(64),
      pairedAt: new Date(now - 30 * DAY).toISOString(),
      lastUsedAt: new Date(now - (i < 2 ? 3 * DAY : 60_000)).toISOString(),
      revokedAt: null,
    });
  }
  for (let i = 0; i < 3; i++) await admin(store, `waiting-${i}@museum.test`, "pending");
  await admin(store, ADMIN.email, "approved");
}

/** A pending refund of a tenth of `tx`. */
async function refund(store: Store, tx: Transaction): Promise<void> {
  await store.refunds.begin({
    id: newId(),
    transactionId: tx.id,
    key: newId(),
    amount: Math.max(1, Math.floor(tx.amount! / 10)),
    currency: tx.currency!,
    reason: "requested-by-donor",
    note: "",
    actorId: "bench",
    actorEmail: "bench@museum.test",
    cancelMonthly: false,
    createdAt: new Date().toISOString(),
    state: "pending",
    providerRef: null,
    error: null,
    settledAt: null,
    failureReport: null,
  }, tx.amount!);
}

/** A receipt email for each of `txs`, settled: 97% sent, 2% failed, 1% waiting for a retry. */
async function emails(store: Store, txs: Transaction[]): Promise<void> {
  for (const tx of txs) {
    const message: MessageInput = {
      key: `receipt:${tx.id}`,
      kind: "receipt",
      to: { donorId: tx.donorId },
      language: "en",
      data: { transactionId: tx.id },
    };
    await store.outbox.enqueue([message], tx.createdAt);
  }
  const now = new Date().toISOString();
  let n = 0;
  for (;;) {
    const claimed = await store.outbox.claim("bench", now, 60_000, 100);
    if (claimed.length === 0) return;
    for (const m of claimed) {
      const i = n++ % 100;
      const outcome: OutboxOutcome = i < 2
        ? { state: "failed", at: now, reason: "550 no such user" }
        : i < 3
        ? { state: "queued", retryAt: new Date(Date.now() + DAY).toISOString(), reason: "421 later" }
        : { state: "sent", at: now };
      await store.outbox.settle(m, outcome);
    }
  }
}

async function admin(store: Store, email: string, status: "approved" | "pending"): Promise<void> {
  const now = new Date().toISOString();
  await store.admins.create({
    id: newId(),
    email,
    name: "Benchmark",
    passwordHash: await hashPassword(ADMIN.password),
    status,
    role: status === "approved" ? "owner" : null,
    createdAt: now,
    decidedBy: status === "approved" ? "bench" : null,
    decidedAt: status === "approved" ? now : null,
  });
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];

/** The overview's latency over HTTP on `store`: p50, p95, max (ms). */
async function measure(store: Store): Promise<{ first: number; p50: number; p95: number; max: number }> {
  const app = await startTestApp({ store });
  try {
    const login = await fetch(`${app.url}/api/auth/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { accessToken } = await login.json();
    const request = async () => {
      const started = performance.now();
      const res = await fetch(`${app.url}/api/overview?lang=en`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`answered ${res.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - started, body };
    };
    // The first request reads the two months of gifts (then kept: lib/overview/totals_cache.ts).
    const first = (await request()).ms;
    for (let i = 1; i < 5; i++) await request();
    const times: number[] = [];
    let last;
    for (let i = 0; i < SAMPLES; i++) {
      last = await request();
      times.push(last.ms);
    }
    log(JSON.stringify(last!.body).slice(0, 600));
    times.sort((a, b) => a - b);
    return { first, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
  } finally {
    await app.close();
  }
}

console.log(`Measured ${new Date().toISOString()}: ${await machine()}\n`);
console.log("| backend  |  rows | first ms | p50 ms | p95 ms | max ms | samples |");
console.log("| -------- | ----: | -------: | -----: | -----: | -----: | ------: |");
for (const backend of BACKENDS) {
  if (backend === "postgres") await freshDatabase(DATABASE_URL);
  for (const rows of SIZES) {
    const dir = await Deno.makeTempDir({ prefix: "bench_overview_" });
    const store = backend === "kv"
      ? await openKvStore(`${dir}/store.kv`)
      : await openPostgresStore(DATABASE_URL, { schema: `overview_${rows}` });
    try {
      const started = performance.now();
      await fill(store, rows);
      log(`${backend} ${rows}: filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      if (backend === "postgres") {
        const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
        await sql.unsafe(`set search_path to overview_${rows}; vacuum analyze`).catch(() => {});
        await sql.end({ timeout: 5 });
      }
      const r = await measure(store);
      const f = (n: number) => n.toFixed(1).padStart(6);
      console.log(
        `| ${backend.padEnd(8)} | ${String(rows).padStart(5)} | ${f(r.first).padStart(8)} | ${f(r.p50)} | ` +
          `${f(r.p95)} | ${f(r.max)} | ${String(SAMPLES).padStart(7)} |`,
      );
    } finally {
      await store.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
}
