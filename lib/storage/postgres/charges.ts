/**
 * Subscription charges on PostgreSQL: the record that makes billing charge a period at most once.
 *
 * Table `charges` (migration 8; `token`, the card token the charge is sent with, migration 31): one
 * row per subscription, period and attempt, its primary key
 * `(subscription_id, period, attempt)`. `claim` inserts on that key with `on conflict do nothing`,
 * so of any number of billing runs exactly one gets true and charges the card; `finish` records
 * the outcome. `listStale` reads `charges_started` (migration 8), a partial index of the charges
 * still started, oldest first, to find runs that stopped between the claim and the finish.
 *
 * @module
 */

import { canonicalCharge, chargeResult, checkInteger, isoInstant } from "@/lib/storage/records.ts";
import type { Charge, ChargeRepository } from "@/lib/storage/types.ts";
import { iso, type PgContext } from "./context.ts";

/** The row shape of `charges`. */
interface ChargeRow {
  subscription_id: string;
  period: Date;
  attempt: number;
  status: Charge["status"];
  reference: string;
  started_at: Date;
  finished_at: Date | null;
  transaction_id: string | null;
  token: string | null;
}

const toCharge = (row: ChargeRow): Charge => ({
  subscriptionId: row.subscription_id,
  period: row.period.toISOString(),
  attempt: row.attempt,
  status: row.status,
  reference: row.reference,
  startedAt: row.started_at.toISOString(),
  finishedAt: iso(row.finished_at),
  transactionId: row.transaction_id,
  ...(row.token === null ? {} : { token: row.token }),
});

/**
 * The {@link ChargeRepository} on `charges`.
 *
 * @example
 * ```ts
 * if (await pgCharges(ctx).claim(charge)) {
 *   // this run, and no other, charges the card for the period
 * }
 * ```
 */
export function pgCharges({ sql }: PgContext): ChargeRepository {
  return {
    async claim(input) {
      const c = canonicalCharge(input);
      const rows = await sql`
        insert into charges (
          subscription_id, period, attempt, status, reference, started_at, finished_at, transaction_id, token
        ) values (
          ${c.subscriptionId}, ${c.period}, ${c.attempt}, ${c.status}, ${c.reference}, ${c.startedAt},
          ${c.finishedAt}, ${c.transactionId}, ${c.token ?? null}
        )
        on conflict (subscription_id, period, attempt) do nothing
        returning attempt
      `;
      return rows.length === 1;
    },

    async get(subscriptionId, period, attempt) {
      const [row] = await sql<ChargeRow[]>`
        select * from charges
        where subscription_id = ${subscriptionId} and period = ${isoInstant(period, "period")}
          and attempt = ${checkInteger(attempt, "attempt")}
      `;
      return row ? toCharge(row) : null;
    },

    async finish(subscriptionId, period, attempt, input) {
      const r = chargeResult(input);
      await sql`
        update charges
        set status = ${r.status}, finished_at = ${r.finishedAt}, transaction_id = ${r.transactionId}
        where subscription_id = ${subscriptionId} and period = ${isoInstant(period, "period")}
          and attempt = ${checkInteger(attempt, "attempt")}
      `;
    },

    async listStale(before, limit) {
      checkInteger(limit, "limit", 1);
      const rows = await sql<ChargeRow[]>`
        select * from charges
        where status = 'started' and started_at < ${isoInstant(before, "before")}
        order by started_at, subscription_id, period, attempt
        limit ${limit}
      `;
      return rows.map(toCharge);
    },
  };
}
