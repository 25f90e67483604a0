/**
 * The monthly report reconciles with the transaction lists, exactly, on both backends (issue 16):
 * 10,000 transactions over fourteen months (successes and errors, one-time and monthly, ILS and
 * USD, a pool of donors some of whom gave many times, some erased, a few successes without an
 * amount), imported in shuffled order, a set of monthly gifts started and cancelled, and 400 refunds
 * of the successes (most succeeded, some failed or still pending). The expected figures are computed
 * here from what the lists answer (`transactions.scan` of every success and every error, batch by
 * batch, and the refunds the lists show on each row: `refunds.totals`, then the row's refunds), each transaction put in its month by the museum's
 * calendar through `Intl` (not by the report's bounds; a refund by when it was settled), and must equal the report's month by
 * month, and the report's totals the lists' sums over the range. The CSV's rows say the same.
 *
 * @module
 */
import assert from "node:assert/strict";
import { reportCsv } from "@/lib/reports/csv.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";

/** The museum's time zone (the default of `MUSEUM_TIME_ZONE`). */
const REPORT_TIME_ZONE = "Asia/Jerusalem";
import { formatAmount } from "@/lib/core/csv.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { refundFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const COUNT = 10_000;
/** From 2025-01-01 to 2026-02-28, UTC: the report asks for 2025-01..2026-02 in Jerusalem time. */
const START = Date.parse("2024-12-31T20:00:00.000Z");
const SPAN = Date.parse("2026-03-01T00:00:00.000Z") - START;

/** A small deterministic generator, so a failure can be reproduced. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const monthFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: REPORT_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
});
/** The month of an instant on the museum's calendar, `YYYY-MM`. */
const monthOf = (iso: string) => monthFormat.format(new Date(iso)).slice(0, 7);

/**
 * The instants the museum's months begin (local midnight), found by asking `Intl` which of 21:00
 * and 22:00 UTC on a month's last day is already the next month there.
 */
const EDGES = Array.from({ length: 14 }, (_, i) => {
  const nextFirst = Date.UTC(2025, i + 1, 1);
  return [3, 2].map((h) => nextFirst - h * 3_600_000).find((at) =>
    monthOf(new Date(at).toISOString()) !==
      monthOf(new Date(at - 1).toISOString())
  )!;
});

function seedTransactions(): Transaction[] {
  const next = random(16);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const emails = Array.from({ length: 700 }, (_, i) => `donor${i}@example.org`);
  return Array.from({ length: COUNT }, (_, i) => {
    const kind = next() < 0.15 ? "error" : "success";
    const erased = next() < 0.03;
    const unknownAmount = kind === "success" && next() < 0.01;
    const amount = 100 + Math.floor(next() * 500_000);
    const currency = next() < 0.7 ? 1 : 2;
    return txFixture({
      id: `rec_${i}`,
      kind,
      isMonthly: next() < 0.4,
      // Whole minutes; one in 250 exactly at a month's first local midnight, or the last ms before.
      createdAt: i % 250 === 0
        ? new Date(EDGES[(i / 250) % EDGES.length] - (i % 500 === 0 ? 0 : 1)).toISOString()
        : new Date(START + Math.floor(next() * SPAN / 60_000) * 60_000).toISOString(),
      donorId: `donor_${Math.floor(next() * 900)}`,
      user: { firstName: "F", lastName: "L", email: erased ? "" : pick(emails) },
      amount: unknownAmount ? null : kind === "error" && next() < 0.5 ? null : amount,
      currency: unknownAmount ? null : kind === "error" && next() < 0.5 ? null : currency,
      providerTransactionId: `ptx_${i}`,
    });
  }).sort(() => next() - 0.5);
}

/** Every transaction of one kind, as the lists answer them, batch by batch. */
async function scanAll(store: Store, kind: Transaction["kind"]): Promise<Transaction[]> {
  const out: Transaction[] = [];
  let before: string | null = null;
  do {
    const batch = await store.transactions.scan({ kind, before, limit: 1_000 });
    out.push(...batch.data);
    before = batch.next;
  } while (before !== null);
  return out;
}

/**
 * 400 refunds of successes with an amount, settled at whole minutes over the range (one in 20 at a
 * month's edge): one in ten fails, one in twenty stays pending; the rest succeed.
 */
