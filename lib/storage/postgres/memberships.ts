/**
 * Memberships on PostgreSQL.
 *
 * Table `memberships` (migration 35): one row per normalized email, its number unique
 * (`memberships_number`), its terms as `jsonb`, `end_at` the end of its last term, indexed with the
 * email (`memberships_end`) for `listByEnd`; the last term's level with them
 * (`memberships_level_end`, migration 38) for `listByLevel`, and the email in byte order
 * (`memberships_email_bytes`) for `listByEmailPrefix`. A change is decided in a transaction under an advisory
 * lock per email ({@link lockMembership}): the row is read, the change asked for the next record
 * and that written ({@link writeMembership}) over the version read, or the row deleted when the
 * change leaves it no term ({@link applyLocked}). `transactions.record` given a
 * change does the same in its own transaction, the write inside its recording statement so it
 * happens only with a new transaction (`transactions.ts`). A number another membership has (a unique
 * violation, {@link NUMBER_TAKEN}) rolls everything back; the change is asked again and draws another.
 * `jsonb` keeps no key order, so a read copies each term back into its canonical shape. Automatic
 * renewal (`auto_renew`, migration 39) is `jsonb` too, null while off.
 *
 * @module
 */

import type postgres from "postgres";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import {
  canonicalMembership,
  listByEmailPrefixArgs,
  listByEndArgs,
  listByLevelArgs,
} from "@/lib/storage/membership_records.ts";
import type {
  AutoRenewal,
  Membership,
  MembershipChange,
  MembershipRepository,
  MembershipTerm,
} from "@/lib/storage/membership_types.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";
import { insertAudit } from "./audit.ts";
import { isUniqueViolation, type PgContext } from "./context.ts";

/** The unique constraint a taken member number violates. */
export const NUMBER_TAKEN = "memberships_number";
/** How many numbers a new membership draws before giving up (a clash is one in a trillion). */
const NUMBER_ATTEMPTS = 5;

interface MembershipRow {
  email: string;
  number: string;
  donor_id: string;
  subscription_id: string | null;
  cardholders: string[];
  terms: MembershipTerm[];
  end_at: Date;
  auto_renew: AutoRenewal | null;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const toTerm = (t: MembershipTerm): MembershipTerm => ({
  levelId: t.levelId,
  start: t.start,
  end: t.end,
  kind: t.kind,
  transactionId: t.transactionId,
  subscriptionId: t.subscriptionId,
  amount: t.amount,
  currency: t.currency,
  charges: t.charges,
  ...(t.gift ? { gift: { ...t.gift } } : {}),
});

const toAutoRenewal = (a: AutoRenewal): AutoRenewal => ({
  token: a.token,
  provider: a.provider,
  last4: a.last4,
  currency: a.currency,
  transactionId: a.transactionId,
  since: a.since,
  failedAttempts: a.failedAttempts,
  retryAt: a.retryAt,
});

const toMembership = (row: MembershipRow): Membership => ({
  email: row.email,
  number: row.number,
  donorId: row.donor_id,
  subscriptionId: row.subscription_id,
  cardholders: [...row.cardholders],
  terms: row.terms.map(toTerm),
  end: row.end_at.toISOString(),
  ...(row.auto_renew ? { autoRenew: toAutoRenewal(row.auto_renew) } : {}),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  version: row.version,
});

/** Takes the advisory lock of `email`'s membership until the transaction ends, and reads it. */
export async function lockMembership(tx: postgres.TransactionSql, email: string): Promise<Membership | null> {
  const address = normalizeEmail(email);
  await tx`
    select pg_advisory_xact_lock(hashtextextended('donations.memberships:' || current_schema() || ':' || ${address}, 0))
  `;
  const [row] = await tx<MembershipRow[]>`select * from memberships where email = ${address}`;
  return row ? toMembership(row) : null;
}

/**
 * The statement writing `next` over `current` (as read under the lock), when `condition` holds:
 * an insert of a new membership, else an update over the version read.
 */
export function writeMembership(
  tx: postgres.TransactionSql,
  next: Membership,
  current: Membership | null,
  condition: postgres.PendingQuery<postgres.Row[]> = tx`true`,
): postgres.PendingQuery<postgres.Row[]> {
  const terms = tx.json(next.terms as unknown as postgres.JSONValue);
  const cardholders = tx.json(next.cardholders);
  const renew = next.autoRenew ? tx.json(next.autoRenew as unknown as postgres.JSONValue) : null;
  if (current === null) {
    return tx`
      insert into memberships (
        email, number, donor_id, subscription_id, cardholders, terms, end_at, auto_renew, created_at,
        updated_at, version
      )
      select ${next.email}::text, ${next.number}::text, ${next.donorId}::text, ${next.subscriptionId}::text,
        ${cardholders}::jsonb, ${terms}::jsonb, ${next.end}::timestamptz, ${renew}::jsonb,
        ${next.createdAt}::timestamptz, ${next.updatedAt}::timestamptz, ${next.version}::integer
      where ${condition}
    `;
  }
  return tx`
    update memberships set donor_id = ${next.donorId}, subscription_id = ${next.subscriptionId},
      cardholders = ${cardholders}::jsonb, terms = ${terms}::jsonb, end_at = ${next.end}::timestamptz,
      auto_renew = ${renew}::jsonb, updated_at = ${next.updatedAt}::timestamptz, version = ${next.version}
    where email = ${next.email} and version = ${current.version} and ${condition}
  `;
}

/**
 * Applies `change` over `current` (read under its lock, {@link lockMembership}) at `at`, in `tx`:
 * writes the next record, or deletes the membership when the change leaves it no term. Answers
 * what is stored now (null: it ended), or undefined when the change wrote nothing.
 */
export async function applyLocked(
  tx: postgres.TransactionSql,
  change: MembershipChange,
  current: Membership | null,
  at: string,
): Promise<Membership | null | undefined> {
  const draft = change.apply(current);
  if (draft === null || (draft.terms.length === 0 && current === null)) return undefined;
  if (draft.terms.length === 0) {
    await tx`delete from memberships where email = ${current!.email} and version = ${current!.version}`;
    return null;
  }
  const next = canonicalMembership(draft, change.email, at, current);
  const written = await writeMembership(tx, next, current);
  if (written.count !== 1) throw new Error(`membership ${next.email} changed under its lock`);
  return next;
}

/**
 * Runs `attempt` (one transaction deciding a change) again while the number it gave a new
 * membership is taken, at most {@link NUMBER_ATTEMPTS} times.
 */
export async function whileNumberTaken<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1;; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isUniqueViolation(error, NUMBER_TAKEN) || i >= NUMBER_ATTEMPTS) throw error;
    }
  }
}

