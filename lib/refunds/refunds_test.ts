/**
 * Refunds' domain rules without HTTP (`refunds.ts`), on an in-memory store with a provider stand-in:
 * a provider that cannot be reached leaves the refund pending (it may have gone through: its amount
 * stays reserved, the attempt audited as unconfirmed); a refused one is recorded failed (nothing
 * refunded, the amount free again, audited); only successful gifts of the current provider are refunded; a monthly gift's
 * card token reaches the provider; the sandbox credits only what its payment has left.
 */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import type { Admin, SandboxRecord, Store, Transaction } from "@/lib/storage/types.ts";
import { NoSuchTransactionError } from "@/lib/receipts/errors.ts";
import {
  type PaymentProvider,
  ProviderError,
  type ProviderResult,
  type RefundRequest,
} from "@/lib/providers/provider.ts";
import {
  NotRefundableError,
  RefundDeclinedError,
  refundGift,
  type RefundInput,
  RefundProviderError,
} from "./refunds.ts";
import { sandboxRefund } from "@/lib/providers/sandbox/refund.ts";
import { subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const admin: Admin = {
  id: "admin_1",
  email: "finance@museum.org",
  name: "Finance",
  passwordHash: "x",
  status: "approved",
  role: "finance",
  createdAt: "2026-01-01T00:00:00.000Z",
  decidedBy: null,
  decidedAt: null,
};
const actor = { admin, address: "203.0.113.5" };

/** A successful one-time Pelecard gift of 100.00 NIS. */
const gift = (o: Partial<Transaction> = {}): Transaction => txFixture({ provider: "pelecard", ...o });

/**
 * A provider whose refund does `answer` (crediting a payment by its reference too); every other call
 * is unused here.
 */
function provider(answer: (request: RefundRequest) => Promise<ProviderResult>, calls: RefundRequest[] = []) {
  return {
    id: "pelecard",
    displayName: "Pelecard",
    refundsWithoutToken: true,
    refund: (request: RefundRequest) => {
      calls.push(request);
      return answer(request);
    },
  } as unknown as PaymentProvider;
}

/** The provider's answer to a refund it credited. */
const credited = (r: RefundRequest, providerRef: string): ProviderResult => ({
  providerRef,
  statusCode: "000",
  errorMessage: null,
  amount: r.amount,
  currency: r.currency,
  reference: r.reference,
  token: null,
  resultData: null,
});

const input = (tx: Transaction, o: Partial<RefundInput> = {}): RefundInput => ({
  transactionId: tx.id,
  amount: 4_000,
  reason: "requested-by-donor",
  note: "",
  key: crypto.randomUUID(),
  cancelMonthly: false,
  ...o,
});

async function withStore(fn: (store: Store) => Promise<void>) {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

Deno.test("refundGift: the provider unreachable → kept pending (its amount reserved), audited as unconfirmed", () =>
  withStore(async (store) => {
    const tx = gift();
    await store.transactions.record(tx);
    const down = provider(() =>
      Promise.reject(new ProviderError("Pelecard did not answer in time", "timeout"))
    );
    await assert.rejects(
      () => refundGift({ store, provider: down }, actor, input(tx)),
      (e: unknown) =>
        e instanceof RefundProviderError && /did not confirm the refund.*stays pending/.test(e.message),
    );
    const [refund] = await store.refunds.listByTransaction(tx.id);
    assert.equal(refund.state, "pending", "it may have gone through: not failed");
    assert.deepEqual(
      await store.refunds.totals([tx.id]),
      new Map([[tx.id, { refunded: 0, pending: 4_000 }]]),
    );
    const [entry] = await store.audit.list({ action: "refund" }, 10);
    assert.deepEqual([entry.target, entry.actorId, entry.address, entry.changes.state, entry.changes.error], [
      tx.id,
      "admin_1",
      "203.0.113.5",
      "unconfirmed",
      "Pelecard did not answer in time",
    ]);
    assert.equal(await store.outbox.get(`refund:${refund.id}`), null, "no email");
    // Only what is not reserved may be refunded meanwhile: never twice the same money.
    const up = provider((r) => Promise.resolve(credited(r, "credit_1")));
    await assert.rejects(
      () => refundGift({ store, provider: up }, actor, input(tx, { amount: 10_000 })),
      /larger than what remains/,
    );
    const { refund: ok } = await refundGift({ store, provider: up }, actor, input(tx, { amount: 6_000 }));
    assert.equal(ok.state, "succeeded");
  }));

Deno.test("refundGift: refused by the provider → RefundDeclinedError; wrong gifts refused before any call", () =>
  withStore(async (store) => {
    const calls: RefundRequest[] = [];
    const refusing = provider(() => Promise.reject(new ProviderError("no token", "refused")), calls);
    const tx = gift();
    await store.transactions.record(tx);
    await assert.rejects(
      () => refundGift({ store, provider: refusing }, actor, input(tx)),
      RefundDeclinedError,
    );
    assert.equal((await store.refunds.listByTransaction(tx.id))[0].state, "failed");

    const failed = gift({ kind: "error", statusCode: "033", resultData: null });
    const other = gift({ provider: "sandbox" });
    await store.transactions.record(failed);
    await store.transactions.record(other);
    const before = calls.length;
    await assert.rejects(
      () => refundGift({ store, provider: refusing }, actor, input(failed)),
      NotRefundableError,
    );
    await assert.rejects(
      () => refundGift({ store, provider: refusing }, actor, input(other)),
      /paid through sandbox/,
    );
    await assert.rejects(
      () => refundGift({ store, provider: refusing }, actor, input(gift())),
      NoSuchTransactionError,
    );
    assert.equal(calls.length, before, "the provider was not called");
  }));

Deno.test("refundGift: a monthly gift's card token reaches the provider", () =>
  withStore(async (store) => {
    const calls: RefundRequest[] = [];
    const ok = provider((r) => Promise.resolve(credited(r, "credit_2")), calls);
    const tx = gift({ isMonthly: true, donorId: "donor_m" });
    await store.transactions.record(tx);
    await store.subscriptions.create(subscriptionFixture({
      id: "sub_1",
      donorId: "donor_m",
      amount: 10_000,
      currency: 1,
      provider: "pelecard",
      token: "5550001111",
    }));
    await refundGift({ store, provider: ok }, actor, input(tx));
    assert.equal(calls[0].token, "5550001111");
    assert.equal(calls[0].providerRef, tx.providerTransactionId);
    assert.equal((await store.subscriptions.get("sub_1"))?.status, "active", "the gift keeps running");
  }));

Deno.test("sandboxRefund: credits a paid payment up to what it has left; refuses anything else", () =>
  withStore(async (store) => {
    const now = new Date().toISOString();
    const ref = "sandboxPayment0001";
    await store.sandbox.create({
      ref,
      kind: "hosted",
      status: "paid",
      reference: "pay_1",
      terminalId: null,
      amount: 5_000,
      currency: 1,
      createdAt: now,
      updatedAt: now,
      data: { resultData: { CreditCardNumber: "458045******4580" } },
    });
    const refund = (amount: number, currency: 1 | 2 = 1) =>
      sandboxRefund(store, {
        providerRef: ref,
        token: null,
        amount,
        currency,
        reference: crypto.randomUUID(),
      });
    assert.equal((await refund(3_000)).statusCode, "000");
    assert.equal((await refund(2_001)).statusCode, "205", "more than what is left");
    assert.equal((await refund(100, 2)).statusCode, "065", "another currency");
    assert.equal((await refund(2_000)).statusCode, "000");
    assert.equal((await refund(1)).statusCode, "205");
    await assert.rejects(
      () =>
        sandboxRefund(store, { providerRef: "nope", token: null, amount: 1, currency: 1, reference: "r" }),
      ProviderError,
    );
  }));

/** A provider stand-in that credits every refund ("000"), recording each request. */
const crediting = (calls: RefundRequest[], o: Partial<PaymentProvider> = {}) =>
  ({
    ...provider((r) => Promise.resolve(credited(r, `credit_${calls.length}`)), calls),
    refundsWithoutToken: false,
    ...o,
  }) as PaymentProvider;

/** A monthly Pelecard gift whose card the donor replaced (an applied card update): now on `tok_new`. */
async function replacedCard(store: Store, donorId: string) {
  const sub = subscriptionFixture({
    donorId,
    provider: "pelecard",
    amount: 10_000,
    currency: 1,
    token: "tok_new",
  });
  await store.subscriptions.create(sub);
  await store.cardUpdates.create({
    id: `cu_${donorId}`,
    subscriptionId: sub.id,
    donorIds: [donorId],
    provider: "pelecard",
    providerRef: null,
    userKey: "key",
    confirmationKey: null,
    language: "en",
    status: "open",
    statusCode: null,
    createdAt: "2026-02-01T00:00:00.000Z",
    updatedAt: "2026-02-01T00:00:00.000Z",
  });
  await store.cardUpdates.finish(`cu_${donorId}`, "applied", "000", "2026-02-01T00:05:00.000Z");
  return sub;
}

Deno.test("refundGift: after a card update, an earlier charge is credited to the card that paid it", () =>
  withStore(async (store) => {
    // Issue 23: a donor (or a fraudster with a stolen card) swaps the card, then asks for a refund
    // of a charge made before: the money goes back to the first card, never to the new one.
    const calls: RefundRequest[] = [];
    await replacedCard(store, "donor_swap");
    const before = gift({ isMonthly: true, donorId: "donor_swap", cardToken: "tok_first" });
    const after = gift({ isMonthly: true, donorId: "donor_swap", cardToken: "tok_new" });
    await store.transactions.record(before);
    await store.transactions.record(after);
    await refundGift({ store, provider: crediting(calls) }, actor, input(before));
    await refundGift({ store, provider: crediting(calls) }, actor, input(after));
    assert.deepEqual(calls.map((c) => [c.providerRef, c.token]), [
      [before.providerTransactionId, "tok_first"],
      [after.providerTransactionId, "tok_new"],
    ]);
  }));

Deno.test("refundGift: a monthly charge recorded without its token is refunded only where the token is sure", () =>
  withStore(async (store) => {
    const calls: RefundRequest[] = [];
    // Its gift's card was replaced since: which card paid is unknown. Refused, nothing recorded.
    await replacedCard(store, "donor_old");
    const old = gift({ isMonthly: true, donorId: "donor_old" });
    await store.transactions.record(old);
    await assert.rejects(
      () => refundGift({ store, provider: crediting(calls) }, actor, input(old)),
      (e: unknown) => e instanceof NotRefundableError && /back office/.test(e.message),
    );
    assert.deepEqual(calls, [], "the provider was not asked");
    assert.deepEqual(await store.refunds.listByTransaction(old.id), [], "nothing recorded");
    // Two gifts on different cards: which one charged it is unknown too.
    for (const token of ["tok_a", "tok_b"]) {
      await store.subscriptions.create(
        subscriptionFixture({ donorId: "donor_two", provider: "pelecard", token }),
      );
    }
    const two = gift({ isMonthly: true, donorId: "donor_two" });
    await store.transactions.record(two);
    await assert.rejects(
      () => refundGift({ store, provider: crediting(calls) }, actor, input(two)),
      /back office/,
    );
    assert.deepEqual(calls, []);
  }));

Deno.test("refundGift: a gift paid without a token is refused before anything is recorded where the provider needs one", () =>
  withStore(async (store) => {
    const calls: RefundRequest[] = [];
    const once = gift();
    await store.transactions.record(once);
    // Pelecard credits only through a token: its back office refunds a one-time gift.
    await assert.rejects(
      () => refundGift({ store, provider: crediting(calls) }, actor, input(once)),
      (e: unknown) =>
        e instanceof NotRefundableError && /refund it in Pelecard's back office/.test(e.message),
    );
    assert.deepEqual(await store.refunds.listByTransaction(once.id), []);
    // A provider that credits a payment by its own reference (the sandbox) gets no token.
    await refundGift(
      { store, provider: crediting(calls, { refundsWithoutToken: true }) },
      actor,
      input(once),
    );
    assert.deepEqual(calls.map((c) => c.token), [null]);
  }));

Deno.test("sandboxRefund: credits through the token it is given, to that token's card; an unknown token is declined", () =>
  withStore(async (store) => {
    const now = new Date().toISOString();
    const record = (o: Partial<SandboxRecord>): SandboxRecord => ({
      ref: crypto.randomUUID(),
      kind: "charge",
      status: "paid",
      reference: "ref",
      terminalId: null,
      amount: 5_000,
      currency: 1,
      createdAt: now,
      updatedAt: now,
      data: {},
      ...o,
    });
    const paid = record({ data: { resultData: { CreditCardNumber: "458012******9015" } } });
    const first = record({
      kind: "token",
      status: "active",
      data: { card: "4444444444449015", cardMasked: "458012******9015" },
    });
    const second = record({
      kind: "token",
      status: "active",
      data: { card: "4444444444441111", cardMasked: "411111******1111" },
    });
    for (const r of [paid, first, second]) await store.sandbox.create(r);
    const refund = (token: string | null, reference: string) =>
      sandboxRefund(store, { providerRef: paid.ref, token, amount: 1_000, currency: 1, reference });
    assert.equal((await refund(second.ref, "r_second")).statusCode, "000");
    const credited = (await store.sandbox.findByReference("r_second"))!;
    assert.equal(credited.data.creditedCard, "411111******1111", "the card of the token given");
    assert.equal(credited.data.token, second.ref);
    await refund(null, "r_payment");
    assert.equal((await store.sandbox.findByReference("r_payment"))!.data.creditedCard, "458012******9015");
    assert.equal((await refund("tok_nobody", "r_unknown")).statusCode, "506", "no such token");
  }));
