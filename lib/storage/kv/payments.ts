/**
 * Payments on Deno KV: one per attempt to pay, from creation until the provider's answer.
 *
 * | key                                           | value                        | written by            |
 * |-----------------------------------------------|------------------------------|-----------------------|
 * | `["payments", id]`                            | Payment                      | createOrReuse, update |
 * | `["payments_dedupe", dedupeKey]`              | `{ id, createdAt }`; expires | createOrReuse         |
 * | `["payments_by_provider_ref", provider, ref]` | payment id                   | createOrReuse, update |
 * | `["payments_pending", createdAt, id]`         | payment id                   | every write           |
 * | `["payments_by_donor", donorId, id]`          | payment id                   | createOrReuse         |
 *
 * - `createOrReuse` reads the dedupe key and the id, and either answers the payment the key names
 *   (created less than `windowMs` before `now` and still pending) or commits the new payment
 *   together with the key pointing to it, checking both as read: of two identical requests at
 *   once one commits, the other re-reads and reuses it. The dedupe key is written with `expireIn`
 *   past its window, so KV deletes it itself.
 * - `update` moves the provider-reference key with `providerRef` (the old one only while it names
 *   this payment), checked against the payment as read.
 * - `payments_pending` holds exactly the pending payments by creation time (every write of a
 *   payment moves it in the same commit), so `listPending` (reconciliation) is one range read.
 *   Stores written before it existed get it from the `time-indexes` data migration.
 * - `payments_by_donor` (issue 23) tells whether any payment names a donor, so `donors.deleteUnused`
 *   never deletes a record a payment may still record a gift for; a payment's donor never changes.
 *   Stores written before it existed get it from the `payments-donor-index` data migration.
 *
 * @module
 */

