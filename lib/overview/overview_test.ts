/**
 * The overview on both backends: days and months counted from the museum's midnight, each part's
 * figures and links, and only the parts a role may see.
 */
import assert from "node:assert/strict";
import { ADMIN_ROLES, ADMINS, EVERY_ROLE, FINANCE, OWNERS } from "@/lib/staff/roles.ts";
import { OVERVIEW_PARTS, partsFor } from "@/lib/shared/overview.ts";
import type { MessageInput, Store, Transaction } from "@/lib/storage/types.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { adminFixture, refundFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";
import { deviceFixture } from "@/tests/storage/kiosk_devices_contract.ts";
import { readOverview } from "./overview.ts";

/** Noon in Jerusalem (UTC+2 in November) on Sunday, November 29th, 2026. */
const NOW = new Date("2026-11-29T10:00:00.000Z");
const ZONE = "Asia/Jerusalem";
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

/** A gift of `amount` in `currency` at `createdAt`. */
const gift = (createdAt: string, amount: number, currency: 1 | 2 = 1, extra: Partial<Transaction> = {}) =>
  txFixture({ createdAt, amount, currency, ...extra });

/** Records the scene the tests read: gifts around the museum's midnights, and something of every part. */
async function scene(store: Store) {
  const gifts = {
    // Last month, on the 3rd, and at 23:30 on the 29th in Jerusalem (still "the same days").
    oct3: gift("2026-10-03T10:00:00.000Z", 1_000),
    oct29late: gift("2026-10-29T21:30:00.000Z", 2_000),
    // 00:30 on October 30th in Jerusalem (22:30 UTC on the 29th): past the same days.
    oct30early: gift("2026-10-29T22:30:00.000Z", 4_000),
    // 00:00 on November 1st in Jerusalem is still October 31st in UTC: this month.
    nov1midnight: gift("2026-10-31T22:00:00.000Z", 8_000),
    // 23:59 on the 28th in Jerusalem: this month, yesterday.
    nov28late: gift("2026-11-28T21:59:00.000Z", 16_000),
    // 01:00 on the 29th in Jerusalem, still the 28th in UTC: today.
    nov29one: gift("2026-11-28T23:00:00.000Z", 32_000),
    // This morning, in dollars, a monthly charge.
    nov29usd: gift("2026-11-29T07:00:00.000Z", 2_500, 2, { isMonthly: true }),
  };
  for (const tx of Object.values(gifts)) await store.transactions.record(tx);
  // A declined charge today counts for nothing among the gifts.
  await store.transactions.record(txFixture({ kind: "error", createdAt: ago(HOUR), isMonthly: true }));

  // Monthly gifts: two declined and waiting for a retry, one recovered, one ended.
  const failing = {
    soon: subscriptionFixture({
      nextPaymentDate: "2026-11-27T08:00:00.000Z",
      failedAttempts: 2,
      retryAt: "2026-11-30T08:00:00.000Z",
      amount: 5_000,
      currency: 1,
    }),
    later: subscriptionFixture({
      nextPaymentDate: "2026-11-28T08:00:00.000Z",
      failedAttempts: 1,
      retryAt: "2026-12-01T08:00:00.000Z",
    }),
  };
  for (const s of Object.values(failing)) await store.subscriptions.create(s);
  await store.subscriptions.create(subscriptionFixture({ nextPaymentDate: "2026-12-20T08:00:00.000Z" }));
  await store.subscriptions.create(
    subscriptionFixture({
      failedAttempts: 3,
      retryAt: null,
      status: "failed",
      nextPaymentDate: ago(9 * 24 * HOUR),
    }),
  );

  // Refunds: one pending, one gone through today, one failed.
  const pending = refundFixture({
    transactionId: gifts.nov28late.id,
    amount: 1_500,
    createdAt: ago(2 * HOUR),
  });
  await store.refunds.begin(pending, 16_000);
  const done = refundFixture({ transactionId: gifts.nov29one.id, amount: 700, createdAt: ago(3 * HOUR) });
  await store.refunds.begin(done, 32_000);
  await store.refunds.settle(done.transactionId, done.id, {
    state: "succeeded",
    providerRef: "c1",
    at: ago(HOUR),
  });
  const refused = refundFixture({ transactionId: gifts.nov29one.id, amount: 900, createdAt: ago(3 * HOUR) });
  await store.refunds.begin(refused, 32_000);
  await store.refunds.settle(refused.transactionId, refused.id, {
    state: "failed",
    error: "no",
    at: ago(HOUR),
  });

  // Email: of five messages this week, one failed for good and one waiting to be tried again.
  const message = (i: number): MessageInput => ({
    key: `receipt:overview-${i}`,
    kind: "receipt",
    to: { donorId: `donor-${i}` },
    language: "en",
    data: { transactionId: `tx-${i}` },
  });
  for (let i = 0; i < 5; i++) await store.outbox.enqueue([message(i)], ago((10 - i) * HOUR));
  // One failed nine days ago: before the week counted.
  await store.outbox.enqueue([message(9)], ago(9 * 24 * HOUR));
  const claimed = await store.outbox.claim("test", ago(HOUR), 60_000, 100);
  for (const m of claimed) {
    const outcome = m.key.endsWith("-1") || m.key.endsWith("-9")
      ? { state: "failed" as const, at: ago(HOUR), reason: "550 no such user" }
      : m.key.endsWith("-3")
      ? { state: "queued" as const, retryAt: ago(-HOUR), reason: "421 try later" }
      : { state: "sent" as const, at: ago(HOUR) };
    await store.outbox.settle(m, outcome);
  }

  // Staff: an owner, and two accounts waiting.
  await store.admins.create(adminFixture({ status: "approved", role: "owner" }));
  await store.admins.create(adminFixture());
  await store.admins.create(adminFixture());

  // Kiosks: paired and quiet for two days; paired and busy; quiet but revoked; never paired.
  const paired = { credentialHash: "c".repeat(64), pairedAt: ago(30 * 24 * HOUR) };
  await store.kioskDevices.create(
    deviceFixture({ ...paired, name: "Entrance", shopNumber: "12", lastUsedAt: ago(49 * HOUR) }),
  );
  await store.kioskDevices.create(
    deviceFixture({ ...paired, credentialHash: "d".repeat(64), name: "Shop", lastUsedAt: ago(HOUR) }),
  );
  await store.kioskDevices.create(
    deviceFixture({ ...paired, credentialHash: "e".repeat(64), name: "Old", revokedAt: ago(HOUR) }),
  );
  await store.kioskDevices.create(deviceFixture({ name: "New" }));
  return { gifts, failing };
}

