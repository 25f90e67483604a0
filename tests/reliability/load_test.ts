/**
 * Load (issue 7, item 7): simulated donors against a real app process (its own event loop), on
 * Deno KV (a temporary file) and on PostgreSQL (a fresh database): the whole online flow (donor,
 * signed create, the sandbox's card page, our return route, the result page) with approved and
 * declined cards, and kiosk sales at the sandbox terminal (`SANDBOX_TERMINAL_AUTO=approve`).
 *
 * Passes when nothing failed (every answer as expected: no 5xx, no timeouts), every payment the
 * clients saw finish is recorded exactly once (storage read by provider transaction id), and the
 * back office (both lists' totals, the sum of DebitTotal over every page, the daily totals)
 * equals the clients' own sums. Prints throughput and latencies.
 *
 * Small (CI): 20 online donors and 5 kiosks for 10 s; `RELIABILITY_SIZE=full`: 200 and 50 for 60 s.
 */
import assert from "node:assert/strict";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { checkBackOffice, compareBooks, DonorClient, storedTransactions } from "./donor_flows.ts";
import { freshDatabase, latency, requirePostgres, SIZE, sized, spawnApp } from "./process_support.ts";

const ONLINE = sized(20, 200);
const KIOSKS = sized(5, 50);
const DURATION_MS = sized(10_000, 60_000);

async function loadRun(
  backend: string,
  env: Record<string, string>,
  openAfter: () => Promise<Store>,
): Promise<void> {
  const app = await spawnApp({ ...env, SANDBOX_TERMINAL_AUTO: "approve" }, { label: `app (${backend})` });
  let stopped = false;
  try {
    const client = new DonorClient({ base: app.url, requestTimeoutMs: 30_000, terminalMode: "approve" });
    const started = performance.now();
    const until = Date.now() + DURATION_MS;
    await Promise.all([
      client.loop(ONLINE, until, () => client.online()),
      ...Array.from({ length: KIOSKS }, (_, k) => client.loop(1, until, () => client.terminal(`k${k}`))),
    ]);
    const seconds = (performance.now() - started) / 1000;

    const all = latency(client.allLatencies());
    const steps = [...client.latencies].map(([step, ms]) => {
      const l = latency(ms);
      return `${step} p50 ${l.p50} p99 ${l.p99} max ${l.max} ms (${l.n})`;
    });
    const online = client.completed.filter((c) => c.channel === "online");
    console.log(
      `load [${backend}, ${SIZE}]: ${ONLINE} online donors + ${KIOSKS} kiosks for ${seconds.toFixed(1)} s: ` +
        `${client.requests} requests (${(client.requests / seconds).toFixed(0)}/s), ` +
        `${client.completed.length} payments (${(client.completed.length / seconds).toFixed(1)}/s; ` +
        `${online.length} online of which ${online.filter((c) => !c.approved).length} declined, ` +
        `${client.completed.length - online.length} at kiosks); ` +
        `latency p50 ${all.p50} ms, p99 ${all.p99} ms, max ${all.max} ms\n  ` + steps.join("\n  "),
    );

    if (client.errors.length > 0) {
      console.log(`the app's errors (first of ${app.errors.length}):\n${app.errors.slice(0, 3).join("\n")}`);
    }
    assert.deepEqual(client.errors.slice(0, 10), [], `${client.errors.length} flows failed`);
    assert.ok(online.some((c) => !c.approved) && online.some((c) => c.approved), "both outcomes were seen");
    assert.ok(client.completed.some((c) => c.channel === "terminal"), "kiosk sales were made");
    const serverErrors = [...client.statuses].filter(([status]) => status >= 500);
    assert.deepEqual(serverErrors, [], "no 5xx answers");
    assert.deepEqual(app.errors.slice(0, 5), [], "the app logged no errors");

    assert.deepEqual((await checkBackOffice(app.url, client.completed)).slice(0, 10), []);

    await app.stop();
    stopped = true;
    const store = await openAfter();
    try {
      assert.deepEqual(compareBooks(client.completed, await storedTransactions(store)).slice(0, 10), []);
    } finally {
      await store.close();
    }
  } finally {
    if (!stopped) await app.stop();
  }
}

Deno.test({
  name: `load: donors online and at kiosks against an app process [kv] (${SIZE})`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "reliability-load-" });
    try {
      const kvPath = `${dir}/kv.sqlite3`;
      await loadRun("kv", { KV_PATH: kvPath }, () => openKvStore(kvPath));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: `load: donors online and at kiosks against an app process [postgres] (${SIZE})`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (!await requirePostgres("load [postgres]")) return;
    const db = await freshDatabase("load");
    try {
      await loadRun("postgres", { DATABASE_URL: db.url }, () => openPostgresStore(db.url, { max: 2 }));
    } finally {
      await db.drop();
    }
  },
});
