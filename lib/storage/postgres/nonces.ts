/**
 * Signature nonces on PostgreSQL: a nonce is claimed once until it expires, on every instance.
 *
 * Table `nonces` (migration 5): one row per nonce, keyed by the nonce, with `expires_at` in epoch
 * milliseconds (a `bigint`), indexed by `expires_at` (migration 5) so expired rows are found
 * without reading live ones.
 *
 * `claim` is one `insert ... on conflict do update ... where` the claim there expired, outside a
 * transaction: a new nonce is inserted, an expired claim taken over, a live one left alone (and
 * the call answers false). Beside it, expired rows of other nonces are swept a few at a time
 * (`for update skip locked`), so the table stays small without a scheduled job.
 *
 * @module
 */

import { batchLimit } from "@/lib/storage/queries.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { NonceRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

/**
 * The {@link NonceRepository} on `nonces`.
 *
 * @example
 * ```ts
 * const fresh = await pgNonces(ctx).claim(nonce, Date.now() + 5 * 60_000); // false on a replay
 * ```
 */
export function pgNonces({ sql }: PgContext): NonceRepository {
  const nonces: NonceRepository = {
    async claim(nonce, expiresAt) {
      checkInteger(expiresAt, "expiresAt");
      const now = Date.now();
      // One statement, outside a transaction: a new nonce is inserted, an expired claim of it is
      // taken over, a live one stays (nothing returned). A concurrent claimer of the same nonce
      // waits on the row, then finds it live. Beside it, housekeeping: the retention sweep's own
      // batch delete, a few expired nonces at a time, skipping rows someone else holds (no
      // waiting, no deadlocks; were it to take this nonce's expired row, the insert goes ahead).
      const [claimed] = await Promise.all([
        sql`
          insert into nonces (nonce, expires_at) values (${nonce}, ${expiresAt})
          on conflict (nonce) do update set expires_at = excluded.expires_at where nonces.expires_at <= ${now}
          returning nonce
        `,
        nonces.deleteExpired(now, 100),
      ]);
      return claimed.length === 1;
    },

    async deleteExpired(now, limit) {
      const result = await sql`
        delete from nonces where nonce in (
          select nonce from nonces where expires_at <= ${checkInteger(now, "now")}
          order by expires_at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },
  };
  return nonces;
}
