/**
 * A back office full of what makes tables wide, for the browser tests that look at its pages (the
 * fit test, the golden pictures): the demo transactions (`lib/app/demo_data.ts`), the newest of
 * them with a long name and address, a long message from the provider, receipts, a refunded and a
 * refund-pending gift; staff with long names and addresses in every role and state, one waiting
 * for approval; kiosk devices in every state; outgoing email in every state with a long error;
 * audit entries with long changes; and a donor whose page has monthly gifts and several gifts.
 * Everything is dated from `now`, so the same `now` gives the same pages.
 *
 * @module
 */
import { demoTransactions } from "@/lib/app/demo_data.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import type { TestApp } from "./app.ts";
import { api } from "./http.ts";
import { seedMembers } from "./members_data.ts";
import { adminFixture, donorFixture, refundFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

/** The owner the tests sign in as (the first account registered: an approved owner). */
export const OWNER = {
  name: "Dana Levi-Montalcini",
  email: "dana.levi-montalcini@museum.example",
  password: "ledger-and-ink-2026",
};

/** The long name and address of the newest gifts, and the donor page's address. */
export const LONG = {
  firstName: "Maximiliana-Alexandra",
  lastName: "Konstantinopoulou-Vanderbilt",
  email: "maximiliana.konstantinopoulou-vanderbilt@department-of-antiquities.example.org",
  /** A provider's own message, as long as they come. */
  providerMessage:
    "Transaction declined by the issuing bank: the cardholder's billing address could not be verified " +
    "against the records held for this card (AVS mismatch, reference 4F2A-99B1-C3D7)",
};

const DAY = 86_400_000;
const MINUTE = 60_000;

/** Transactions of the long-named donor: two gifts (one refunded in part, one with a refund pending) and a decline. */
function longDonorGifts(now: number, donorId: string): Transaction[] {
  const user = { firstName: LONG.firstName, lastName: LONG.lastName, email: LONG.email };
  const gift = (minutes: number, amount: number, currency: 1 | 2, isMonthly: boolean): Transaction => ({
    id: `long-gift-${minutes}`,
    kind: "success",
    statusCode: "000",
    isMonthly,
    createdAt: new Date(now - minutes * MINUTE).toISOString(),
    donorId,
    user,
    amount,
    currency,
    resultData: {
      CreditCardNumber: "4580********4242",
      CreditType: "8",
      DebitTotal: String(amount),
      DebitCurrency: currency,
      VoucherId: "98765432",
      ShvaResult: "000",
    },
    errorMessage: null,
    provider: "demo",
    providerTransactionId: `long-${minutes}`,
  });
  return [
    gift(3, 1_234_567, 1, true),
    gift(4, 99_900, 2, false),
    {
      id: "long-decline",
      kind: "error",
      statusCode: "033",
      isMonthly: false,
      createdAt: new Date(now - 2 * MINUTE).toISOString(),
      donorId,
      user,
      amount: 1_000_000,
      currency: 1,
      resultData: null,
      errorMessage: LONG.providerMessage,
      provider: "demo",
      providerTransactionId: "long-decline",
    },
  ];
}

/**
 * Fills `app`'s store (see the module doc) and registers {@link OWNER}. `count` demo transactions
 * (200 by default) spread over the 60 days before `now`.
 *
 * @example
 * ```ts
 * const app = await startTestApp();
 * await fillBackOffice(app, new Date());
 * ```
 */
export async function fillBackOffice(app: TestApp, now: Date, count = 200): Promise<void> {
  const { store } = app;
  const t = now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const registered = await api(app.url, "POST", "/api/auth/admin/register", OWNER);
  if (registered.status !== 201) throw new Error(`register: ${JSON.stringify(registered.body)}`);
  const owner = (await store.admins.getByEmail(OWNER.email))!;

  // Staff: every role, a deactivated account, one waiting (the approvals list).
  const staff: [string, string, "approved" | "pending" | "deactivated", string | null][] = [
    [
      "Bartholomew Featherstonehaugh-Cholmondeley",
      "bartholomew.featherstonehaugh@museum.example",
      "approved",
      "admin",
    ],
    ["אלכסנדרה בן-אליעזר רוזנבלום", "alexandra.ben-eliezer.rosenblum@museum.example", "approved", "finance"],
    ["Вениамин Константинопольский", "veniamin.konstantinopolsky@museum.example", "approved", "viewer"],
    [
      "Guadalupe Fernández de Córdoba",
      "guadalupe.fernandez.de.cordoba@museum.example",
      "deactivated",
      "admin",
    ],
    ["Wilhelmina Ashby-Throckmorton", "wilhelmina.ashby-throckmorton@museum.example", "pending", null],
  ];
  for (const [i, [name, email, status, role]] of staff.entries()) {
    await store.admins.create(adminFixture({
      name,
      email,
      status,
      role: role as "admin" | null,
      createdAt: iso(t - (30 - i) * DAY),
      decidedBy: status === "pending" ? null : owner.id,
      decidedAt: status === "pending" ? null : iso(t - (29 - i) * DAY),
    }));
  }

  // Transactions: the demo's, then the long-named donor's newest gifts.
  for (
    const tx of demoTransactions(count, {
      seed: 7,
      from: new Date(t - 60 * DAY),
      to: new Date(t - 5 * MINUTE),
    })
  ) {
    await store.transactions.record(tx);
  }
  const donor = await store.donors.create(donorFixture({
    email: LONG.email,
    firstName: LONG.firstName,
    lastName: LONG.lastName,
    country: "United States of America",
    createdAt: iso(t - 90 * DAY),
  }));
  const gifts = longDonorGifts(t, donor.id);
  for (const tx of gifts) await store.transactions.record(tx);

  // Receipts for the newest page of gifts, and refunds on the long-named donor's two.
  const newest = await store.transactions.listSuccess({ page: 1, limit: 10 });
  for (const tx of newest.data) {
    await issueReceipt(store, app.config.receipts, { transaction: tx, donorName: "", donorTaxId: null, now });
  }
  const refund = (gift: Transaction, amount: number, minutes: number) =>
    store.refunds.begin(
      refundFixture({
        transactionId: gift.id,
        amount,
        currency: gift.currency!,
        actorId: owner.id,
        actorEmail: owner.email,
        createdAt: iso(t - minutes * MINUTE),
      }),
      gift.amount!,
    );
  const [monthlyGift, oneTimeGift] = gifts;
  const { refund: done } = await refund(monthlyGift, 34_567, 2);
  await store.refunds.settle(monthlyGift.id, done.id, {
    state: "succeeded",
    providerRef: "r-1",
    at: iso(t - MINUTE),
  });
  await refund(oneTimeGift, 9_900, 1);

  // The donor's monthly gifts: active, and failing with a retry.
  await store.subscriptions.create(subscriptionFixture({
    donorId: donor.id,
    amount: 1_234_567,
    currency: 1,
    createdAt: iso(t - 80 * DAY),
    nextPaymentDate: iso(t + 20 * DAY),
  }));
  await store.subscriptions.create(subscriptionFixture({
    donorId: donor.id,
    amount: 99_900,
    currency: 2,
    createdAt: iso(t - 70 * DAY),
    nextPaymentDate: iso(t - 3 * DAY),
    failedAttempts: 2,
    retryAt: iso(t + 2 * DAY),
  }));

  // Members in every state (the Members section, issue 27), a Hebrew name and a long one among them.
  await seedMembers(store, now);

  // Visits at the front desk today (issue 28): a long name, a Hebrew one, allowed anyway with a long reason.
  const visits: [string | null, string, number, number | null, "check-in" | "override", string | null][] = [
    ["1000-006F", "Maximiliana-Alexandra Konstantinopoulou-Vanderbilt", 4, 4, "check-in", null],
    ["1000-0038", "רותם בן-דוד", 2, 3, "check-in", null],
    [
      "1000-004N",
      "Boris Ivanov",
      1,
      1,
      "override",
      "Renewing at the desk today; the card printer at the entrance was out of paper all morning",
    ],
    [null, "", 0, null, "override", "Guest of the director"],
  ];
  for (const [i, [number, cardholder, guests, levelId, kind, reason]] of visits.entries()) {
    await store.visits.record({
      id: `fit-visit-${i}-0000000000000`,
      number,
      cardholder,
      guests,
      levelId,
      deskId: owner.id,
      deskEmail: OWNER.email,
      at: iso(t - (i + 1) * 60_000),
      kind,
      reason,
    });
  }

  // Kiosk devices: paired and used, waiting to pair, revoked; names as long as the form allows.
  const devices: [string, string, "paired" | "waiting" | "revoked"][] = [
    ["Entrance hall, north wing, beside the cloakroom and lifts", "shop-entrance-north-wing-01", "paired"],
    ["אולם התצוגה הגדול, קומה שנייה ליד המדרגות", "gallery-2", "waiting"],
    ["Gift shop counter (old terminal, replaced in March)", "giftshop", "revoked"],
  ];
  for (const [i, [name, shop, state]] of devices.entries()) {
    await store.kioskDevices.create({
      id: `device-${i}`,
      name,
      shopNumber: shop,
      terminalId: `sim-${shop}`,
      createdBy: owner.id,
      createdAt: iso(t - (10 - i) * DAY),
      pairingCodeHash: state === "waiting" ? "0".repeat(64) : null,
      pairingExpiresAt: state === "waiting" ? iso(t + DAY) : null,
      credentialHash: state === "waiting" ? null : `${i}`.repeat(64),
      pairedAt: state === "waiting" ? null : iso(t - (9 - i) * DAY),
      lastUsedAt: state === "paired" ? iso(t - 3 * 3_600_000) : null,
      revokedAt: state === "revoked" ? iso(t - DAY) : null,
    });
  }

  // Outgoing email: sent, failed for good with a long error, waiting for a retry, skipped, queued.
  const messages = newest.data.slice(0, 5).map((tx) => ({
    key: `receipt:${tx.id}`,
    kind: "receipt" as const,
    to: { donorId: tx.donorId },
    language: "he",
    data: { transactionId: tx.id },
  }));
  await store.outbox.enqueue(messages, iso(t - 30 * MINUTE));
  const claimed = await store.outbox.claim("fit-test", iso(t - 20 * MINUTE), 60_000, 4);
  const outcomes = [
    { state: "sent" as const, at: iso(t - 19 * MINUTE) },
    {
      state: "failed" as const,
      at: iso(t - 18 * MINUTE),
      reason: "550 5.1.1 <maximiliana.konstantinopoulou-vanderbilt@department-of-antiquities.example.org>: " +
        "Recipient address rejected: User unknown in virtual mailbox table",
    },
    {
      state: "queued" as const,
      retryAt: iso(t + 40 * MINUTE),
      reason: "421 4.7.0 Try again later, closing connection",
    },
    { state: "skipped" as const, at: iso(t - 17 * MINUTE), reason: "donor erased" },
  ];
  for (const [i, message] of claimed.entries()) await store.outbox.settle(message, outcomes[i]);

  // The audit log: entries with long targets and changes.
  const actor = {
    actorId: owner.id,
    actorEmail: owner.email,
    address: "2001:db8:85a3:8d3:1319:8a2e:370:7348",
  };
  await store.audit.append([
    { ...actor, action: "sign-in" },
    {
      ...actor,
      action: "role-changed",
      target: "bartholomew-featherstonehaugh",
      changes: { role: { from: "viewer", to: "admin" } },
    },
    {
      ...actor,
      action: "refund",
      target: monthlyGift.id,
      changes: {
        amount: 34_567,
        currency: 1,
        reason: "requested-by-donor",
        note: "asked by phone, twice, on a long call",
      },
    },
    { ...actor, action: "flag-changed", changes: { flag: "monthly-payment", enabled: false } },
    { ...actor, action: "export", changes: { type: "all", payment: "all", search: LONG.email } },
  ], iso(t - 10 * MINUTE));
}