Deno.test("overview: each part's roles are the role sets of lib/staff/roles.ts", () => {
  assert.deepEqual(OVERVIEW_PARTS, {
    gifts: EVERY_ROLE,
    monthlyFailing: EVERY_ROLE,
    refunds: FINANCE,
    email: ADMINS,
    approvals: OWNERS,
    kiosks: ADMINS,
  });
  assert.deepEqual(partsFor("viewer"), ["gifts", "monthlyFailing"]);
  assert.deepEqual(partsFor("nobody"), []);
});

backendTest("overview: the museum's days and months, every part, its links", async (_t, open) => {
  const store = await open();
  const { failing } = await scene(store);
  const overview = await readOverview({ store, timeZone: ZONE, now: NOW }, { role: "owner", lang: "he" });
  assert.equal(overview.timeZone, ZONE);
  assert.equal(overview.today, "2026-11-29");
  assert.equal(overview.at, NOW.toISOString());

  const list = "/he/admin/transactions?type=success";
  assert.deepEqual(overview.gifts, {
    // 01:00 in Jerusalem is today although UTC still says the 28th.
    today: {
      from: "2026-11-29",
      to: "2026-11-29",
      totals: [{ currency: 1, count: 1, amount: 32_000 }, { currency: 2, count: 1, amount: 2_500 }],
      href: `${list}&from=2026-11-29&to=2026-11-29`,
    },
    thisMonth: {
      from: "2026-11-01",
      to: "2026-11-29",
      totals: [{ currency: 1, count: 3, amount: 56_000 }, { currency: 2, count: 1, amount: 2_500 }],
      href: `${list}&from=2026-11-01&to=2026-11-29`,
    },
    lastMonthSameDays: {
      from: "2026-10-01",
      to: "2026-10-29",
      totals: [{ currency: 1, count: 2, amount: 3_000 }],
      href: `${list}&from=2026-10-01&to=2026-10-29`,
    },
    lastMonth: {
      from: "2026-10-01",
      to: "2026-10-31",
      totals: [{ currency: 1, count: 3, amount: 7_000 }],
      href: `${list}&from=2026-10-01&to=2026-10-31`,
    },
  });

  assert.deepEqual(overview.monthlyFailing, {
    count: 2,
    capped: false,
    next: [
      { nextTryAt: failing.soon.retryAt, failedAttempts: 2, amount: 5_000, currency: 1 },
      { nextTryAt: failing.later.retryAt, failedAttempts: 1, amount: 2_500, currency: 2 },
    ],
    // Their failed charges: from the earliest due date of the month they are failing.
    href: "/he/admin/transactions?type=error&payment=monthly&from=2026-11-27&to=2026-11-29",
  });
  assert.deepEqual(overview.refunds, {
    count: 1,
    capped: false,
    pending: [{ currency: 1, count: 1, amount: 1_500 }],
    href: "/he/admin/transactions?type=success&refund=pending",
  });
  assert.deepEqual(overview.email, {
    count: 2,
    failed: 1,
    retrying: 1,
    capped: false,
    since: "2026-11-23",
    href: "/he/admin/email?failingSince=2026-11-23",
  });
  assert.deepEqual(overview.approvals, { count: 2, href: "/he/admin/staff#approvals" });
  assert.deepEqual(overview.kiosks, {
    count: 1,
    devices: [{ name: "Entrance", shopNumber: "12", lastSeenAt: ago(49 * HOUR) }],
    href: "/he/admin/kiosks?unseen=true",
  });
});

