/**
 * A donor's changes to a monthly gift, on an in-memory store: each change's rule and refusals, its
 * idempotency (a repeat changes and sends nothing), its confirmation email, and billing honouring
 * it (an amount from the next charge, no charge while paused, a skipped period never retried).
 */
import { DANA } from "@/tests/helpers/card_gift.ts";
import { donorFixture } from "@/tests/storage/fixtures.ts";
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";
import { runBillingPass } from "./billing.ts";
import type { PaymentProvider } from "@/lib/providers/provider.ts";
import {
  cancelGift,
  changeAmount,
  ChargeInProgressError,
  GiftEndedError,
  type GiftRef,
  InvalidGiftChangeError,
  NoSuchGiftError,
  pauseGift,
  RaiseNeedsSignInError,
  resumeGift,
  skipNextCharge,
} from "./subscription_changes.ts";

const DAY = 86_400_000;
/** The gift's first payment: 10 January; its periods fall on the 10th of each month. */
const CREATED = "2026-01-10T09:00:00.000Z";
const FEB = "2026-02-10T09:00:00.000Z";
const MAR = "2026-03-10T09:00:00.000Z";
const APR = "2026-04-10T09:00:00.000Z";
const MAY = "2026-05-10T09:00:00.000Z";
const JUN = "2026-06-10T09:00:00.000Z";
const before = (iso: string, days = 1) => new Date(Date.parse(iso) - days * DAY);
const after = (iso: string, days = 1) => new Date(Date.parse(iso) + days * DAY);

async function withGift(fn: (store: Store, sub: Subscription, ref: GiftRef) => Promise<void>) {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const donorId = `donor_${crypto.randomUUID()}`;
    await store.donors.create(donorFixture({
      id: donorId,
      ...DANA,
      createdAt: CREATED,
      paymentDate: CREATED,
      nextPaymentDate: FEB,
      monthlyPaymentAvailable: true,
    }));
    const sub = await store.subscriptions.create({
      id: `sub_${crypto.randomUUID()}`,
      donorId,
      amount: 5_000,
      currency: 1,
      provider: "sandbox",
      token: "tok_1",
      cardMasked: "458012******9015",
      language: "he",
      status: "active",
      createdAt: CREATED,
      paymentDate: CREATED,
      nextPaymentDate: FEB,
      failedAttempts: 0,
      retryAt: null,
      cancelledAt: null,
    });
    await fn(store, sub, { subscriptionId: sub.id, email: DANA.email });
  } finally {
    store.close();
  }
}

const ctxAt = (store: Store, now: Date) => ({ store, maxAmount: 100_000, now: () => now });

/** The monthly-changed and monthly-cancelled messages of a gift, oldest first. */
async function messagesOf(store: Store, sub: Subscription) {
  const keys = [];
  for (let v = 1; v <= 20; v++) keys.push(`gift-changed:${sub.id}:${v}`);
  keys.push(`gift-cancelled:${sub.id}`);
  const found = await Promise.all(keys.map((k) => store.outbox.get(k)));
  return found.filter((m) => m !== null);
}

/** A provider that approves every charge and remembers each (reference, amount). */
function recordingProvider() {
  const charges: { reference: string; amount: number }[] = [];
  const provider = {
    id: "sandbox",
    chargeToken(request: { reference: string; amount: number; currency: 1 | 2 }) {
      charges.push({ reference: request.reference, amount: request.amount });
      return Promise.resolve({
        providerRef: `ch_${charges.length}`,
        statusCode: "000",
        errorMessage: null,
        amount: request.amount,
        currency: request.currency,
        reference: request.reference,
        token: null,
        resultData: null,
      });
    },
  } as unknown as PaymentProvider;
  return { provider, charges };
}

const bill = (store: Store, provider: PaymentProvider, now: Date) =>
  runBillingPass({ store, provider, log: createLogger(() => {}), holder: "unit", now: () => now });

