/**
 * Payments on PostgreSQL: one row per donation attempt, from its creation (pending) to its end.
 *
 * Table `payments` (migration 8; `level_id`, the level a gift is at, migration 34; `auto_renew`,
 * the donor's consent to renew a membership automatically, migration 39; `gift`, a gift
 * membership's recipient and delivery, migration 42): keyed by id
 * (`collate "C"`, the byte order Deno KV keeps), amount a `bigint` of minor units, and one column
 * of the store's own, `dedupe_key`, outside the contract:
 * - `createOrReuse` is one call of the `create_or_reuse_payment` function (migration 12), decided
 *   under a transaction-scoped advisory lock on a hash of the dedupe key, all inside PostgreSQL
 *   (no round trip to the app while the lock is held). The payment a repeat may reuse carries the
 *   key in `dedupe_key`, unique where set (`payments_dedupe_key`); a newer payment taking the key
 *   over clears it on the old one;
 * - `getByProviderRef` reads `payments_provider_ref` `(provider, provider_ref)` (migration 8,
 *   partial: only rows with a reference);
 * - `updateIfPending` is `update ... where status = 'pending'`: the row lock makes a racing
 *   finish wait, then find the payment no longer pending;
 * - `listPending` (reconciliation) is a range of `payments_pending_created_at` `(created_at, id)`
 *   (migration 10), partial, so it holds only the few pending payments however many finished.
 *
 * @module
 */

import type postgres from "postgres";
import { batchLimit } from "@/lib/storage/queries.ts";
import { canonicalPayment, checkInteger, isoInstant, paymentChanges } from "@/lib/storage/records.ts";
import type { Payment, PaymentGift, PaymentRepository, Refusal } from "@/lib/storage/types.ts";
import { columnsOf, type PgContext } from "./context.ts";
import { admissionAnswer, admissionArgs } from "./rate_limits.ts";

/** The row shape of `payments` (the `dedupe_key` column is the store's own). */
interface PaymentRow {
  id: string;
  donor_id: string;
  amount: string;
  currency: number;
  is_monthly: boolean;
  language: string;
  channel: Payment["channel"];
  shop_number: string | null;
  provider: string;
  provider_ref: string | null;
  page_url: string | null;
  user_key: string;
  confirmation_key: string | null;
  status: Payment["status"];
  transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
  level_id: number | null;
  auto_renew: boolean;
  gift: PaymentGift | null;
}

const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  donorId: row.donor_id,
  amount: Number(row.amount),
  currency: row.currency as Payment["currency"],
  isMonthly: row.is_monthly,
  language: row.language,
  channel: row.channel,
  shopNumber: row.shop_number,
  provider: row.provider,
  providerRef: row.provider_ref,
  pageUrl: row.page_url,
  userKey: row.user_key,
  confirmationKey: row.confirmation_key,
  status: row.status,
  transactionId: row.transaction_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  ...(row.level_id === null ? {} : { levelId: row.level_id }),
  ...(row.auto_renew ? { autoRenew: true as const } : {}),
  ...(row.gift == null ? {} : { gift: row.gift }),
});

/** A payment's columns, as `create_or_reuse_payment` reads them (`jsonb_populate_record`). */
const paymentColumns = (p: Payment) => ({
  id: p.id,
  donor_id: p.donorId,
  amount: p.amount,
  currency: p.currency,
  is_monthly: p.isMonthly,
  language: p.language,
  channel: p.channel,
  shop_number: p.shopNumber,
  provider: p.provider,
  provider_ref: p.providerRef,
  page_url: p.pageUrl,
  user_key: p.userKey,
  confirmation_key: p.confirmationKey,
  status: p.status,
  transaction_id: p.transactionId,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  level_id: p.levelId ?? null,
  auto_renew: p.autoRenew === true,
  gift: p.gift ?? null,
});

/** A `payments` row as `to_jsonb` gives it: times are text. */
type JsonPaymentRow = Omit<PaymentRow, "created_at" | "updated_at"> & {
  created_at: string;
  updated_at: string;
};

const fromJsonRow = (row: JsonPaymentRow): PaymentRow => ({
  ...row,
  created_at: new Date(row.created_at),
  updated_at: new Date(row.updated_at),
});

/** The columns of `payments.update`'s fields. */
const PAYMENT_COLUMNS = {
  providerRef: "provider_ref",
  pageUrl: "page_url",
  confirmationKey: "confirmation_key",
  status: "status",
  transactionId: "transaction_id",
  updatedAt: "updated_at",
} as const;