backendTest("overview: a role sees only its parts, and none is read for it", async (_t, open) => {
  const store = await open();
  await scene(store);
  for (const role of ADMIN_ROLES) {
    const overview = await readOverview({ store, timeZone: ZONE, now: NOW }, { role, lang: "en" });
    const parts = Object.keys(overview).filter((key) => !["timeZone", "today", "at"].includes(key));
    assert.deepEqual(parts.sort(), partsFor(role).sort(), role);
  }
  // A store that refuses every read but the gifts' and monthly gifts': a viewer's overview still answers.
  const viewerOnly = new Proxy(store, {
    get(target, concept: keyof Store) {
      if (["transactions", "subscriptions"].includes(concept)) return target[concept];
      throw new Error(`a viewer's overview read ${String(concept)}`);
    },
  });
  const overview = await readOverview({ store: viewerOnly, timeZone: ZONE, now: NOW }, {
    role: "viewer",
    lang: "en",
  });
  assert.equal(overview.gifts?.today.totals.length, 2);
});

backendTest("overview: on the 1st, and on the 31st after a shorter month", async (_t, open) => {
  const store = await open();
  // 00:30 on December 1st in Jerusalem.
  const dec1 = new Date("2026-11-30T22:30:00.000Z");
  await store.transactions.record(gift("2026-11-30T22:10:00.000Z", 100));
  const first = await readOverview({ store, timeZone: ZONE, now: dec1 }, { role: "viewer", lang: "en" });
  assert.equal(first.today, "2026-12-01");
  assert.deepEqual(first.gifts?.today.totals, [{ currency: 1, count: 1, amount: 100 }]);
  assert.deepEqual(first.gifts?.thisMonth.totals, [{ currency: 1, count: 1, amount: 100 }]);
  assert.deepEqual([first.gifts?.lastMonthSameDays.from, first.gifts?.lastMonthSameDays.to], [
    "2026-11-01",
    "2026-11-01",
  ]);
  // March 31st: last month's same days are the whole of February.
  const mar31 = await readOverview({ store, timeZone: ZONE, now: new Date("2027-03-31T12:00:00Z") }, {
    role: "viewer",
    lang: "en",
  });
  assert.deepEqual(mar31.gifts?.lastMonthSameDays, { ...mar31.gifts?.lastMonth });
  assert.equal(mar31.gifts?.lastMonth.to, "2027-02-28");
  assert.deepEqual(mar31.monthlyFailing, {
    count: 0,
    capped: false,
    next: [],
    href: "/en/admin/transactions?type=error&payment=monthly&from=2027-03-31&to=2027-03-31",
  });
});
