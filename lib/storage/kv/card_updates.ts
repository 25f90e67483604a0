/**
 * Card-update attempts (the donor portal's "update the card") on Deno KV.
 *
 * | key                                               | value       | written by                   |
 * |---------------------------------------------------|-------------|------------------------------|
 * | `["card_updates", id]`                            | CardUpdate  | create, setProviderRef, finish |
 * | `["card_updates_by_provider_ref", provider, ref]` | attempt id  | setProviderRef               |
 * | `["card_updates_open", createdAt, id]`            | attempt id  | create (set), finish (delete) |
 * | `["card_updates_by_subscription", subscriptionId, createdAt, id]` | attempt id | create     |
 *
 * The provider-ref index is how the provider's notification (which names only its own reference)
 * finds the attempt; it is written in the same commit as the reference itself, checked as absent,
 * so one reference names one attempt. `setProviderRef` and `finish` commit over the record's
 * versionstamp: of racing calls exactly one moves an attempt, the others re-read and find it moved.
 * The open index holds exactly the open attempts (written with the record, deleted by the commit that
 * finishes it), so reconciliation reads the open ones only, oldest first. The index by gift is a
 * gift's card-update history (issue 23: whether its card was ever replaced), written with the
 * record; stores written before it get it from the `card-update-history` data migration.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import { canonicalCardUpdate, checkCardUpdateStatus, checkRef } from "@/lib/storage/card_update_records.ts";
import type { CardUpdate, CardUpdateRepository } from "@/lib/storage/types.ts";

/** `["card_updates", id]`: each attempt. */
export const CARD_UPDATES = "card_updates";
const BY_PROVIDER_REF = "card_updates_by_provider_ref";
const OPEN = "card_updates_open";
/** `["card_updates_by_subscription", subscriptionId, createdAt, id]`: a gift's attempts, oldest first. */
const BY_SUBSCRIPTION = "card_updates_by_subscription";

/** An attempt's key in the index by gift (written with it; the data migration writes the same). */
export const bySubscriptionKey = (
  u: CardUpdate,
): Deno.KvKey => [BY_SUBSCRIPTION, u.subscriptionId, u.createdAt, u.id];

/** The {@link CardUpdateRepository} of the store on `ctx`. */
export function kvCardUpdates({ kv }: KvContext): CardUpdateRepository {
  const read = (id: string) => retryWhileLocked(() => kv.get<CardUpdate>([CARD_UPDATES, id]));

  return {
    async create(input) {
      const u = canonicalCardUpdate(input);
      if (u.status !== "open" || u.providerRef !== null) {
        throw new RangeError("a new card update is open and has no provider reference yet");
      }
      const key = [CARD_UPDATES, u.id];
      const ok = await commit(() =>
        kv.atomic().check({ key, versionstamp: null }).set(key, u).set([OPEN, u.createdAt, u.id], u.id)
          .set(bySubscriptionKey(u), u.id)
      );
      if (!ok) throw new Error("a card update with this id exists");
    },

    async get(id) {
      return (await read(id)).value;
    },

    async getByProviderRef(provider, providerRef) {
      const entry = await retryWhileLocked(() => kv.get<string>([BY_PROVIDER_REF, provider, providerRef]));
      return entry.value === null ? null : (await read(entry.value)).value;
    },

    async setProviderRef(id, providerRef, confirmationKey, updatedAt) {
      const ref = checkRef(providerRef, "providerRef");
      const keyOf = confirmationKey === null ? null : checkRef(confirmationKey, "confirmationKey");
      const at = isoInstant(updatedAt, "updatedAt");
      return await untilCommitted(async () => {
        const entry = await read(id);
        const u = entry.value;
        if (u === null || u.status !== "open" || u.providerRef !== null) return null;
        const after: CardUpdate = { ...u, providerRef: ref, confirmationKey: keyOf, updatedAt: at };
        const indexKey = [BY_PROVIDER_REF, u.provider, ref];
        const ok = await commit(() =>
          kv.atomic().check(entry).check({ key: indexKey, versionstamp: null })
            .set([CARD_UPDATES, id], after).set(indexKey, id)
        );
        if (ok) return after;
        // Lost to a racing write of this attempt (re-read), or the reference names another one.
        const index = await retryWhileLocked(() => kv.get<string>(indexKey));
        if (index.value !== null && index.value !== id) throw new Error("this provider reference is taken");
        return RETRY;
      });
    },

    async finish(id, status, statusCode, updatedAt) {
      const final = checkCardUpdateStatus(status);
      if (final === "open") throw new RangeError("finish moves an attempt to a final status");
      const code = statusCode === null ? null : checkRef(statusCode, "statusCode");
      const at = isoInstant(updatedAt, "updatedAt");
      return await untilCommitted(async () => {
        const entry = await read(id);
        const u = entry.value;
        if (u === null) return null;
        if (u.status !== "open") return { update: u, moved: false };
        const after: CardUpdate = { ...u, status: final, statusCode: code, updatedAt: at };
        const ok = await commit(() =>
          kv.atomic().check(entry).set([CARD_UPDATES, id], after).delete([OPEN, u.createdAt, u.id])
        );
        return ok ? { update: after, moved: true } : RETRY;
      });
    },

    async listOpen(createdBefore, limit) {
      const before = isoInstant(createdBefore, "createdBefore");
      const n = batchLimit(limit);
      const ids = await retryWhileLocked(async () => {
        const out: string[] = [];
        for await (const e of kv.list<string>({ start: [OPEN], end: [OPEN, before] }, { limit: n })) {
          out.push(e.value);
        }
        return out;
      });
      const entries = await Promise.all(ids.map(read));
      return entries.map((e) => e.value).filter((u): u is CardUpdate => u !== null && u.status === "open");
    },

    async listBySubscription(subscriptionId, limit) {
      const n = batchLimit(limit);
      const ids = await retryWhileLocked(async () => {
        const out: string[] = [];
        const selector = { prefix: [BY_SUBSCRIPTION, subscriptionId] };
        for await (const e of kv.list<string>(selector, { limit: n })) out.push(e.value);
        return out;
      });
      const entries = await Promise.all(ids.map(read));
      return entries.map((e) => e.value).filter((u): u is CardUpdate => u !== null);
    },
  };
}