/**
 * The {@link MembershipRepository} on `memberships`.
 *
 * @example
 * ```ts
 * const membership = await pgMemberships(ctx).get("dana@museum.org");
 * ```
 */
export function pgMemberships({ sql, transaction }: PgContext): MembershipRepository {
  return {
    async get(email) {
      const [row] = await sql<MembershipRow[]>`select * from memberships where email = ${
        normalizeEmail(email)
      }`;
      return row ? toMembership(row) : null;
    },

    async getByNumber(number) {
      const [row] = await sql<MembershipRow[]>`select * from memberships where number = ${number}`;
      return row ? toMembership(row) : null;
    },

    change(change: MembershipChange, at, options = {}) {
      const audit = auditEntries(options.audit, at, MAX_AUDIT_PER_CAUSE);
      return whileNumberTaken(() =>
        transaction(async (tx) => {
          const current = await lockMembership(tx, change.email);
          const next = await applyLocked(tx, change, current, at);
          if (next === undefined) return null;
          if (audit.length > 0) await insertAudit(tx, audit);
          return next;
        })
      );
    },

    async erase(email) {
      const address = normalizeEmail(email);
      return await transaction(async (tx) => {
        // Under the change's lock: a payment recording a term meanwhile waits, then finds none.
        if (await lockMembership(tx, address) === null) return false;
        const deleted = await tx`delete from memberships where email = ${address}`;
        return deleted.count === 1;
      });
    },

    async listByEnd(range, max, cursor) {
      const { from, to, limit, after } = listByEndArgs(range, max, cursor);
      const rows = after && after.end >= from
        ? await sql<MembershipRow[]>`
          select * from memberships
          where (end_at, email) > (${after.end}::timestamptz, ${after.email}) and end_at < ${to}
          order by end_at, email limit ${limit}
        `
        : await sql<MembershipRow[]>`
          select * from memberships where end_at >= ${from} and end_at < ${to}
          order by end_at, email limit ${limit}
        `;
      return rows.map(toMembership);
    },

    async listByLevel(level, range, max, cursor) {
      const { levelId, from, to, limit, after } = listByLevelArgs(level, range, max, cursor);
      const rows = await sql<MembershipRow[]>`
        select * from memberships
        where ((terms -> -1 ->> 'levelId')::integer) = ${levelId} and end_at < ${to} and ${
        after && after.end >= from
          ? sql`(end_at, email) > (${after.end}::timestamptz, ${after.email})`
          : sql`end_at >= ${from}`
      }
        order by end_at, email limit ${limit}
      `;
      return rows.map(toMembership);
    },

    async listByEmailPrefix(text, max, cursor) {
      const { prefix, limit, after } = listByEmailPrefixArgs(text, max, cursor);
      // A range over the byte-ordered index: every address starting with the prefix sorts from it
      // to it followed by U+10FFFF (no wildcard to escape, unlike LIKE).
      const rows = await sql<MembershipRow[]>`
        select * from memberships
        where (email collate "C") >= ${after && after >= prefix ? after : prefix}
          and (email collate "C") < ${prefix + "\u{10FFFF}"}
          and (email collate "C") <> ${after ?? ""}
          and starts_with(email, ${prefix})
        order by (email collate "C") limit ${limit}
      `;
      return rows.map(toMembership);
    },
  };
}
