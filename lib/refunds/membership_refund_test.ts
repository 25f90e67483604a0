/**
 * A refund of a membership's payment ends the term that payment bought, in the refund's own
 * settlement, on both backends: a full refund of a renewal moves the membership's end back by its
 * term; a full refund of the join of a one-term membership ends the membership (it is gone: not
 * active, no number); a partial refund keeps the term; a failed refund changes nothing.
 */
import assert from "node:assert/strict";
import { levelGiftChange, readMembership } from "@/lib/memberships/mod.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";
import type { Admin, Store, Transaction } from "@/lib/storage/types.ts";
import { txFixture } from "@/tests/storage/fixtures.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { RefundDeclinedError, refundGift } from "./refunds.ts";

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

/** A provider that credits every refund (`"000"`), or refuses every one. */
const provider = (credits = true) =>
  ({
    id: "pelecard",
    displayName: "Pelecard",
    refundsWithoutToken: true,
    refund: () =>
      Promise.resolve(
        credits
          ? { statusCode: "000", providerRef: `credit_${crypto.randomUUID()}`, errorMessage: null }
          : { statusCode: "033", providerRef: "", errorMessage: "refused" },
      ),
  }) as unknown as PaymentProvider;

/** Records a one-time gift of ₪200 at level 3 (12-month term) from `email` at `createdAt`. */
async function giveAtLevel(store: Store, email: string, createdAt: string): Promise<Transaction> {
  const tx = txFixture({
    provider: "pelecard",
    createdAt,
    amount: 20_000,
    currency: 1,
    user: { firstName: "Dana", lastName: "Levi", email },
  });
  const membership = await levelGiftChange({ store }, email, {
    donorId: tx.donorId,
    levelId: 3,
    paidAt: tx.createdAt,
    transactionId: tx.id,
    amount: tx.amount!,
    currency: 1,
    subscriptionId: null,
  });
  await store.transactions.record(tx, { membership });
  return tx;
}

const refund = (store: Store, tx: Transaction, amount = tx.amount!, credits = true) =>
  refundGift({ store, provider: provider(credits), now: () => new Date("2026-06-01T09:00:00.000Z") }, actor, {
    transactionId: tx.id,
    amount,
    reason: "requested-by-donor",
    note: "",
    key: crypto.randomUUID(),
    cancelMonthly: false,
  });

const NOW = new Date("2026-06-01T10:00:00.000Z");

backendTest(
  "refunding a membership's renewal moves its end back a term; refunding the join ends it",
  async (_t, open) => {
    const store = await open();
    const email = "dana@example.org";
    await giveAtLevel(store, email, "2026-03-01T10:00:00.000Z");
    const renewal = await giveAtLevel(store, email, "2026-05-01T10:00:00.000Z");
    assert.equal(
      (await store.memberships.get(email))?.end,
      "2028-03-01T10:00:00.000Z",
      "renewed from the end",
    );

    // A failed refund, then a partial one: the term stays.
    await assert.rejects(refund(store, renewal, renewal.amount!, false), RefundDeclinedError);
    await refund(store, renewal, 5_000);
    assert.equal(
      (await store.memberships.get(email))?.end,
      "2028-03-01T10:00:00.000Z",
      "a partial refund keeps it",
    );

    // The rest of it: the renewal is refunded in full, its term is gone, with the refund's settlement.
    const { refund: settled } = await refund(store, renewal, 15_000);
    assert.equal(settled.state, "succeeded");
    const after = await store.memberships.get(email);
    assert.equal(after?.end, "2027-03-01T10:00:00.000Z", "back by one term");
    assert.deepEqual(after?.terms.map((t) => t.kind), ["join"]);
    assert.equal((await readMembership({ store }, email, NOW))?.state, "active");

    // A one-term membership whose join is refunded in full: no membership, not active.
    const other = "ada@example.org";
    const join = await giveAtLevel(store, other, "2026-05-15T10:00:00.000Z");
    const number = (await store.memberships.get(other))!.number;
    await refund(store, join);
    assert.equal(await readMembership({ store }, other, NOW), null);
    assert.equal(await store.memberships.getByNumber(number), null);
    const ending = await store.memberships.listByEnd(
      { from: "2027-05-01T00:00:00.000Z", to: "2027-06-01T00:00:00.000Z" },
      10,
    );
    assert.deepEqual(ending.map((m) => m.email), []);
    // The refund's audit entry was written in that step too.
    const audit = (await store.audit.list({ action: "refund" }, 100)).filter((e) => e.target === join.id);
    assert.ok(audit.some((e) => e.action === "refund" && e.changes?.state === "succeeded"));
  },
);