async function seedRefunds(store: Store, txs: Transaction[]): Promise<void> {
  const next = random(61);
  const paid = txs.filter((tx) => tx.kind === "success" && tx.amount !== null);
  for (let i = 0; i < 400; i++) {
    const tx = paid[Math.floor(next() * paid.length)];
    const amount = 1 + Math.floor(next() * (tx.amount! / 3));
    const refund = refundFixture({ transactionId: tx.id, amount, currency: tx.currency! });
    await store.refunds.begin(refund, tx.amount!);
    const fate = next();
    if (fate < 0.05) continue;
    const at = i % 20 === 0
      ? new Date(EDGES[(i / 20) % EDGES.length] - (i % 40 === 0 ? 0 : 1)).toISOString()
      : new Date(START + Math.floor(next() * SPAN / 60_000) * 60_000).toISOString();
    await store.refunds.settle(
      tx.id,
      refund.id,
      fate < 0.15 ? { state: "failed", error: "declined", at } : { state: "succeeded", providerRef: "c", at },
    );
  }
}

/** The succeeded refunds the lists show on these successes' rows, as `month/currency/kind` sums. */
async function refundsShown(store: Store, successes: Transaction[]) {
  const sums = new Map<string, { amount: number; count: number }>();
  const byId = new Map(successes.map((tx) => [tx.id, tx]));
  for (let i = 0; i < successes.length; i += 1_000) {
    const totals = await store.refunds.totals(successes.slice(i, i + 1_000).map((tx) => tx.id));
    for (const id of totals.keys()) {
      const tx = byId.get(id)!;
      for (const r of await store.refunds.listByTransaction(id)) {
        if (r.state !== "succeeded") continue;
        const month = monthOf(r.settledAt!);
        const inRange = month >= "2025-01" && month <= "2026-02";
        const keys = [`${month}/${r.currency}/${tx.isMonthly}`, `${month}/${r.currency}/all`];
        for (const key of inRange ? [...keys, `all/${r.currency}/all`] : keys) {
          const sum = sums.get(key) ?? { amount: 0, count: 0 };
          sums.set(key, { amount: sum.amount + r.amount, count: sum.count + 1 });
        }
      }
    }
  }
  return sums;
}

interface Expected {
  gifts: Map<string, { amount: number; count: number }>;
  donors: Map<string, Set<string>>;
  failed: Map<string, number>;
}

function expectedFrom(successes: Transaction[], errors: Transaction[]): Expected {
  const gifts = new Map<string, { amount: number; count: number }>();
  const donors = new Map<string, Set<string>>();
  const failed = new Map<string, number>();
  for (const tx of successes) {
    const month = monthOf(tx.createdAt);
    const who = tx.user.email === "" ? `id ${tx.donorId}` : `email ${tx.user.email}`;
    donors.set(month, (donors.get(month) ?? new Set()).add(who));
    if (tx.amount === null || tx.currency === null) continue;
    const inRange = month >= "2025-01" && month <= "2026-02";
    const keys = [`${month}/${tx.currency}/${tx.isMonthly}`, `${month}/${tx.currency}/all`];
    for (const key of inRange ? [...keys, `all/${tx.currency}/all`] : keys) {
      const sum = gifts.get(key) ?? { amount: 0, count: 0 };
      gifts.set(key, { amount: sum.amount + tx.amount, count: sum.count + 1 });
    }
  }
  for (const tx of errors) {
    const key = `${monthOf(tx.createdAt)}/${tx.isMonthly}`;
    failed.set(key, (failed.get(key) ?? 0) + 1);
  }
  return { gifts, donors, failed };
}

