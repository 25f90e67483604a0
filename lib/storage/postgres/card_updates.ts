/**
 * Card-update attempts (the donor portal's "update the card") on PostgreSQL.
 *
 * Table `card_updates` (migration 25), keyed by the attempt's id, with a unique partial index on
 * `(provider, provider_ref)`: the provider's notification names only its own reference, and one
 * reference names one attempt. `setProviderRef` and `finish` are `update ... where status = 'open'`:
 * the row lock makes a racing call wait and re-check, so exactly one moves an attempt; the loser
 * reads the row once to answer it as stored. `listOpen` reads the partial index `card_updates_open`
 * `(created_at, id) where status = 'open'`: the open attempts only; `listBySubscription` (a gift's
 * card-update history) reads `card_updates_subscription` (migration 31).
 *
 * @module
 */

import { batchLimit } from "@/lib/storage/queries.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import { canonicalCardUpdate, checkCardUpdateStatus, checkRef } from "@/lib/storage/card_update_records.ts";
import type { CardUpdate, CardUpdateRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

interface CardUpdateRow {
  id: string;
  subscription_id: string;
  donor_ids: string[];
  provider: string;
  provider_ref: string | null;
  user_key: string;
  confirmation_key: string | null;
  language: string;
  status: CardUpdate["status"];
  status_code: string | null;
  created_at: Date;
  updated_at: Date;
}

const toCardUpdate = (r: CardUpdateRow): CardUpdate => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  donorIds: r.donor_ids,
  provider: r.provider,
  providerRef: r.provider_ref,
  userKey: r.user_key,
  confirmationKey: r.confirmation_key,
  language: r.language,
  status: r.status,
  statusCode: r.status_code,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The {@link CardUpdateRepository} on `card_updates`. */
export function pgCardUpdates({ sql }: PgContext): CardUpdateRepository {
  const get = async (id: string) => {
    const [row] = await sql<CardUpdateRow[]>`select * from card_updates where id = ${id}`;
    return row ? toCardUpdate(row) : null;
  };

  return {
    async create(input) {
      const u = canonicalCardUpdate(input);
      if (u.status !== "open" || u.providerRef !== null) {
        throw new RangeError("a new card update is open and has no provider reference yet");
      }
      await sql`
        insert into card_updates (
          id, subscription_id, donor_ids, provider, provider_ref, user_key, confirmation_key,
          language, status, status_code, created_at, updated_at
        ) values (
          ${u.id}, ${u.subscriptionId}, ${u.donorIds}, ${u.provider}, null, ${u.userKey},
          ${u.confirmationKey}, ${u.language}, 'open', ${u.statusCode}, ${u.createdAt}, ${u.updatedAt}
        )
      `;
    },

    get,

    async getByProviderRef(provider, providerRef) {
      const [row] = await sql<CardUpdateRow[]>`
        select * from card_updates where provider = ${provider} and provider_ref = ${providerRef}
      `;
      return row ? toCardUpdate(row) : null;
    },

    async setProviderRef(id, providerRef, confirmationKey, updatedAt) {
      const ref = checkRef(providerRef, "providerRef");
      const keyOf = confirmationKey === null ? null : checkRef(confirmationKey, "confirmationKey");
      const [row] = await sql<CardUpdateRow[]>`
        update card_updates
        set provider_ref = ${ref}, confirmation_key = ${keyOf}, updated_at = ${
        isoInstant(updatedAt, "updatedAt")
      }
        where id = ${id} and status = 'open' and provider_ref is null
        returning *
      `;
      return row ? toCardUpdate(row) : null;
    },

    async finish(id, status, statusCode, updatedAt) {
      const final = checkCardUpdateStatus(status);
      if (final === "open") throw new RangeError("finish moves an attempt to a final status");
      const code = statusCode === null ? null : checkRef(statusCode, "statusCode");
      const [row] = await sql<CardUpdateRow[]>`
        update card_updates
        set status = ${final}, status_code = ${code}, updated_at = ${isoInstant(updatedAt, "updatedAt")}
        where id = ${id} and status = 'open'
        returning *
      `;
      if (row) return { update: toCardUpdate(row), moved: true };
      const stored = await get(id);
      return stored ? { update: stored, moved: false } : null;
    },

    async listOpen(createdBefore, limit) {
      const rows = await sql<CardUpdateRow[]>`
        select * from card_updates
        where status = 'open' and created_at < ${isoInstant(createdBefore, "createdBefore")}
        order by created_at, id
        limit ${batchLimit(limit)}
      `;
      return rows.map(toCardUpdate);
    },

    async listBySubscription(subscriptionId, limit) {
      const rows = await sql<CardUpdateRow[]>`
        select * from card_updates where subscription_id = ${subscriptionId}
        order by created_at, id
        limit ${batchLimit(limit)}
      `;
      return rows.map(toCardUpdate);
    },
  };
}