Deno.test("changeAmount: the donation form's limits; applies once, from the next charge; one email", () =>
  withGift(async (store, sub, ref) => {
    const ctx = ctxAt(store, before(FEB, 5));
    await assert.rejects(() => changeAmount(ctx, ref, 0.5), InvalidGiftChangeError);
    await assert.rejects(() => changeAmount(ctx, ref, 100_001), InvalidGiftChangeError);
    await assert.rejects(() => changeAmount(ctx, ref, 12.345), InvalidGiftChangeError);
    await assert.rejects(() => changeAmount(ctx, ref, Number.NaN), InvalidGiftChangeError);
    await assert.rejects(
      () => changeAmount(ctx, { ...ref, email: "someone.else@example.org" }, 75),
      NoSuchGiftError,
    );
    await assert.rejects(
      () => changeAmount(ctx, { ...ref, subscriptionId: "sub_nope" }, 75),
      NoSuchGiftError,
    );

    const first = await changeAmount(ctx, ref, 75);
    assert.equal(first.changed, true);
    assert.equal(first.subscription.amount, 7_500);
    assert.equal(first.subscription.nextPaymentDate, FEB);
    const again = await changeAmount(ctx, ref, 75);
    assert.equal(again.changed, false);
    const sent = await messagesOf(store, sub);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].kind, "monthly-changed");
    assert.deepEqual(sent[0].data, {
      subscriptionId: sub.id,
      change: "amount",
      amount: 7_500,
      currency: 1,
      nextPaymentDate: FEB,
    });
    assert.equal(sent[0].language, "he");

    const { provider, charges } = recordingProvider();
    assert.equal((await bill(store, provider, after(FEB, 0.01))).charged, 1);
    assert.deepEqual(charges.map((c) => c.amount), [7_500]);
  }));

Deno.test("changeAmount: a ref that may not raise lowers and keeps, and is refused a raise (nothing written)", () =>
  withGift(async (store, sub, ref) => {
    const ctx = ctxAt(store, before(FEB, 5));
    const limited = { ...ref, mayRaise: false };
    await assert.rejects(() => changeAmount(ctx, limited, 50.01), RaiseNeedsSignInError);
    assert.equal((await store.subscriptions.get(sub.id))?.version, sub.version, "nothing written");
    assert.equal((await changeAmount(ctx, limited, 50)).changed, false, "the same amount");
    assert.equal((await changeAmount(ctx, limited, 20)).subscription.amount, 2_000);
    assert.equal((await changeAmount(ctx, ref, 80)).subscription.amount, 8_000, "a full session raises");
  }));

Deno.test("pauseGift: 1-3 months from the first left-out period; no charge while paused, one after", () =>
  withGift(async (store, sub, ref) => {
    const ctx = ctxAt(store, before(FEB, 3));
    await assert.rejects(() => pauseGift(ctx, ref, 4), InvalidGiftChangeError);
    await assert.rejects(() => pauseGift(ctx, ref, 0), InvalidGiftChangeError);
    const paused = await pauseGift(ctx, ref, 2);
    assert.equal(paused.subscription.pausedFrom, FEB);
    assert.equal(paused.subscription.nextPaymentDate, APR);
    // Idempotent: the same pause again changes and sends nothing.
    assert.equal((await pauseGift(ctx, ref, 2)).changed, false);
    // Lengthened: counted from the same first period.
    assert.equal((await pauseGift(ctx, ref, 3)).subscription.nextPaymentDate, MAY);
    assert.equal((await store.donors.get(sub.donorId))?.nextPaymentDate, MAY);
    assert.deepEqual((await messagesOf(store, sub)).map((m) => m.data), [
      { subscriptionId: sub.id, change: "pause", amount: 5_000, currency: 1, nextPaymentDate: APR },
      { subscriptionId: sub.id, change: "pause", amount: 5_000, currency: 1, nextPaymentDate: MAY },
    ]);

    const { provider, charges } = recordingProvider();
    for (const at of [after(FEB), after(MAR), after(APR), before(MAY, 0.01)]) {
      assert.equal((await bill(store, provider, at)).charged, 0);
    }
    assert.equal((await bill(store, provider, after(MAY, 0.01))).charged, 1);
    assert.equal((await bill(store, provider, after(MAY, 0.02))).charged, 0);
    assert.deepEqual(charges.map((c) => c.reference), [`${sub.id}:${MAY}:0`]);
    const charged = (await store.subscriptions.get(sub.id))!;
    assert.equal(charged.pausedFrom, null);
    assert.equal(charged.nextPaymentDate, JUN);
    assert.equal(charged.charging, null);
  }));

Deno.test("resumeGift: gives back the paused periods not yet due; a passed one stays skipped", () =>
  withGift(async (store, sub, ref) => {
    await pauseGift(ctxAt(store, before(FEB)), ref, 3);
    // Resumed before February: nothing was left out.
    const early = await resumeGift(ctxAt(store, before(FEB, 0.5)), ref);
    assert.equal(early.subscription.nextPaymentDate, FEB);
    assert.equal(early.subscription.pausedFrom, null);
    assert.equal((await resumeGift(ctxAt(store, before(FEB, 0.5)), ref)).changed, false);

    await pauseGift(ctxAt(store, before(FEB, 0.4)), ref, 3);
    // Resumed in the middle of March's month: February stays skipped, March is charged.
    const late = await resumeGift(ctxAt(store, after(FEB, 5)), ref);
    assert.equal(late.subscription.nextPaymentDate, MAR);
    const { provider, charges } = recordingProvider();
    assert.equal((await bill(store, provider, after(FEB, 6))).charged, 0);
    assert.equal((await bill(store, provider, after(MAR, 0.01))).charged, 1);
    assert.deepEqual(charges.map((c) => c.reference), [`${sub.id}:${MAR}:0`]);
    assert.deepEqual((await messagesOf(store, sub)).map((m) => (m.data as { change: string }).change), [
      "pause",
      "resume",
      "pause",
      "resume",
    ]);
  }));