backendTest(
  "reports: the monthly figures reconcile with the transaction lists over 10,000 transactions",
  async (t, open) => {
    const store = await open();
    const txs = seedTransactions();
    for (let i = 0; i < txs.length; i += 1_000) await store.transactions.import(txs.slice(i, i + 1_000));
    // Monthly gifts: 60 started over the period, a third of them cancelled later, a few ended by failure.
    const subs = Array.from({ length: 60 }, (_, i) =>
      subscriptionFixture({
        id: `sub_rec_${i}`,
        createdAt: new Date(START + ((i * 7_919) % 400) * 86_400_000).toISOString(),
        currency: i % 3 === 0 ? 2 : 1,
        amount: 1_000 + i * 10,
      }));
    for (const s of subs) await store.subscriptions.create(s);
    const cancelledAt = (i: number) =>
      new Date(Date.parse(subs[i].createdAt) + 20 * 86_400_000).toISOString();
    for (let i = 0; i < subs.length; i += 3) {
      await store.subscriptions.updateIfVersion(subs[i].id, 0, {
        status: "cancelled",
        cancelledAt: cancelledAt(i),
      });
    }
    for (let i = 1; i < subs.length; i += 10) {
      await store.subscriptions.updateIfActive(subs[i].id, {
        status: "failed",
      });
    }

    await seedRefunds(store, txs);

    const report = await monthlyReport(store, { from: "2025-01", to: "2026-02" }, REPORT_TIME_ZONE);
    const [successes, errors] = [await scanAll(store, "success"), await scanAll(store, "error")];
    assert.equal(successes.length + errors.length, COUNT, "the lists hold every transaction");
    const expected = expectedFrom(successes, errors);
    const refunded = await refundsShown(store, successes);

    await t.step("each month: donations per currency and kind, donors, failed charges", () => {
      assert.equal(report.months.length, 14);
      for (const month of report.months) {
        for (const c of month.money) {
          const sum = (kind: string) =>
            expected.gifts.get(`${month.month}/${c.currency}/${kind}`) ?? { amount: 0, count: 0 };
          assert.deepEqual(c.donations.oneTime, sum("false"), `${month.month} ${c.currency} one-time`);
          assert.deepEqual(c.donations.monthly, sum("true"), `${month.month} ${c.currency} monthly`);
          assert.deepEqual(c.donations.total, sum("all"), `${month.month} ${c.currency} all`);
          const back = (kind: string) =>
            refunded.get(`${month.month}/${c.currency}/${kind}`) ?? { amount: 0, count: 0 };
          assert.deepEqual(c.refunds.oneTime, back("false"), `${month.month} ${c.currency} refunds one-time`);
          assert.deepEqual(c.refunds.monthly, back("true"), `${month.month} ${c.currency} refunds monthly`);
          assert.deepEqual(c.refunds.total, back("all"), `${month.month} ${c.currency} refunds`);
          assert.equal(c.net.total, sum("all").amount - back("all").amount, `${month.month} net`);
        }
        assert.equal(month.donors, expected.donors.get(month.month)?.size ?? 0, `${month.month} donors`);
        assert.deepEqual(month.failedCharges, {
          oneTime: expected.failed.get(`${month.month}/false`) ?? 0,
          monthly: expected.failed.get(`${month.month}/true`) ?? 0,
          total: (expected.failed.get(`${month.month}/false`) ?? 0) +
            (expected.failed.get(`${month.month}/true`) ?? 0),
        });
      }
      const checked = report.months.reduce(
        (n, m) => n + m.money.reduce((k, c) => k + c.donations.total.count, 0),
        0,
      );
      assert.ok(checked > 8_000, `most successes fall in the range: ${checked}`);
      const refunds = report.totals.reduce((n, c) => n + c.refunds.total.count, 0);
      assert.ok(refunds > 300, `most refunds succeeded in the range: ${refunds}`);
    });

    await t.step("the range's totals equal the lists' sums; the CSV says the same", () => {
      for (const c of report.totals) {
        assert.deepEqual(
          c.donations.total,
          expected.gifts.get(`all/${c.currency}/all`),
          `currency ${c.currency}`,
        );
        assert.deepEqual(c.refunds.total, refunded.get(`all/${c.currency}/all`), `refunds ${c.currency}`);
      }
      const rows = reportCsv(report, "en").slice(1).split("\r\n").filter((row) => row !== "").slice(1);
      assert.equal(rows.length, 14);
      rows.forEach((row, i) => {
        const cells = row.split(",");
        const month = report.months[i].month;
        assert.equal(cells[0], month);
        assert.equal(
          cells[5],
          formatAmount(expected.gifts.get(`${month}/1/all`)?.amount ?? 0),
          `${month} ILS`,
        );
        assert.equal(
          cells[18],
          formatAmount(expected.gifts.get(`${month}/2/all`)?.amount ?? 0),
          `${month} USD`,
        );
      });
    });

    await t.step("monthly gifts started and cancelled, per month and currency", () => {
      for (const month of report.months) {
        for (const c of month.money) {
          const started = subs.filter((s) =>
            monthOf(s.createdAt) === month.month && s.currency === c.currency
          );
          const cancelled = subs.filter((s, i) =>
            i % 3 === 0 && monthOf(cancelledAt(i)) === month.month && s.currency === c.currency
          );
          const sum = (list: typeof subs) => ({
            amount: list.reduce((a, s) => a + s.amount, 0),
            count: list.length,
          });
          assert.deepEqual(c.newMonthly, sum(started), `${month.month} ${c.currency} new`);
          assert.deepEqual(c.cancelledMonthly, sum(cancelled), `${month.month} ${c.currency} cancelled`);
        }
      }
    });
  },
);
