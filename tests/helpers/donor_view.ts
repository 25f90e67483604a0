/**
 * One donor's history for the back office donor view's tests (API and browser): two donor records
 * of one address (the second typed in another case), their gifts and declined attempts in two
 * currencies, monthly gifts in every state (active, paused, failing, cancelled with a reason,
 * ended), and another donor with a similar address, who must never show.
 *
 * @module
 */
import { cancelGift, pauseGift } from "@/lib/monthly_gifts/subscription_changes.ts";
import type { Donor, Store, Subscription, Transaction } from "@/lib/storage/types.ts";
import { donorFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

/** The app reads real time: the monthly gifts' dates are set around it. */
export const NOW = new Date();
const DAY = 86_400_000;

/** `n` days from {@link NOW}, as stored. */
export const days = (n: number) => new Date(NOW.getTime() + n * DAY).toISOString();

/** The seeded donor's address. */
export const DONOR_EMAIL = "ada.levi@example.org";

/** A successful gift (or, with `failed`, a declined attempt) of `donor`, in their name. */
function gift(
  donor: Donor,
  createdAt: string,
  amount: number,
  currency: 1 | 2,
  failed = false,
): Transaction {
  const user = { firstName: donor.firstName, lastName: donor.lastName, email: donor.email };
  const base = txFixture({ donorId: donor.id, createdAt, user });
  return failed
    ? {
      ...base,
      kind: "error",
      statusCode: "033",
      amount,
      currency,
      resultData: null,
      errorMessage: "Declined",
    }
    : {
      ...base,
      amount,
      currency,
      resultData: {
        CreditCardNumber: "458045******4580",
        CreditType: "1",
        DebitTotal: String(amount),
        DebitCurrency: currency,
      },
    };
}

/**
 * Seeds the history (see the module doc); the paused gift is paused for two months and the
 * cancelled one cancelled with the reason `moved-away`, through the donor's own changes.
 */
export async function seedDonorView(store: Store) {
  const first = await store.donors.create(donorFixture({
    email: DONOR_EMAIL,
    firstName: "Ada",
    lastName: "Levi",
    country: "Israel",
    createdAt: "2024-01-05T10:00:00.000Z",
  }));
  const second = await store.donors.create(donorFixture({
    email: DONOR_EMAIL,
    firstName: "Ada",
    lastName: "Levi-Cohen",
    country: "United States",
    createdAt: "2025-06-01T10:00:00.000Z",
  }));
  // Someone else, with a similar address: never shown.
  const other = await store.donors.create(donorFixture({ email: "ada.levi@example.com" }));
  const txs = [
    gift(first, "2024-01-05T10:01:00.000Z", 10_000, 1),
    gift(first, "2024-02-05T10:01:00.000Z", 2_500, 1),
    gift(first, "2024-03-05T10:01:00.000Z", 2_500, 1, true),
    gift(second, "2025-06-01T10:01:00.000Z", 5_000, 2),
    gift(second, "2026-01-01T10:01:00.000Z", 7_550, 2),
    gift(second, "2026-02-01T10:01:00.000Z", 99_900, 2, true),
    gift(other, "2025-01-01T10:01:00.000Z", 123_400, 1),
  ];
  for (const tx of txs) await store.transactions.record(tx);
  const sub = (donorId: string, fields: Partial<Subscription>) =>
    store.subscriptions.create(subscriptionFixture({ donorId, ...fields }));
  const active = await sub(first.id, {
    amount: 2_500,
    currency: 1,
    createdAt: "2024-02-05T10:00:00.000Z",
    nextPaymentDate: days(26),
  });
  const paused = await sub(second.id, {
    amount: 5_000,
    currency: 2,
    createdAt: "2025-06-01T10:00:00.000Z",
    nextPaymentDate: days(20),
  });
  const failing = await sub(second.id, {
    amount: 1_800,
    currency: 2,
    createdAt: "2025-07-01T10:00:00.000Z",
    nextPaymentDate: days(-9),
    failedAttempts: 1,
    retryAt: days(1),
  });
  const cancelled = await sub(first.id, {
    amount: 3_000,
    currency: 1,
    createdAt: "2024-03-01T10:00:00.000Z",
    nextPaymentDate: days(3),
  });
  const ended = await sub(second.id, {
    amount: 900,
    currency: 2,
    createdAt: "2025-01-01T10:00:00.000Z",
    status: "failed",
    nextPaymentDate: "2025-05-01T10:00:00.000Z",
  });
  const ctx = { store, maxAmount: 100_000, now: () => NOW };
  await pauseGift(ctx, { subscriptionId: paused.id, email: DONOR_EMAIL }, 2);
  await cancelGift(ctx, { subscriptionId: cancelled.id, email: DONOR_EMAIL }, "moved-away");
  return { first, second, other, txs, active, paused, failing, cancelled, ended };
}