/**
 * The {@link PaymentRepository} on `payments`.
 *
 * @example
 * ```ts
 * const { created, payment } = await pgPayments(ctx).createOrReuse(input, key, 60_000, Date.now());
 * ```
 */
export function pgPayments({ sql }: PgContext): PaymentRepository {
  const payments: PaymentRepository = {
    async createOrReuse(input, dedupeKey, windowMs, now) {
      const p = canonicalPayment(input);
      checkInteger(windowMs, "windowMs", 0);
      checkInteger(now, "now");
      // One call (migration 12): the dedupe key's lock, the decision and the insert run inside
      // PostgreSQL, with no round trip to the app while the lock is held.
      const columns = paymentColumns(p);
      const [row] = await sql<PaymentRow[]>`
        select * from create_or_reuse_payment(
          ${sql.json(columns as postgres.JSONValue)}, ${dedupeKey}, ${windowMs}, ${now}
        )
      `;
      return { created: row.id === p.id, payment: toPayment(row) };
    },

    async createOrReuseAdmitted(input, dedupeKey, windowMs, now, admission) {
      const p = canonicalPayment(input);
      checkInteger(windowMs, "windowMs", 0);
      const a = admissionArgs(admission, now);
      // One call, two commits (migration 20): the counts and the origin at once, then the payment.
      const [row] = await sql<
        {
          o_refused: Refusal["reason"] | null;
          o_retry_after_ms: string | null;
          o_payment: JsonPaymentRow | null;
        }[]
      >`
        call payment_create_admitted(
          ${sql.json(paymentColumns(p) as postgres.JSONValue)}, ${dedupeKey}, ${windowMs}, ${now},
          ${a.keys}::text[], ${a.limits}::integer[], ${a.windowMs},
          ${a.capKeys}::text[], ${a.caps}::integer[], ${a.origin}, ${a.originExpiresAt},
          null, null, null
        )
      `;
      const answer = admissionAnswer(row.o_refused, row.o_retry_after_ms);
      if (!answer.admitted) return answer;
      const stored = fromJsonRow(row.o_payment!);
      return { admitted: true, created: stored.id === p.id, payment: toPayment(stored) };
    },

    async get(id) {
      const [row] = await sql<PaymentRow[]>`select * from payments where id = ${id}`;
      return row ? toPayment(row) : null;
    },

    async getByProviderRef(provider, providerRef) {
      // A reference names one payment; were one given to two, the one changed last is answered.
      const [row] = await sql<PaymentRow[]>`
        select * from payments where provider = ${provider} and provider_ref = ${providerRef}
        order by updated_at desc, id desc limit 1
      `;
      return row ? toPayment(row) : null;
    },

    async update(id, input) {
      const set = columnsOf(paymentChanges(input), PAYMENT_COLUMNS);
      if (Object.keys(set).length === 0) return await payments.get(id);
      const [row] = await sql<PaymentRow[]>`update payments set ${sql(set)} where id = ${id} returning *`;
      return row ? toPayment(row) : null;
    },

    async updateIfPending(id, input) {
      const set = columnsOf(paymentChanges(input), PAYMENT_COLUMNS);
      // The row lock makes a concurrent finishing update wait, or this one wait and then find the
      // payment no longer pending.
      const [row] = Object.keys(set).length === 0
        ? await sql<PaymentRow[]>`select * from payments where id = ${id} and status = 'pending'`
        : await sql<PaymentRow[]>`
          update payments set ${sql(set)} where id = ${id} and status = 'pending' returning *
        `;
      return row ? toPayment(row) : null;
    },

    async listPending(range, limit, after) {
      const from = isoInstant(range.from, "from");
      const to = isoInstant(range.to, "to");
      const n = batchLimit(limit);
      // A range of the partial index payments_pending_created_at (migration 10), in its order.
      const rows = after
        ? await sql<PaymentRow[]>`
          select * from payments
          where status = 'pending' and created_at >= ${from} and created_at < ${to}
            and (created_at, id) > (${
          isoInstant(after.createdAt, "after.createdAt")
        }::timestamptz, ${after.id})
          order by created_at, id limit ${n}
        `
        : await sql<PaymentRow[]>`
          select * from payments
          where status = 'pending' and created_at >= ${from} and created_at < ${to}
          order by created_at, id limit ${n}
        `;
      return rows.map(toPayment);
    },
  };
  return payments;
}
