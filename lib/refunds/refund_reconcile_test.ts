/**
 * Refunds' reconciliation (`refund_reconcile.ts`) on the sandbox: a refund the provider credited but
 * whose answer was lost is recorded as succeeded by the pass, once, with the donor's email and an
 * audit entry; one that never reached the provider is asked again until the cutoff, then closed as
 * failed and its amount freed; a provider that cannot look refunds up, or cannot be reached, leaves
 * the refund pending and reserved.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Admin, Store, Transaction } from "@/lib/storage/types.ts";
import { type PaymentProvider, ProviderError } from "@/lib/providers/provider.ts";
import {
  reconcileRefunds,
  REFUND_RECONCILE_CUTOFF_MS,
  REFUND_RECONCILE_GRACE_MS,
  type RefundReconcileReport,
} from "./refund_reconcile.ts";
import { refundGift, RefundProviderError } from "./refunds.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { txFixture } from "@/tests/storage/fixtures.ts";

const NOW = new Date("2026-03-12T09:00:00.000Z");
const later = (ms: number) => () => new Date(NOW.getTime() + ms);
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
const NONE: RefundReconcileReport = { succeeded: 0, failed: 0, pending: 0 };

/** A paid sandbox gift of 100.00 ILS, and the sandbox provider with logs kept in `logs`. */
async function withPaidGift(
  fn: (ctx: { store: Store; sandbox: PaymentProvider; tx: Transaction; logs: string[] }) => Promise<void>,
) {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const sandbox = createSandboxProvider({
      store,
      origin: "http://museum.test",
      secret: "s".repeat(32),
      terminalMode: "manual",
    });
    const ref = `sbx_${crypto.randomUUID()}`;
    await store.sandbox.create({
      ref,
      kind: "hosted",
      status: "paid",
      reference: `pay_${crypto.randomUUID()}`,
      terminalId: null,
      amount: 10_000,
      currency: 1,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      data: {},
    });
    const tx = txFixture({ createdAt: NOW.toISOString(), provider: "sandbox", providerTransactionId: ref });
    await store.transactions.record(tx);
    await fn({ store, sandbox, tx, logs: [] });
  } finally {
    await store.close();
  }
}

/** Asks a refund of `amount` through `provider`, whose answer does not come back clearly. */
async function unconfirmedRefund(store: Store, provider: PaymentProvider, tx: Transaction, amount: number) {
  await assert.rejects(
    () =>
      refundGift({ store, provider, now: () => NOW }, { admin, address: "203.0.113.5" }, {
        transactionId: tx.id,
        amount,
        reason: "mistake",
        note: "",
        key: crypto.randomUUID(),
        cancelMonthly: false,
      }),
    RefundProviderError,
  );
  const [refund] = (await store.refunds.listByTransaction(tx.id)).filter((r) => r.state === "pending");
  return refund;
}

const pass = (store: Store, provider: PaymentProvider, ms: number, logs: string[] = []) =>
  reconcileRefunds({ store, provider, log: createLogger((line) => logs.push(line)), now: later(ms) });

Deno.test("refund reconciliation: credited but the answer lost → succeeded once, with the donor's email", async () => {
  await withPaidGift(async ({ store, sandbox, tx }) => {
    const lostAnswer: PaymentProvider = {
      ...sandbox,
      refund: async (request) => {
        await sandbox.refund(request); // the card is credited…
        throw new ProviderError("the answer timed out", "timeout"); // …and nobody hears of it
      },
    };
    const refund = await unconfirmedRefund(store, lostAnswer, tx, 2_500);
    assert.deepEqual(await pass(store, sandbox, REFUND_RECONCILE_GRACE_MS - 1_000), NONE, "not yet asked");
    assert.deepEqual(await pass(store, sandbox, REFUND_RECONCILE_GRACE_MS + 1_000), {
      ...NONE,
      succeeded: 1,
    });
    const settled = (await store.refunds.get(tx.id, refund.id))!;
    assert.equal(settled.state, "succeeded");
    assert.ok(settled.providerRef);
    assert.equal(
      settled.settledAt,
      new Date(NOW.getTime() + REFUND_RECONCILE_GRACE_MS + 1_000).toISOString(),
    );
    assert.deepEqual(
      await store.refunds.totals([tx.id]),
      new Map([[tx.id, { refunded: 2_500, pending: 0 }]]),
    );
    assert.equal((await store.outbox.get(`refund:${refund.id}`))?.kind, "refund");
    const entries = await store.audit.list({ action: "refund" }, 10);
    assert.deepEqual(entries.map((e) => [e.actorId, e.changes.state, e.changes.reconciled ?? false]), [
      ["admin_1", "succeeded", true],
      ["admin_1", "unconfirmed", false],
    ]);
    // Once: the next pass finds nothing pending.
    assert.deepEqual(await pass(store, sandbox, REFUND_RECONCILE_GRACE_MS + 60_000), NONE);
    assert.equal((await store.audit.list({ action: "refund" }, 10)).length, 2);
  });
});

Deno.test("refund reconciliation: never reached the provider → asked until the cutoff, then failed and freed", async () => {
  await withPaidGift(async ({ store, sandbox, tx }) => {
    const unreachable: PaymentProvider = {
      ...sandbox,
      refund: () => Promise.reject(new ProviderError("connection reset", "unreachable")),
    };
    const refund = await unconfirmedRefund(store, unreachable, tx, 10_000);
    assert.deepEqual(await pass(store, sandbox, REFUND_RECONCILE_GRACE_MS + 1_000), { ...NONE, pending: 1 });
    assert.equal((await store.refunds.get(tx.id, refund.id))!.state, "pending");
    assert.deepEqual(await pass(store, sandbox, REFUND_RECONCILE_CUTOFF_MS + 1_000), { ...NONE, failed: 1 });
    const failed = (await store.refunds.get(tx.id, refund.id))!;
    assert.equal(failed.state, "failed");
    assert.match(failed.error!, /never reached/);
    assert.deepEqual(await store.refunds.totals([tx.id]), new Map(), "the amount is free again");
    assert.equal(await store.outbox.get(`refund:${refund.id}`), null, "no email");
  });
});

Deno.test("refund reconciliation: no lookup at the provider, or the provider down → left pending and reserved", async () => {
  await withPaidGift(async ({ store, sandbox, tx }) => {
    const unreachable: PaymentProvider = {
      ...sandbox,
      refund: () => Promise.reject(new ProviderError("connection reset", "unreachable")),
    };
    const refund = await unconfirmedRefund(store, unreachable, tx, 1_000);
    const { lookupCharge: _, ...noLookup } = sandbox;
    const logs: string[] = [];
    assert.deepEqual(await pass(store, noLookup, REFUND_RECONCILE_CUTOFF_MS + 1_000, logs), {
      ...NONE,
      pending: 1,
    });
    assert.ok(
      logs.some((l) => l.includes("check it in the payment provider's back office") && l.includes(refund.id)),
    );
    const down: PaymentProvider = {
      ...sandbox,
      lookupCharge: () => Promise.reject(new ProviderError("down", "unreachable")),
    };
    assert.deepEqual(await pass(store, down, REFUND_RECONCILE_CUTOFF_MS + 1_000), { ...NONE, pending: 1 });
    assert.equal((await store.refunds.get(tx.id, refund.id))!.state, "pending");
    assert.deepEqual(
      await store.refunds.totals([tx.id]),
      new Map([[tx.id, { refunded: 0, pending: 1_000 }]]),
    );
  });
});