import { commit, EXPIRY_GRACE_MS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { canonicalPayment, checkInteger, isoInstant, paymentChanges } from "@/lib/storage/records.ts";
import type { Payment, PaymentRepository } from "@/lib/storage/types.ts";

/** The first key part of every payment, by id. */
export const PAYMENTS = "payments";
/** The key a repeated request reuses its payment by, while the window lasts. */
const PAYMENTS_DEDUPE = "payments_dedupe";
/** The provider's reference to payment id. */
const PAYMENTS_BY_PROVIDER_REF = "payments_by_provider_ref";
/** The time index of pending payments by creation time, for reconciliation. */
const PAYMENTS_PENDING = "payments_pending";
/** The index of payments by donor (issue 23). */
export const PAYMENTS_BY_DONOR = "payments_by_donor";

/** The `["payments_by_donor", donorId, id]` key of a payment. */
export const paymentDonorKey = (p: Payment): Deno.KvKey => [PAYMENTS_BY_DONOR, p.donorId, p.id];

/** The stored value of a `["payments_dedupe", dedupeKey]` key: the payment a repeat may reuse. */
interface PaymentDedupeValue {
  id: string;
  /** The payment's `createdAt`: the window is counted from it. */
  createdAt: string;
}

/** The `["payments_pending", createdAt, id]` key of a pending payment; null once it finished. */
export function pendingKey(p: Payment): Deno.KvKey | null {
  return p.status === "pending" ? [PAYMENTS_PENDING, p.createdAt, p.id] : null;
}

const providerRefKey = (p: Payment): Deno.KvKey | null =>
  p.providerRef === null ? null : [PAYMENTS_BY_PROVIDER_REF, p.provider, p.providerRef];

const getPayment = async ({ kv }: KvContext, id: string) =>
  (await retryWhileLocked(() => kv.get<Payment>([PAYMENTS, id]))).value;

/** `payments.createOrReuse`: the new payment and its keys in one commit, or the one a repeat reuses. */
async function createOrReuse(
  ctx: KvContext,
  input: Payment,
  dedupeKey: string,
  windowMs: number,
  now: number,
): Promise<{ created: boolean; payment: Payment }> {
  const { kv } = ctx;
  const payment = canonicalPayment(input);
  checkInteger(windowMs, "windowMs", 0);
  checkInteger(now, "now");
  const idKey = [PAYMENTS, payment.id];
  const dedupe = [PAYMENTS_DEDUPE, dedupeKey];
  return await untilCommitted(async () => {
    const [byKey, byId] = await retryWhileLocked(() =>
      kv.getMany<[PaymentDedupeValue, Payment]>([dedupe, idKey])
    );
    if (byId.value !== null) throw new Error(`a payment with the id ${payment.id} exists`);
    if (byKey.value !== null && now - Date.parse(byKey.value.createdAt) < windowMs) {
      const existing = await getPayment(ctx, byKey.value.id);
      if (existing?.status === "pending") return { created: false, payment: existing };
    }
    // No key, or its payment is too old or finished: this payment takes the key over. The
    // key is useless once the window has passed; KV may then collect it.
    const value: PaymentDedupeValue = { id: payment.id, createdAt: payment.createdAt };
    const ok = await commit(() => {
      const op = kv.atomic().check(byKey, byId).set(idKey, payment).set(dedupe, value, {
        expireIn: windowMs + EXPIRY_GRACE_MS,
      }).set(paymentDonorKey(payment), payment.id);
      if (payment.providerRef !== null) op.set(providerRefKey(payment)!, payment.id);
      const pending = pendingKey(payment);
      if (pending) op.set(pending, payment.id);
      return op;
    });
    return ok ? { created: true, payment } : RETRY;
  });
}

/**
 * `payments.update` (and, with `onlyIfPending`, `updateIfPending`): one commit checked against
 * the payment as read, moving its provider-reference and pending index keys with it.
 */
async function writePayment(
  { kv }: KvContext,
  id: string,
  input: Parameters<PaymentRepository["update"]>[1],
  onlyIfPending: boolean,
): Promise<Payment | null> {
  const changes = paymentChanges(input);
  const idKey = [PAYMENTS, id];
  return await untilCommitted(async () => {
    const entry = await retryWhileLocked(() => kv.get<Payment>(idKey));
    if (entry.value === null) return null;
    const before = entry.value;
    if (onlyIfPending && before.status !== "pending") return null;
    const after: Payment = { ...before, ...changes };
    const oldKey = providerRefKey(before);
    const newKey = providerRefKey(after);
    const moved = before.providerRef !== after.providerRef;
    // The old index key goes only while it still names this payment (another payment may have
    // been given the same reference since).
    const old = moved && oldKey ? await retryWhileLocked(() => kv.get<string>(oldKey)) : null;
    const ok = await commit(() => {
      const op = kv.atomic().check(entry).set(idKey, after);
      if (old && old.value === id) op.check(old).delete(old.key);
      if (moved && newKey) op.set(newKey, id);
      const [wasPending, isPending] = [pendingKey(before), pendingKey(after)];
      if (wasPending && !isPending) op.delete(wasPending);
      if (isPending && !wasPending) op.set(isPending, id);
      return op;
    });
    return ok ? after : RETRY;
  });
}

/** `payments.listPending`: one range read of the pending index, after the cursor. */
async function listPending(
  ctx: KvContext,
  range: { from: string; to: string },
  limit: number,
  after?: Pick<Payment, "createdAt" | "id"> | null,
): Promise<Payment[]> {
  const { kv } = ctx;
  const from = isoInstant(range.from, "from");
  const to = isoInstant(range.to, "to");
  const n = batchLimit(limit);
  const cursor = after ? [isoInstant(after.createdAt, "after.createdAt"), after.id] as const : null;
  // From the later of `from` and the cursor (the cursor's own key is skipped).
  const start: Deno.KvKey = cursor && cursor[0] >= from
    ? [PAYMENTS_PENDING, cursor[0], cursor[1]]
    : [PAYMENTS_PENDING, from];
  if (from >= to) return [];
  const ids = await retryWhileLocked(async () => {
    const out: string[] = [];
    const selector = { start, end: [PAYMENTS_PENDING, to] };
    for await (
      const entry of kv.list<string>(selector, { limit: n + 1, batchSize: Math.min(n + 1, 500) })
    ) {
      if (cursor && entry.key[1] === cursor[0] && entry.key[2] === cursor[1]) continue;
      out.push(entry.value);
      if (out.length === n) break;
    }
    return out;
  });
  // The index is written with every status change; checked anyway, as it costs nothing.
  return (await ctx.getAll<Payment>(ids.map((id) => [PAYMENTS, id])))
    .map((entry) => entry.value)
    .filter((p): p is Payment => p !== null && p.status === "pending");
}

/** The {@link PaymentRepository} of the store on `ctx`. */
export function kvPayments(ctx: KvContext): Omit<PaymentRepository, "createOrReuseAdmitted"> {
  const { kv } = ctx;
  return {
    createOrReuse: (input, dedupeKey, windowMs, now) => createOrReuse(ctx, input, dedupeKey, windowMs, now),

    get: (id) => getPayment(ctx, id),

    async getByProviderRef(provider, providerRef) {
      const id =
        (await retryWhileLocked(() => kv.get<string>([PAYMENTS_BY_PROVIDER_REF, provider, providerRef])))
          .value;
      if (id === null) return null;
      const payment = await getPayment(ctx, id);
      // The index is kept in step by update(); checked anyway, as it costs nothing.
      return payment?.provider === provider && payment.providerRef === providerRef ? payment : null;
    },

    update: (id, input) => writePayment(ctx, id, input, false),

    updateIfPending: (id, input) => writePayment(ctx, id, input, true),

    listPending: (range, limit, after) => listPending(ctx, range, limit, after),
  };
}
