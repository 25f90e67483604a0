/**
 * Rate limits hold across app instances (issue 13, item 3): two app processes share one store, a
 * PostgreSQL database or a Deno KV file, and a burst of parallel requests spread over both never
 * gets more through than the limit, per address or globally. Were the counts kept in a process's
 * memory, each process would let the whole limit through.
 */
import assert from "node:assert/strict";
import {
  type AppProcess,
  freshDatabase,
  requirePostgres,
  spawnApp,
} from "@/tests/reliability/process_support.ts";

const LIMITS = {
  TRUST_PROXY: "1",
  RATE_LIMIT_WINDOW_SECONDS: "600",
  RATE_LIMIT_PER_ADDRESS: "10",
  RATE_LIMIT_GLOBAL: "15",
};

/** `POST /api/user` on `app` from `address`: its status. */
async function donor(app: AppProcess, address: string, n: number): Promise<number> {
  const res = await fetch(`${app.url}/api/user`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({
      firstName: "Dana",
      lastName: "Levi",
      email: `d${n}@example.org`,
      country: "Israel",
    }),
  });
  await res.body?.cancel();
  if (res.status === 429) assert.ok(Number(res.headers.get("retry-after")) >= 1, "Retry-After is given");
  return res.status;
}

/** Starts two apps on `env`, runs the bursts against both, and stops them. */
async function burstOverTwo(t: Deno.TestContext, env: Record<string, string>): Promise<void> {
  const apps = await Promise.all([
    spawnApp({ ...env, ...LIMITS }, { label: "app A" }),
    spawnApp({ ...env, ...LIMITS }, { label: "app B" }),
  ]);
  try {
    await t.step("30 parallel donors from one address over both: exactly 10 get through", async () => {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => donor(apps[i % 2], "203.0.113.50", i)),
      );
      assert.equal(statuses.filter((s) => s === 201).length, 10, statuses.join(","));
      assert.equal(statuses.filter((s) => s === 429).length, 20, statuses.join(","));
    });

    await t.step("20 more from 20 addresses: the global limit (15) lets 5 more through", async () => {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => donor(apps[i % 2], `198.51.100.${i + 1}`, 100 + i)),
      );
      assert.equal(statuses.filter((s) => s === 201).length, 5, statuses.join(","));
      assert.equal(statuses.filter((s) => s === 429).length, 15, statuses.join(","));
    });
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
}

Deno.test({
  name: "rate limits: two app processes on one PostgreSQL database count together",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    if (!await requirePostgres("rate limits across processes")) return;
    const db = await freshDatabase("ratelimits");
    try {
      await burstOverTwo(t, { DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  },
});

Deno.test({
  name: "rate limits: two app processes on one Deno KV file count together",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "rate_limits_kv_" });
    try {
      await burstOverTwo(t, { KV_PATH: `${dir}/kv.sqlite3` });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
