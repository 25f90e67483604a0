/**
 * Memberships on Deno KV.
 *
 * | key                                         | value      | written by                            |
 * |---------------------------------------------|------------|---------------------------------------|
 * | `["memberships", email]`                    | Membership | `transactions.record`, `change`       |
 * | `["memberships_by_number", number]`         | email      | the same, once, with a new membership |
 * | `["memberships_by_end", end, email]`        | email      | the same; the old end's key deleted   |
 * | `["memberships_by_level", level, end, email]` | email    | the same; the last term's level (item 8) |
 *
 * `erase`, and a change that leaves no term, delete the four keys in one commit, checked against the
 * membership as read ({@link deleteMembership}).
 *
 * A change ({@link planMembership}) reads the membership's key, asks the change for the next record
 * and commits it with a check of the versionstamp read, and, for a new membership, a check that its
 * number's key is absent (a taken number fails the commit; the change is asked again and draws
 * another). `transactions.record` reads the key with its own and adds these writes to its commit, so
 * the membership changes exactly when the transaction is recorded. The end index is read a range at
 * a time (`listByEnd`), by end then email, as PostgreSQL's `memberships_end` index orders them; the
 * level index (the level of the last term, then the end) the same way (`listByLevel`), filled for
 * memberships stored before it by the `membership-level-index` data migration (`migrations.ts`).
 * The membership keys themselves are read in address order for a search by an address's start
 * (`listByEmailPrefix`).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import {
  canonicalMembership,
  lastLevelOf,
  listByEmailPrefixArgs,
  listByEndArgs,
  listByLevelArgs,
} from "@/lib/storage/membership_records.ts";
import type {
  Membership,
  MembershipChange,
  MembershipCursor,
  MembershipRepository,
} from "@/lib/storage/membership_types.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";

const MEMBERSHIPS = "memberships";
const BY_NUMBER = "memberships_by_number";
const BY_END = "memberships_by_end";
/** The prefix of the memberships' records (the level index's data migration walks it). */
export const MEMBERSHIPS_PREFIX = MEMBERSHIPS;
const BY_LEVEL = "memberships_by_level";

/** The key of `membership` in the index by its last term's level, then end and email. */
export const levelIndexKey = (membership: Membership): Deno.KvKey => [
  BY_LEVEL,
  lastLevelOf(membership),
  membership.end,
  membership.email,
];

/** The key of the membership of `email` (as given to a change: normalized here). */
export const membershipKey = (email: string): Deno.KvKey => [MEMBERSHIPS, normalizeEmail(email)];

/** A change decided: the record to store (null: the membership ends) and how to add its writes to a commit. */
export interface MembershipPlan {
  membership: Membership | null;
  add(op: Deno.AtomicOperation): Deno.AtomicOperation;
}

/**
 * Decides `change` over `entry` (the membership's key as read) at `at`: the next record and its
 * writes (the deletion of the membership when the change leaves it no term and `mayEnd`), or null
 * when the change writes nothing.
 */
export function planMembership(
  entry: Deno.KvEntryMaybe<Membership>,
  change: MembershipChange,
  at: string,
  { mayEnd = true } = {},
): MembershipPlan | null {
  const current = entry.value;
  const draft = change.apply(current);
  if (draft === null) return null;
  // A payment never ends a membership (`transactions.record` passes `mayEnd: false`): its draft
  // with no terms is refused below, as PostgreSQL refuses it.
  if (mayEnd && Array.isArray(draft.terms) && draft.terms.length === 0) {
    // Nothing paid for is left: the membership ends, its keys deleted (as `erase` does).
    if (current === null) return null;
    return {
      membership: null,
      add: (op) => deleteMembership(op, entry, current),
    };
  }
  const next = canonicalMembership(draft, change.email, at, current);
  return {
    membership: next,
    add(op) {
      op.check(entry).set(entry.key, next);
      if (current === null) {
        const numberKey = [BY_NUMBER, next.number];
        op.check({ key: numberKey, versionstamp: null }).set(numberKey, next.email);
      } else {
        if (current.end !== next.end) op.delete([BY_END, current.end, current.email]);
        const before = levelIndexKey(current);
        if (before.join("\u0000") !== levelIndexKey(next).join("\u0000")) op.delete(before);
      }
      return op.set([BY_END, next.end, next.email], next.email).set(levelIndexKey(next), next.email);
    },
  };
}

