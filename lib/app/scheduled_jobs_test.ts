import assert from "node:assert/strict";
import { loadConfig } from "./config.ts";
import { createLogger } from "@/lib/core/log.ts";
import { createProviderFactory } from "./payments.ts";
import { createJobs, JOB_SCHEDULES } from "./scheduled_jobs.ts";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { StorageUnavailableError } from "@/lib/storage/types.ts";

const DAY = 86_400_000;

function captured() {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: createLogger((line) => lines.push(JSON.parse(line))) };
}

async function setup() {
  const store = await openKvStore(":memory:");
  const config = await loadConfig({ DENO_ENV: "test", APP_SECRET: "scheduled-jobs-test-secret-0123456789" });
  const { lines, log } = captured();
  const provider = createProviderFactory(config, store, log)("http://localhost");
  return { store, lines, log, provider };
}

Deno.test("scheduled jobs: one schedule per job, each a five-field cron and an interval", () => {
  const names = JOB_SCHEDULES.map((j) => j.name);
  assert.deepEqual(new Set(names).size, names.length);
  assert.deepEqual(names.sort(), [
    "membership renewals",
    "monthly billing",
    "reconcile payments",
    "retention sweep",
    "sign-in summaries",
    "yearly statements",
  ]);
  for (const job of JOB_SCHEDULES) {
    assert.equal(job.cron.split(" ").length, 5, job.name);
    assert.ok(job.everyMs >= 60_000, job.name);
  }
});

Deno.test("scheduled jobs: each job runs its pass on the store", async () => {
  const { store, lines, log, provider } = await setup();
  try {
    // An expired refresh token: only the retention sweep deletes it.
    const expired = {
      hash: "hash-expired",
      adminId: "adm_1",
      familyId: "fam_1",
      familyStartedAt: new Date(Date.now() - 20 * DAY).toISOString(),
      createdAt: new Date(Date.now() - 20 * DAY).toISOString(),
      expiresAt: new Date(Date.now() - 3 * DAY).toISOString(),
      usedAt: null,
    };
    await store.refreshTokens.create(expired);
    const jobs = createJobs({ store, provider, log, holder: "test-holder" });

    await jobs["monthly billing"]();
    await jobs["reconcile payments"]();
    assert.ok(await store.refreshTokens.get(expired.hash), "billing and reconciliation leave tokens alone");
    await jobs["retention sweep"]();
    assert.equal(await store.refreshTokens.get(expired.hash), null);

    const messages = lines.map((l) => l.msg);
    assert.ok(messages.includes("retention sweep"), JSON.stringify(messages));
    assert.ok(!messages.includes("scheduled job failed"), JSON.stringify(lines));
    // The leases were released: another holder can take them at once.
    assert.equal(await store.leases.acquire("billing", "other", Date.now(), 1000), true);
    assert.equal(await store.leases.acquire("reconcile", "other", Date.now(), 1000), true);
  } finally {
    await store.close();
  }
});

Deno.test("scheduled jobs: a run whose storage fails is logged and does not throw", async () => {
  const { store, lines, log, provider } = await setup();
  await store.close();
  const failing = new Proxy(store, {
    get(target, key) {
      const repository = Reflect.get(target, key);
      if (typeof repository !== "object" || repository === null) return repository;
      // Every repository method fails as an unreachable database does.
      return new Proxy(repository, {
        get: () => () => Promise.reject(new StorageUnavailableError("database unreachable")),
      });
    },
  });
  const jobs = createJobs({ store: failing, provider, log, holder: "test-holder" });
  for (const { name } of JOB_SCHEDULES) await jobs[name]();
  const failed = lines.filter((l) => l.msg === "scheduled job failed").map((l) => l.job);
  // The retention sweep logs each kind's failure itself and carries on; the passes report theirs.
  assert.deepEqual(failed, [
    "monthly billing",
    "reconcile payments",
    "sign-in summaries",
    "membership renewals",
  ]);
  const sweep = lines.find((l) => l.msg === "retention sweep");
  assert.ok(sweep, JSON.stringify(lines));
});

Deno.test("scheduled jobs: the yearly statements enqueue through the context's outbox, in January", async () => {
  const { store, lines, log, provider } = await setup();
  try {
    await store.transactions.record({
      id: "tx_yearly_1",
      kind: "success",
      statusCode: "000",
      isMonthly: false,
      createdAt: "2025-06-01T10:00:00.000Z",
      donorId: "donor_yearly_0123456789",
      user: { firstName: "Dana", lastName: "Levi", email: "dana@example.org" },
      amount: 1000,
      currency: 1,
      resultData: null,
      errorMessage: null,
      provider: "sandbox",
      providerTransactionId: "ref-yearly-1",
    });
    const keys: string[] = [];
    const enqueueMessage = (m: { key: string }) => Promise.resolve(void keys.push(m.key));
    const january = () => new Date("2026-01-02T06:41:00Z");
    await createJobs({ store, provider, log, holder: "h", enqueueMessage, now: january })
      ["yearly statements"]();
    assert.deepEqual(keys, ["yearly:2025:dana@example.org"]);
    assert.ok(lines.some((l) => l.msg === "yearly statements enqueued" && l.addresses === 1));
    // Without an outbox the job says so, and fails nothing.
    await createJobs({ store, provider, log, holder: "h", now: january })["yearly statements"]();
    assert.ok(lines.some((l) => l.msg === "yearly statements: no outbox wired (enqueueMessage)"));
    assert.ok(!lines.some((l) => l.msg === "scheduled job failed"));
  } finally {
    await store.close();
  }
});