Deno.test("skipNextCharge: the period shown is not charged and not retried; a repeat does nothing", () =>
  withGift(async (store, sub, ref) => {
    const ctx = ctxAt(store, before(FEB));
    await assert.rejects(() => skipNextCharge(ctx, ref, "soon"), InvalidGiftChangeError);
    await assert.rejects(() => skipNextCharge(ctx, ref, MAR), InvalidGiftChangeError);
    const skipped = await skipNextCharge(ctx, ref, FEB);
    assert.equal(skipped.subscription.nextPaymentDate, MAR);
    assert.equal((await skipNextCharge(ctx, ref, FEB)).changed, false);

    const { provider, charges } = recordingProvider();
    assert.equal((await bill(store, provider, after(FEB))).charged, 0);
    assert.equal((await bill(store, provider, after(FEB, 8))).charged, 0);
    assert.equal((await bill(store, provider, after(MAR, 0.01))).charged, 1);
    assert.deepEqual(charges.map((c) => c.reference), [`${sub.id}:${MAR}:0`]);
    // Past February now: skipping it again changes nothing.
    assert.equal((await skipNextCharge(ctxAt(store, after(MAR)), ref, FEB)).changed, false);
    assert.equal((await messagesOf(store, sub)).length, 1);
  }));

Deno.test("a change is refused while a charge is marked; a cancel is not, and keeps its reason", () =>
  withGift(async (store, sub, ref) => {
    const ctx = ctxAt(store, after(FEB, 0.01));
    await store.subscriptions.updateIfActive(sub.id, { charging: `${sub.id}:${FEB}:0` });
    await assert.rejects(() => changeAmount(ctx, ref, 80), ChargeInProgressError);
    await assert.rejects(() => pauseGift(ctx, ref, 1), ChargeInProgressError);
    await assert.rejects(() => skipNextCharge(ctx, ref, FEB), ChargeInProgressError);
    await assert.rejects(() => cancelGift(ctx, ref, "because"), InvalidGiftChangeError);

    const cancelled = await cancelGift(ctx, ref, "moved-away");
    assert.equal(cancelled.changed, true);
    assert.equal(cancelled.subscription.status, "cancelled");
    assert.equal(cancelled.subscription.cancelReason, "moved-away");
    assert.equal(cancelled.subscription.cancelledAt, ctx.now().toISOString());
    assert.equal((await cancelGift(ctx, ref, null)).changed, false);
    await assert.rejects(() => changeAmount(ctx, ref, 80), GiftEndedError);
    await assert.rejects(() => resumeGift(ctx, ref), GiftEndedError);
    const sent = await messagesOf(store, sub);
    assert.deepEqual(sent.map((m) => [m.kind, m.data]), [["monthly-cancelled", {
      at: ctx.now().toISOString(),
    }]]);
    assert.equal((await store.donors.get(sub.donorId))?.monthlyPaymentAvailable, false);
  }));

Deno.test("billing: a change landing between the due read and the charge's mark wins; nothing charged", () =>
  withGift(async (store, sub, ref) => {
    const { provider, charges } = recordingProvider();
    // A store whose first `get` of the gift is followed, before billing marks it, by a skip.
    let raced = false;
    const subscriptions: Store["subscriptions"] = {
      ...store.subscriptions,
      async get(id: string) {
        const read = await store.subscriptions.get(id);
        if (!raced && id === sub.id) {
          raced = true;
          await skipNextCharge(ctxAt(store, after(FEB, 0.01)), ref, FEB);
        }
        return read;
      },
    };
    const racing: Store = Object.create(store, { subscriptions: { value: subscriptions } });
    assert.equal((await bill(racing, provider, after(FEB, 0.01))).charged, 0);
    assert.deepEqual(charges, []);
    assert.equal((await store.subscriptions.get(sub.id))?.nextPaymentDate, MAR);
    assert.equal((await store.subscriptions.get(sub.id))?.charging, null);
  }));
