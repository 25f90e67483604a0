/**
 * The storage contract for the accountant's report figures (`store.reports.figures`): each
 * record counts in the period its instant falls in (`bounds[i] <= instant < bounds[i + 1]`), by
 * creation time whatever the order it was recorded in; successes summed per currency and
 * one-time/monthly (a success without an amount counts its donor only), donors counted once per
 * email (an erased one by donor id), errors counted as failed charges, subscriptions by start and
 * by cancellation (a gift ended by failed charges is not "cancelled"); succeeded refunds by when they
 * were settled, under the kind of gift they refunded; bad bounds refused. On
 * fresh data of its own (the figures are global).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ReportFigures } from "@/lib/storage/types.ts";
import { refundFixture, subscriptionFixture, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore } from "./support.ts";

const JAN = "2026-01-01T00:00:00.000Z";
const FEB = "2026-02-01T00:00:00.000Z";
const MAR = "2026-03-01T00:00:00.000Z";

const EMPTY: ReportFigures = {
  gifts: [],
  refunds: [],
  donors: [],
  failed: [],
  newMonthly: [],
  cancelledMonthly: [],
};

/** The contract of `reports.figures`. */
export async function reportsContract(t: Deno.TestContext, { fresh }: ContractOptions): Promise<void> {
  await t.step(
    "reports: figures() sums each period's records, by time, whatever the order recorded",
    () =>
      withStore(fresh(), async (store) => {
        assert.deepEqual(await store.reports.figures([JAN, FEB, MAR]), EMPTY);
        const user = (email: string) => ({ firstName: "A", lastName: "B", email });
        const gift = (createdAt: string, fields: Parameters<typeof txFixture>[0] = {}) =>
          txFixture({ createdAt, user: user("ada@example.org"), ...fields });
        // Recorded out of time order: February first, then January, then outside the periods.
        await store.transactions.record(gift("2026-02-01T00:00:00.000Z", { amount: 700, currency: 2 }));
        await store.transactions.record(gift("2026-02-14T12:00:00.000Z", { amount: 300, currency: 2 }));
        await store.transactions.record(gift(JAN, { amount: 1_000 }));
        const monthlyGift = gift("2026-01-20T00:00:00.000Z", { amount: 2_500, isMonthly: true });
        await store.transactions.record(monthlyGift);
        await store.transactions.record(
          gift("2026-01-31T23:59:59.999Z", { amount: 500, user: user("bo@example.org") }),
        );
        // An erased donor counts by donor id: two records, two donors.
        await store.transactions.record(gift("2026-01-05T00:00:00.000Z", { amount: 100, user: user("") }));
        await store.transactions.record(gift("2026-01-06T00:00:00.000Z", { amount: 100, user: user("") }));
        // A success without a known amount counts its donor, not its money.
        await store.transactions.record(
          gift("2026-01-07T00:00:00.000Z", { amount: null, currency: null, user: user("cy@example.org") }),
        );
        await store.transactions.record(txFixture({ kind: "error", createdAt: "2026-01-09T00:00:00.000Z" }));
        await store.transactions.record(
          txFixture({ kind: "error", isMonthly: true, createdAt: "2026-02-09T00:00:00.000Z" }),
        );
        await store.transactions.record(
          txFixture({ kind: "error", isMonthly: true, createdAt: "2026-02-10T00:00:00.000Z" }),
        );
        // Outside: just before the first bound, and at the last one (exclusive).
        const december = gift("2025-12-31T23:59:59.999Z", { amount: 9_999 });
        await store.transactions.record(december);
        await store.transactions.record(gift(MAR, { amount: 9_999 }));
        await store.transactions.import([
          gift("2026-02-20T00:00:00.000Z", { amount: 50, isMonthly: true, user: user("dee@example.org") }),
        ]);

        // Refunds count when settled, under the refunded gift's kind; failed and pending ones not.
        const refund = async (tx: typeof december, amount: number, settledAt: string | null, ok = true) => {
          const r = refundFixture({ transactionId: tx.id, amount, currency: tx.currency! });
          await store.refunds.begin(r, tx.amount!);
          if (settledAt === null) return;
          const outcome = ok
            ? { state: "succeeded" as const, providerRef: "credit", at: settledAt }
            : { state: "failed" as const, error: "declined", at: settledAt };
          await store.refunds.settle(tx.id, r.id, outcome);
        };
        await refund(monthlyGift, 500, "2026-02-05T00:00:00.000Z");
        await refund(monthlyGift, 200, "2026-02-06T00:00:00.000Z");
        await refund(monthlyGift, 300, "2026-02-07T00:00:00.000Z", false);
        await refund(monthlyGift, 400, null);
        await refund(december, 1_000, JAN);
        await refund(december, 2_000, MAR);

        const sub = (createdAt: string, fields: Parameters<typeof subscriptionFixture>[0] = {}) =>
          store.subscriptions.create(
            subscriptionFixture({ createdAt, currency: 1, amount: 2_500, ...fields }),
          );
        const a = await sub("2026-01-20T00:00:00.000Z");
        await sub("2026-01-21T00:00:00.000Z", { currency: 2, amount: 1_000 });
        const c = await sub("2025-11-02T00:00:00.000Z", { donorId: uid("donor") });
        const d = await sub("2026-02-02T00:00:00.000Z");
        await sub("2026-03-02T00:00:00.000Z");
        // Cancelled in February (a donor's cancel, and cancelForDonor); d ends after failed charges.
        await store.subscriptions.updateIfVersion(a.id, a.version, {
          status: "cancelled",
          cancelledAt: "2026-02-03T00:00:00.000Z",
        });
        assert.equal(await store.subscriptions.cancelForDonor(c.donorId, "2026-02-28T23:00:00.000Z"), 1);
        await store.subscriptions.updateIfActive(d.id, { status: "failed" });

        const figures = await store.reports.figures([JAN, FEB, MAR]);
        assert.deepEqual(figures, {
          gifts: [
            { period: 0, currency: 1, isMonthly: false, amount: 1_700, count: 4 },
            { period: 0, currency: 1, isMonthly: true, amount: 2_500, count: 1 },
            { period: 1, currency: 2, isMonthly: false, amount: 1_000, count: 2 },
            { period: 1, currency: 1, isMonthly: true, amount: 50, count: 1 },
          ].sort((x, y) => x.period - y.period || x.currency - y.currency),
          refunds: [
            { period: 0, currency: 1, isMonthly: false, amount: 1_000, count: 1 },
            { period: 1, currency: 1, isMonthly: true, amount: 700, count: 2 },
          ],
          donors: [{ period: 0, count: 5 }, { period: 1, count: 2 }],
          failed: [
            { period: 0, isMonthly: false, count: 1 },
            { period: 1, isMonthly: true, count: 2 },
          ],
          newMonthly: [
            { period: 0, currency: 1, amount: 2_500, count: 1 },
            { period: 0, currency: 2, amount: 1_000, count: 1 },
            { period: 1, currency: 1, amount: 2_500, count: 1 },
          ],
          cancelledMonthly: [{ period: 1, currency: 1, amount: 5_000, count: 2 }],
        });
        // One period over both months: the same records, summed together.
        const whole = await store.reports.figures([JAN, MAR]);
        assert.deepEqual(whole.donors, [{ period: 0, count: 6 }]);
        assert.deepEqual(whole.failed, [
          { period: 0, isMonthly: false, count: 1 },
          { period: 0, isMonthly: true, count: 2 },
        ]);
        assert.deepEqual(whole.cancelledMonthly, [{ period: 0, currency: 1, amount: 5_000, count: 2 }]);
        assert.deepEqual(whole.refunds, [
          { period: 0, currency: 1, isMonthly: false, amount: 1_000, count: 1 },
          { period: 0, currency: 1, isMonthly: true, amount: 700, count: 2 },
        ]);
        // Periods with nothing in them answer nothing.
        assert.deepEqual(
          await store.reports.figures(["2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z"]),
          EMPTY,
        );
      }),
  );

  await t.step(
    "reports: figures() refuses bounds that are not 1 to 36 ascending periods",
    () =>
      withStore(fresh(), async (store) => {
        await assert.rejects(() => store.reports.figures([JAN]), RangeError);
        await assert.rejects(() => store.reports.figures([FEB, JAN]), RangeError);
        await assert.rejects(() => store.reports.figures([JAN, JAN]), RangeError);
        await assert.rejects(() => store.reports.figures([JAN, "not a date"]), RangeError);
        const many = Array.from({ length: 38 }, (_, i) => new Date(Date.UTC(2020, i, 1)).toISOString());
        await assert.rejects(() => store.reports.figures(many), /1 to 36 periods/);
        assert.deepEqual(await store.reports.figures(many.slice(0, 37)), EMPTY);
      }),
  );
}