/** Adds to `op` the deletion of the membership `entry` holds (`current`) and its index keys. */
function deleteMembership(
  op: Deno.AtomicOperation,
  entry: Deno.KvEntryMaybe<Membership>,
  current: Membership,
): Deno.AtomicOperation {
  return op.check(entry).delete(entry.key).delete([BY_NUMBER, current.number])
    .delete([BY_END, current.end, current.email]).delete(levelIndexKey(current));
}

async function get(kv: Deno.Kv, key: Deno.KvKey): Promise<Membership | null> {
  return (await retryWhileLocked(() => kv.get<Membership>(key))).value;
}

/** The {@link MembershipRepository} of the store on `ctx`. */
export function kvMemberships({ kv }: KvContext): MembershipRepository {
  return {
    get: (email) => get(kv, membershipKey(email)),

    async getByNumber(number) {
      const email = (await retryWhileLocked(() => kv.get<string>([BY_NUMBER, number]))).value;
      return email === null ? null : await get(kv, membershipKey(email));
    },

    async change(change, at, options = {}) {
      const audit = auditEntries(options.audit, at, MAX_AUDIT_PER_CAUSE);
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Membership>(membershipKey(change.email)));
        const plan = planMembership(entry, change, at);
        if (plan === null) return null;
        const ok = await commit(() => addAudit(plan.add(kv.atomic()), audit));
        return ok ? plan.membership : RETRY;
      });
    },

    async erase(email) {
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Membership>(membershipKey(email)));
        const current = entry.value;
        if (current === null) return false;
        const ok = await commit(() => deleteMembership(kv.atomic(), entry, current));
        return ok ? true : RETRY;
      });
    },

    async listByEnd(range, max, cursor) {
      const { from, to, limit, after } = listByEndArgs(range, max, cursor);
      return await listIndex(kv, [BY_END], from, to, limit, after);
    },

    async listByLevel(level, range, max, cursor) {
      const { levelId, from, to, limit, after } = listByLevelArgs(level, range, max, cursor);
      return await listIndex(kv, [BY_LEVEL, levelId], from, to, limit, after);
    },

    async listByEmailPrefix(text, max, cursor) {
      const { prefix, limit, after } = listByEmailPrefixArgs(text, max, cursor);
      // Every key starting with `prefix` sorts below `prefix` + U+10FFFF (no address holds it).
      const start: Deno.KvKey = after && after >= prefix ? [MEMBERSHIPS, after, ""] : [MEMBERSHIPS, prefix];
      const end: Deno.KvKey = [MEMBERSHIPS, prefix + "\u{10FFFF}"];
      return await retryWhileLocked(async () => {
        const found: Membership[] = [];
        for await (const e of kv.list<Membership>({ start, end }, { limit })) found.push(e.value);
        return found;
      });
    },
  };
}

/**
 * A page of an index under `index` whose keys go on with end and email (`listByEnd`,
 * `listByLevel`): from `from` (or after `after`) below `to`, each read back as its record.
 */
async function listIndex(
  kv: Deno.Kv,
  index: Deno.KvKey,
  from: string,
  to: string,
  limit: number,
  after: MembershipCursor | null,
): Promise<Membership[]> {
  return await retryWhileLocked(async () => {
    const start: Deno.KvKey = after && after.end >= from
      ? [...index, after.end, after.email, ""]
      : [...index, from];
    const emails: string[] = [];
    for await (const e of kv.list<string>({ start, end: [...index, to] }, { limit })) emails.push(e.value);
    const found = await Promise.all(emails.map((email) => get(kv, membershipKey(email))));
    return found.filter((m): m is Membership => m !== null);
  });
}
