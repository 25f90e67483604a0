/**
 * The retention sweep (`lib/retention/retention.ts`) on both backends: what can no longer matter is really
 * gone from storage, and what must be kept is kept — a used refresh token until it expires (reuse
 * is still caught through the API), revoked families while a token of theirs could live, sandbox
 * records that back a pending payment, an active subscription's token or a started charge.
 */
import assert from "node:assert/strict";
import { LOGIN_WINDOW_MS } from "@/lib/staff/login_throttle.ts";
import { REFRESH_TOKEN_TTL_DAYS } from "@/lib/staff/tokens.ts";
import { createLogger } from "@/lib/core/log.ts";
import { RECONCILE_CUTOFF_MS } from "@/lib/donations/reconcile.ts";
import {
  runRetentionSweep,
  SANDBOX_RETENTION_MS,
  THROTTLE_RETENTION_MS,
  TOKEN_GRACE_MS,
} from "@/lib/retention/retention.ts";
import type { Payment, SandboxRecord, Store, Subscription } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { capturedLog, paymentFixture } from "@/tests/helpers/fixtures.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, followReturn, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = "a-long-museum-passphrase";

let count = 0;
const uid = (prefix: string) =>
  `${prefix}_${++count}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

const iso = (ms: number) => new Date(ms).toISOString();

async function payment(store: Store, status: Payment["status"], createdAt: number): Promise<Payment> {
  const p = paymentFixture({ status, createdAt: iso(createdAt), updatedAt: iso(createdAt) });
  return (await store.payments.createOrReuse(p, uid("dedupe"), 60_000, createdAt)).payment;
}

async function sandboxRecord(
  store: Store,
  updatedAt: number,
  overrides: Partial<SandboxRecord>,
): Promise<SandboxRecord> {
  const r: SandboxRecord = {
    ref: uid("sbx"),
    kind: "hosted",
    status: "paid",
    reference: uid("ref"),
    terminalId: null,
    amount: 10_000,
    currency: 1,
    createdAt: iso(updatedAt),
    updatedAt: iso(updatedAt),
    data: {},
    ...overrides,
  };
  await store.sandbox.create(r);
  return r;
}

async function subscription(store: Store, donorId: string, token: string, status: Subscription["status"]) {
  return await store.subscriptions.create({
    id: uid("sub"),
    donorId,
    amount: 2000,
    currency: 1,
    provider: "sandbox",
    token,
    cardMasked: null,
    language: "en",
    status,
    createdAt: iso(Date.now() - 60 * DAY),
    paymentDate: null,
    nextPaymentDate: iso(Date.now() + 10 * DAY),
    failedAttempts: 0,
    retryAt: null,
    cancelledAt: status === "cancelled" ? iso(Date.now() - 40 * DAY) : null,
  });
}

Deno.test("retention: throttle events outlive their window, sandbox records reconciliation", () => {
  assert.ok(THROTTLE_RETENTION_MS >= 4 * LOGIN_WINDOW_MS);
  assert.ok(TOKEN_GRACE_MS >= HOUR);
  assert.ok(SANDBOX_RETENTION_MS > RECONCILE_CUTOFF_MS, "longer than reconciliation keeps asking");
});

backendTest("retention: refresh tokens, revoked families, nonces and throttle events", async (t, open) => {
  const store = await open();
  const now = Date.now() + HOUR;
  const { lines, log } = capturedLog();
  const token = async (expiresAt: number, used: boolean) => {
    const t = {
      hash: uid("hash"),
      adminId: uid("admin"),
      familyId: uid("family"),
      familyStartedAt: iso(expiresAt - REFRESH_TOKEN_TTL_DAYS * DAY),
      createdAt: iso(expiresAt - REFRESH_TOKEN_TTL_DAYS * DAY),
      expiresAt: iso(expiresAt),
      usedAt: null,
    };
    await store.refreshTokens.create(t);
    if (used) await store.refreshTokens.markUsed(t.hash, iso(expiresAt - DAY));
    return t.hash;
  };
  const expiredLong = await token(now - 2 * DAY, false);
  const expiredUsed = await token(now - 3 * DAY, true);
  const inGrace = await token(now - 12 * HOUR, true);
  const liveUsed = await token(now + 5 * DAY, true);
  const liveUnused = await token(now + 5 * DAY, false);
  const [oldFamily, youngFamily] = [uid("family"), uid("family")];
  await store.refreshTokens.revokeFamily(oldFamily, iso(now - (REFRESH_TOKEN_TTL_DAYS + 2) * DAY));
  // Revoked 14 days ago: a token issued just before could live a few hours more.
  await store.refreshTokens.revokeFamily(youngFamily, iso(now - REFRESH_TOKEN_TTL_DAYS * DAY));
  const expiredNonce = uid("nonce");
  const liveNonce = uid("nonce");
  assert.ok(await store.nonces.claim(expiredNonce, Date.now() + 60_000)); // expired at `now`
  assert.ok(await store.nonces.claim(liveNonce, now + HOUR));
  await store.throttle.record("login:old", now - 2 * DAY, LOGIN_WINDOW_MS);
  await store.throttle.record("login:recent", now - 10 * 60_000, LOGIN_WINDOW_MS);

  const report = await runRetentionSweep({ store, log, now: new Date(now) });

  await t.step("expired tokens a day past expiry are gone, used or not; the others stay", async () => {
    assert.equal(report.refreshTokens, 2);
    assert.equal(await store.refreshTokens.get(expiredLong), null);
    assert.equal(await store.refreshTokens.get(expiredUsed), null);
    assert.ok(await store.refreshTokens.get(inGrace), "expired less than a day ago");
    assert.ok((await store.refreshTokens.get(liveUsed))?.usedAt, "a used token stays until it expires");
    assert.ok(await store.refreshTokens.get(liveUnused));
  });

  await t.step("a revoked family goes once no token of it can live; a recent one stays", async () => {
    assert.equal(report.revokedFamilies, 1);
    assert.equal(await store.refreshTokens.isFamilyRevoked(oldFamily), false);
    assert.equal(await store.refreshTokens.isFamilyRevoked(youngFamily), true);
  });

  await t.step("nonces and throttle events: deleted on PostgreSQL; Deno KV expires them itself", async () => {
    if (store.kind === "postgres") {
      assert.equal(report.nonces, 1);
      assert.equal(report.throttleEvents, 1);
      assert.deepEqual(await store.throttle.recent("login:old", now - 2 * DAY, LOGIN_WINDOW_MS), []);
    } else {
      assert.equal(report.nonces, 0);
      assert.equal(report.throttleEvents, 0);
    }
    assert.equal(await store.nonces.claim(liveNonce, now + HOUR), false, "a live claim stays");
    assert.deepEqual(await store.throttle.recent("login:recent", now, LOGIN_WINDOW_MS), [now - 10 * 60_000]);
  });

  await t.step("one log line with the counts; a second sweep finds nothing", async () => {
    const line = lines.find((l) => l.msg === "retention sweep")!;
    assert.equal(line.level, "info");
    assert.equal(line.refreshTokens, 2);
    assert.deepEqual(line.failed, []);
    const again = await runRetentionSweep({ store, log, now: new Date(now) });
    assert.deepEqual(
      [again.refreshTokens, again.revokedFamilies, again.nonces, again.throttleEvents, again.sandboxRecords],
      [0, 0, 0, 0, 0],
    );
    assert.equal(again.complete, true);
  });

  await t.step(
    "batches: a backlog is deleted in bounded batches, and maxBatches bounds a sweep",
    async () => {
      for (let i = 0; i < 7; i++) await token(now - 5 * DAY - i, i % 2 === 0);
      const partial = await runRetentionSweep({ store, log, now: new Date(now), batch: 2, maxBatches: 2 });
      assert.equal(partial.refreshTokens, 4);
      assert.equal(partial.complete, false);
      const rest = await runRetentionSweep({ store, log, now: new Date(now), batch: 2 });
      assert.equal(rest.refreshTokens, 3);
      assert.equal(rest.complete, true);
    },
  );

  await t.step("two sweeps at once delete (and count) each token once", async () => {
    for (let i = 0; i < 30; i++) await token(now - 5 * DAY - i, false);
    const [a, b] = await Promise.all([
      runRetentionSweep({ store, log, now: new Date(now), batch: 4 }),
      runRetentionSweep({ store, log, now: new Date(now), batch: 4 }),
    ]);
    assert.equal(a.refreshTokens + b.refreshTokens, 30);
  });

  await t.step("a kind that fails is logged; the others still run", async () => {
    const doomed = await token(now - 5 * DAY, false);
    const broken: Store = {
      ...store,
      nonces: { ...store.nonces, deleteExpired: () => Promise.reject(new Error("nonces down")) },
    };
    const result = await runRetentionSweep({ store: broken, log, now: new Date(now) });
    assert.deepEqual(result.failed, ["nonces"]);
    assert.equal(result.refreshTokens, 1);
    assert.equal(await store.refreshTokens.get(doomed), null);
    assert.ok(
      lines.some((l) => l.msg === "retention sweep failed" && l.kind === "nonces" && l.level === "error"),
    );
  });
});

backendTest("retention: a used refresh token is still caught as reuse after a sweep", async (_t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const registered = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "keeper@museum.org",
      password: PASSWORD,
      name: "Keeper",
    });
    assert.equal(registered.status, 201);
    const rotated = await api(app.url, "POST", "/api/auth/admin/refresh", {
      refreshToken: registered.body.refreshToken,
    });
    assert.equal(rotated.status, 200);
    // A sweep a week later (the tokens live 14 days).
    const report = await runRetentionSweep({
      store: app.store,
      log: createLogger(() => {}),
      now: new Date(Date.now() + 7 * DAY),
    });
    assert.equal(report.refreshTokens, 0);
    const reuse = await api(app.url, "POST", "/api/auth/admin/refresh", {
      refreshToken: registered.body.refreshToken,
    });
    assert.equal(reuse.status, 401);
    assert.match(reuse.body.message, /already used/);
    const afterTheft = await api(app.url, "POST", "/api/auth/admin/refresh", {
      refreshToken: rotated.body.data.refreshToken,
    });
    assert.equal(afterTheft.status, 401, "the family is revoked");
    // Once every token of the family has expired (and a day more), everything of it goes.
    const later = await runRetentionSweep({
      store: app.store,
      log: createLogger(() => {}),
      now: new Date(Date.now() + (REFRESH_TOKEN_TTL_DAYS + 2) * DAY),
    });
    assert.equal(later.refreshTokens, 2);
    assert.equal(later.revokedFamilies, 1);
  } finally {
    await app.close();
  }
});

backendTest("retention: sandbox records go after 30 days unless still needed", async (t, open) => {
  const store = await open();
  const now = Date.now();
  const old = now - SANDBOX_RETENTION_MS - DAY;
  const recent = now - 10 * DAY;

  const paid = await payment(store, "succeeded", old);
  const waiting = await payment(store, "pending", old);
  const declined = await payment(store, "failed", old);
  const monthly = await payment(store, "succeeded", old);
  const cancelledMonthly = await payment(store, "succeeded", old);
  const kept: Record<string, SandboxRecord> = {
    // The donor may still return from it, or reconciliation ask about it.
    pendingHosted: await sandboxRecord(store, old, { status: "open", reference: waiting.id }),
    pendingSale: await sandboxRecord(store, old, {
      kind: "terminal",
      status: "waiting",
      terminalId: "sim-7",
      reference: waiting.id,
    }),
    // Charged every month.
    activeToken: await sandboxRecord(store, old, {
      ref: `tok_${uid("t")}`,
      kind: "token",
      status: "active",
      reference: monthly.id,
    }),
    // A seeded token names its donor, not a payment.
    seededToken: await sandboxRecord(store, old, { ref: `tok_${uid("t")}`, kind: "token", status: "active" }),
    // Billing's recovery looks it up while its claim is still started.
    startedCharge: await sandboxRecord(store, old, {
      kind: "charge",
      reference: `sub_x:${iso(old)}:0`,
    }),
    recentHosted: await sandboxRecord(store, recent, { reference: paid.id }),
  };
  await subscription(store, monthly.donorId, kept.activeToken.ref, "active");
  await subscription(store, kept.seededToken.reference, kept.seededToken.ref, "active");
  assert.ok(
    await store.charges.claim({
      subscriptionId: "sub_x",
      period: iso(old),
      attempt: 0,
      status: "started",
      reference: `sub_x:${iso(old)}:0`,
      startedAt: iso(old),
      finishedAt: null,
      transactionId: null,
    }),
  );
  await store.charges.claim({
    subscriptionId: "sub_y",
    period: iso(old),
    attempt: 1,
    status: "succeeded",
    reference: `sub_y:${iso(old)}:1`,
    startedAt: iso(old),
    finishedAt: iso(old),
    transactionId: "tx",
  });
  const gone: Record<string, SandboxRecord> = {
    paidHosted: await sandboxRecord(store, old, { reference: paid.id }),
    declinedHosted: await sandboxRecord(store, old, { status: "declined", reference: declined.id }),
    finishedSale: await sandboxRecord(store, old, {
      kind: "terminal",
      status: "paid",
      terminalId: "sim-7",
      reference: paid.id,
    }),
    cancelledToken: await sandboxRecord(store, old, {
      ref: `tok_${uid("t")}`,
      kind: "token",
      status: "active",
      reference: cancelledMonthly.id,
    }),
    finishedCharge: await sandboxRecord(store, old, { kind: "charge", reference: `sub_y:${iso(old)}:1` }),
    unknownCharge: await sandboxRecord(store, old, { kind: "charge", reference: "not-a-charge" }),
    orphanHosted: await sandboxRecord(store, old, {}),
  };
  await subscription(store, cancelledMonthly.donorId, gone.cancelledToken.ref, "cancelled");

  const report = await runRetentionSweep({
    store,
    log: createLogger(() => {}),
    now: new Date(now),
    batch: 3,
  });

  await t.step("finished records older than 30 days are gone, with their indexes", async () => {
    assert.equal(report.sandboxRecords, Object.keys(gone).length);
    for (const [name, r] of Object.entries(gone)) {
      assert.equal(await store.sandbox.get(r.ref), null, name);
    }
    assert.deepEqual(await store.sandbox.listByTerminal("sim-7", "paid"), []);
    assert.equal((await store.sandbox.findByReference(declined.id))?.ref, undefined);
  });

  await t.step(
    "records a pending payment, an active subscription or a started charge needs stay",
    async () => {
      assert.equal(report.sandboxKept, 5, "the five old ones still needed");
      for (const [name, r] of Object.entries(kept)) {
        assert.equal((await store.sandbox.get(r.ref))?.ref, r.ref, name);
      }
      assert.equal((await store.sandbox.listByTerminal("sim-7", "waiting")).length, 1);
    },
  );

  await t.step("once the payment finishes, its records go at the next sweep", async () => {
    await store.payments.update(waiting.id, { status: "failed", updatedAt: iso(now) });
    const next = await runRetentionSweep({ store, log: createLogger(() => {}), now: new Date(now) });
    assert.equal(next.sandboxRecords, 2);
    assert.equal(next.sandboxKept, 3);
    assert.equal(await store.sandbox.get(kept.pendingHosted.ref), null);
  });
});

backendTest(
  "retention: a return visited again after its sandbox record went still shows success",
  async (_t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      const userId = await newDonor(app);
      const created = await createPayment(app, { amount: 100, currency: "nis", userId });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal((await payOnSandboxPage(app, created.body.url)).pathname, "/en/success");
      const [payment] = await app.store.payments.listPending({ from: iso(0), to: iso(Date.now() + DAY) }, 10);
      assert.equal(payment, undefined, "recorded by the return");
      const ref = new URL(created.body.url).pathname.split("/").at(-1)!;
      const paymentId = (await app.store.sandbox.get(ref))!.reference;
      const report = await runRetentionSweep({
        store: app.store,
        log: createLogger(() => {}),
        now: new Date(Date.now() + SANDBOX_RETENTION_MS + DAY),
      });
      assert.equal(report.sandboxRecords, 1);
      assert.equal(await app.store.sandbox.get(ref), null);
      // The bookmarked return address, a month later: the recorded success, not a provider's 404.
      const landed = await followReturn(app, `${app.url}/payments/return/${paymentId}`);
      assert.equal(landed.pathname, "/en/success");
      assert.equal((await app.store.payments.get(paymentId))?.status, "succeeded");
      assert.equal((await app.store.transactions.listErrors({ page: 1, limit: 10 })).total, 0);
    } finally {
      await app.close();
    }
  },
);
