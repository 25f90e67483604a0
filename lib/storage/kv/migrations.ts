/**
 * The data migrations of the Deno KV store. KV has no schema, but a new index over existing data
 * must be filled before it is read, so opening the store runs each pending data migration to its
 * end before answering ({@link migrateData}; an instance of an older version writing to the same
 * data meanwhile is not supported, as with any schema change).
 *
 * | key                       | value                        | written by  |
 * |---------------------------|------------------------------|-------------|
 * | `["kv_migrations", name]` | progress of a data migration | openKvStore |
 *
 * - `time-indexes` (stores written before retention and reconciliation): writes the time index key
 *   of every existing refresh token, revoked family, pending payment and sandbox record, 90 index
 *   keys per commit, each record checked as read (finished payments need none, and cost a read
 *   only). `["kv_migrations", "time-indexes"]` holds `{ stage, after, done }`: the prefix being
 *   walked and its last key indexed.
 * - `error-sub-lists` (stores written before errors had monthly and one-time lists): copies
 *   `error-all` in order into `error-monthly` and `error-one-time`, a few hundred entries per
 *   commit. `["kv_migrations", "error-sub-lists"]` holds `{ through, done }`: the sub-lists hold
 *   exactly `error-all`'s entries up to `through`. Every commit checks that value and the
 *   sub-list counters, so stores opening at once take turns, and the final commit (`done: true`)
 *   checks that `error-all` still ends at `through`.
 *
 * - `donor-portal-indexes` (stores written before the donor portal, issue 15): writes
 *   `["donors_by_email", email, id]` for every existing donor and
 *   `["transactions_by_donor", donorId, createdAt, id]` for every existing transaction, as
 *   `time-indexes` does (the same step, its own marker `["kv_migrations", "donor-portal-indexes"]`).
 *
 * - `admin-roles` (stores written before roles, issue 16): gives every admin stored without a role
 *   one, as PostgreSQL's migration 27 does: the oldest approved admin (by creation) becomes the
 *   owner unless an owner exists, other approved admins `admin`, the rest none; and counts the
 *   owners into `["admins_owners"]`. Fifty admins per commit, each checked as read;
 *   `["kv_migrations", "admin-roles"]` holds `{ done }`.
 * - `outbox-donor-index` (stores written before the donor portal's data export, issue 15): writes
 *   `["outbox_by_donor", donorId, createdAt, key]` for every existing message to a donor, as
 *   `time-indexes` does (its own marker `["kv_migrations", "outbox-donor-index"]`).
 *
 * - `report-indexes` (stores written before the accountant's reports, issue 16): writes
 *   `["transactions_by_time", createdAt, id]` for every existing transaction and
 *   `["subscriptions_by_created", createdAt, id]` and (cancelled ones)
 *   `["subscriptions_by_cancelled", cancelledAt, id]` for every existing subscription, as
 *   `time-indexes` does (its own marker `["kv_migrations", "report-indexes"]`).
 *
 * - `card-update-history` (stores written before refunds looked at a gift's card history, issue 23):
 *   writes `["card_updates_by_subscription", subscriptionId, createdAt, id]` for every existing
 *   card-update attempt, as `time-indexes` does (its own marker `["kv_migrations",
 *   "card-update-history"]`).
 * - `payments-donor-index` (stores written before donor records were recycled, issue 23): writes
 *   `["payments_by_donor", donorId, id]` for every existing payment, as `time-indexes` does (its own
 *   marker `["kv_migrations", "payments-donor-index"]`).
 * - `donor-session-indexes` (stores written before sessions had a scope, issue 23): writes
 *   `["donor_sign_ins_by_email", email, hash]` for every existing sign-in link, as `time-indexes`
 *   does (its own marker), and `donor-session-scopes` deletes every session stored without a
 *   scope (such a session may have been made by the old all-powerful manage link; sessions last a
 *   day, so at most a day's donors sign in again), thirty per commit, each checked as read;
 *   `["kv_migrations", "donor-session-scopes"]` holds `{ done }`.
 * - `membership-level-index` (stores written before the back office's members list, issue 27):
 *   writes `["memberships_by_level", level, end, email]` for every existing membership, as
 *   `time-indexes` does (its own marker).
 *
 * The index keys are built by the concept modules that own them, so a migration writes exactly
 * what the repository writes with the record.
 *
 * @module
 */

import { commit, ImportBudget, loadSerialize, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import { ADMINS, ADMINS_OWNERS, statusKey } from "./admins.ts";
import { bySubscriptionKey, CARD_UPDATES } from "./card_updates.ts";
import { donorEmailKey, DONORS } from "./donors.ts";
import { keysOf, SESSIONS, SIGN_INS, signInEmailKey } from "./donor_sessions.ts";
import { levelIndexKey, MEMBERSHIPS_PREFIX } from "./memberships.ts";
import { OUTBOX, outboxDonorKey } from "./outbox.ts";
import { paymentDonorKey, PAYMENTS, pendingKey } from "./payments.ts";
import {
  REFRESH_FAMILIES_REVOKED,
  REFRESH_TOKENS,
  type RevokedFamilyValue,
  revokedTimeKey,
  tokenExpiryKey,
} from "./refresh_tokens.ts";
import { SANDBOX, sandboxUpdatedKey } from "./sandbox.ts";
import { donorIndexKey, timeIndexKey, TRANSACTIONS } from "./transactions.ts";
import { cancelledKey, createdKey, SUBSCRIPTIONS } from "./subscriptions.ts";
import { TRANSACTIONS_COUNT, TRANSACTIONS_LIST } from "./transaction_lists.ts";
import type {
  Admin,
  CardUpdate,
  Donor,
  DonorSession,
  DonorSignIn,
  Membership,
  OutboxMessage,
  Payment,
  RefreshToken,
  SandboxRecord,
  Subscription,
  Transaction,
} from "@/lib/storage/types.ts";

const KV_MIGRATIONS = "kv_migrations";
const ERROR_SUB_LISTS_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "error-sub-lists"];
const TIME_INDEXES_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "time-indexes"];
const DONOR_PORTAL_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "donor-portal-indexes"];
const ADMIN_ROLES_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "admin-roles"];
/** Admins given a role per commit (each: a check and three writes). */
const ADMIN_ROLES_CHUNK = 50;
const OUTBOX_DONOR_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "outbox-donor-index"];
const REPORT_INDEXES_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "report-indexes"];
const CARD_HISTORY_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "card-update-history"];
const PAYMENTS_DONOR_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "payments-donor-index"];
const DONOR_SESSION_INDEXES_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "donor-session-indexes"];
const DONOR_SESSION_SCOPES_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "donor-session-scopes"];
const MEMBERSHIP_LEVEL_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "membership-level-index"];
/** Sessions without a scope deleted per commit (a check and three deletions each). */
const UNSCOPED_CHUNK = 30;

/** The stored value of `["kv_migrations", "time-indexes"]`. */
interface TimeIndexMigration {
  /** Which of {@link TIME_INDEX_STAGES} is being filled. */
  stage: number;
  /** The last record key part of that stage's prefix indexed so far; null at its start. */
  after: string | null;
  done: boolean;
}

/**
 * The time indexes over records written before they existed: per record prefix, the index key
 * a record needs (null: none, e.g. a finished payment). Each is exactly what the repository
 * writes with the record.
 */
type IndexStages = { prefix: string; indexKey: (entry: Deno.KvEntry<unknown>) => Deno.KvKey | null }[];

/** The donor portal's indexes over records written before they existed (`donor-portal-indexes`). */
const DONOR_PORTAL_STAGES: IndexStages = [
  { prefix: DONORS, indexKey: (e) => donorEmailKey(e.value as Donor) },
  { prefix: TRANSACTIONS, indexKey: (e) => donorIndexKey(e.value as Transaction) },
];

/** The outbox's index by donor over messages stored before it existed (`outbox-donor-index`). */
const OUTBOX_DONOR_STAGES: IndexStages = [
  { prefix: OUTBOX, indexKey: (e) => outboxDonorKey(e.value as OutboxMessage) },
];

/** The accountant's reports' time indexes over records written before them (`report-indexes`). */
const REPORT_INDEX_STAGES: IndexStages = [
  { prefix: TRANSACTIONS, indexKey: (e) => timeIndexKey(e.value as Transaction) },
  { prefix: SUBSCRIPTIONS, indexKey: (e) => createdKey(e.value as Subscription) },
  { prefix: SUBSCRIPTIONS, indexKey: (e) => cancelledKey(e.value as Subscription) },
];

/** A gift's card-update history over attempts stored before it (`card-update-history`). */
const CARD_HISTORY_STAGES: IndexStages = [
  { prefix: CARD_UPDATES, indexKey: (e) => bySubscriptionKey(e.value as CardUpdate) },
];

/** The payments' index by donor over payments stored before it existed (`payments-donor-index`). */
const PAYMENTS_DONOR_STAGES: IndexStages = [
  { prefix: PAYMENTS, indexKey: (e) => paymentDonorKey(e.value as Payment) },
];

/** The sign-in links' email index over links stored before it existed (`donor-session-indexes`). */
const DONOR_SESSION_INDEX_STAGES: IndexStages = [
  { prefix: SIGN_INS, indexKey: (e) => signInEmailKey(e.value as DonorSignIn) },
];

/** The memberships' index by level over memberships stored before it (`membership-level-index`). */
const MEMBERSHIP_LEVEL_STAGES: IndexStages = [
  { prefix: MEMBERSHIPS_PREFIX, indexKey: (e) => levelIndexKey(e.value as Membership) },
];

const TIME_INDEX_STAGES: IndexStages = [
  { prefix: PAYMENTS, indexKey: (e) => pendingKey(e.value as Payment) },
  { prefix: REFRESH_TOKENS, indexKey: (e) => tokenExpiryKey(e.value as RefreshToken) },
  {
    prefix: REFRESH_FAMILIES_REVOKED,
    indexKey: (e) => revokedTimeKey(e.key[1] as string, (e.value as RevokedFamilyValue).revokedAt),
  },
  { prefix: SANDBOX, indexKey: (e) => sandboxUpdatedKey(e.value as SandboxRecord) },
];

/** Index keys one time-index migration commit writes: each record is checked (at most 100 checks). */
const TIME_INDEX_CHUNK = 90;
/** Records one time-index migration commit reads at most. */
const TIME_INDEX_SCAN = 1_000;

/** The stored value of `["kv_migrations", "error-sub-lists"]`. */
interface SubListMigration {
  /** The last `error-all` sequence number copied into the sub-lists. */
  through: number;
  done: boolean;
}

/** How many `error-all` entries one migration commit reads at most. */
const MIGRATION_CHUNK = 500;

/** Runs every pending data migration (see the module header) to its end, in order. */
export async function migrateData(kv: Deno.Kv): Promise<void> {
  const toEnd = async (step: () => Promise<"more" | "done" | typeof RETRY>) => {
    while (await untilCommitted(step) === "more");
  };
  // Index migrations over records stored before their index existed, each with its own marker.
  const index = (marker: Deno.KvKey, stages: IndexStages) => toEnd(() => timeIndexesStep(kv, marker, stages));
  await toEnd(() => errorSubListsStep(kv));
  await toEnd(() => timeIndexesStep(kv));
  await index(DONOR_PORTAL_MIGRATION, DONOR_PORTAL_STAGES);
  await index(OUTBOX_DONOR_MIGRATION, OUTBOX_DONOR_STAGES);
  await toEnd(() => adminRolesStep(kv));
  await index(REPORT_INDEXES_MIGRATION, REPORT_INDEX_STAGES);
  await index(CARD_HISTORY_MIGRATION, CARD_HISTORY_STAGES);
  await index(PAYMENTS_DONOR_MIGRATION, PAYMENTS_DONOR_STAGES);
  await index(DONOR_SESSION_INDEXES_MIGRATION, DONOR_SESSION_INDEX_STAGES);
  await toEnd(() => unscopedSessionsStep(kv));
  await index(MEMBERSHIP_LEVEL_MIGRATION, MEMBERSHIP_LEVEL_STAGES);
}

/**
 * One commit of the `donor-session-scopes` migration: deletes the next sessions stored without a
 * scope, with their index keys, and answers "more", or marks the migration done when none is left.
 * Sessions live a day, so their prefix is small enough to read whole.
 */
async function unscopedSessionsStep(kv: Deno.Kv): Promise<"more" | "done" | typeof RETRY> {
  const marker = await retryWhileLocked(() => kv.get<{ done: boolean }>(DONOR_SESSION_SCOPES_MIGRATION));
  if (marker.value?.done) return "done";
  const unscoped = await retryWhileLocked(async () => {
    const out: Deno.KvEntry<DonorSession>[] = [];
    for await (const e of kv.list<DonorSession>({ prefix: [SESSIONS] }, { batchSize: 500 })) {
      if (e.value.scope === undefined) out.push(e);
      if (out.length === UNSCOPED_CHUNK) break;
    }
    return out;
  });
  const ok = await commit(() => {
    const op = kv.atomic().check(marker).set(DONOR_SESSION_SCOPES_MIGRATION, { done: unscoped.length === 0 });
    for (const e of unscoped) {
      op.check(e);
      for (const key of keysOf("session", e.value)) op.delete(key);
    }
    return op;
  });
  return !ok ? RETRY : unscoped.length === 0 ? "done" : "more";
}

/**
 * One commit of the `admin-roles` migration: the next admins stored without a role get one (the
 * first approved one the owner while none exists), with the owner count; "done" when none is left.
 */
async function adminRolesStep(kv: Deno.Kv): Promise<"more" | "done" | typeof RETRY> {
  const [marker, owners] = await retryWhileLocked(() =>
    kv.getMany<[{ done: boolean }, number]>([ADMIN_ROLES_MIGRATION, ADMINS_OWNERS])
  );
  if (marker.value?.done) return "done";
  // Admins are few (the museum's staff): each commit reads them all and takes the next roleless
  // ones, oldest first by creation; a commit gives them roles, so the walk needs no cursor.
  const all = await retryWhileLocked(async () => {
    const out: Deno.KvEntry<Admin>[] = [];
    for await (const e of kv.list<Admin>({ prefix: [ADMINS] })) out.push(e);
    return out;
  });
  const todo = all
    .filter((e) => e.value.role === undefined)
    .sort((
      a,
      b,
    ) => (a.value.createdAt < b.value.createdAt ? -1 : a.value.createdAt > b.value.createdAt ? 1 : 0))
    .slice(0, ADMIN_ROLES_CHUNK);
  let ownerCount = owners.value ??
    all.filter((e) => e.value.status === "approved" && e.value.role === "owner").length;
  if (todo.length === 0) {
    const ok = await commit(() =>
      kv.atomic().check(marker, owners).set(ADMIN_ROLES_MIGRATION, { done: true })
        .set(ADMINS_OWNERS, ownerCount)
    );
    return ok ? "done" : RETRY;
  }
  const ok = await commit(() => {
    const op = kv.atomic().check(marker, owners);
    for (const entry of todo) {
      const before = entry.value;
      const approved = before.status === "approved";
      const role = approved ? (ownerCount === 0 ? "owner" : "admin") : null;
      if (role === "owner") ownerCount++;
      const updated: Admin = { ...before, role };
      op.check(entry).set(entry.key, updated).set(statusKey(updated), updated);
    }
    return op.set(ADMINS_OWNERS, ownerCount).set(ADMIN_ROLES_MIGRATION, { done: false });
  });
  return ok ? "more" : RETRY;
}

/**
 * One commit of the `time-indexes` migration: indexes the next {@link TIME_INDEX_CHUNK} records
 * of the current stage's prefix and answers "more", or marks the migration done after the last
 * stage and answers "done"; RETRY after a lost race. Every record indexed is checked as read, so
 * one changed meanwhile (a payment finished, a sandbox record transitioned, a token swept) makes
 * the commit re-read instead of indexing a stale value.
 */
async function timeIndexesStep(
  kv: Deno.Kv,
  MARKER: Deno.KvKey = TIME_INDEXES_MIGRATION,
  STAGES: IndexStages = TIME_INDEX_STAGES,
): Promise<"more" | "done" | typeof RETRY> {
  const marker = await retryWhileLocked(() => kv.get<TimeIndexMigration>(MARKER));
  const state = marker.value ?? { stage: 0, after: null, done: false };
  if (state.done) return "done";
  if (state.stage >= STAGES.length) {
    const value: TimeIndexMigration = { ...state, done: true };
    const ok = await commit(() => kv.atomic().check(marker).set(MARKER, value));
    return ok ? "done" : RETRY;
  }
  const { prefix, indexKey } = STAGES[state.stage];
  // Up to TIME_INDEX_CHUNK records that need an index key, from at most TIME_INDEX_SCAN read (a
  // finished payment needs none, so most payments cost a read only).
  const { writes, last, exhausted } = await retryWhileLocked(async () => {
    const writes: [Deno.KvEntry<unknown>, Deno.KvKey][] = [];
    let last: string | null = null;
    let read = 0;
    const selector = state.after === null
      ? { prefix: [prefix] }
      : { prefix: [prefix], start: [prefix, state.after] };
    for await (
      const entry of kv.list<unknown>(selector, { limit: TIME_INDEX_SCAN + 1, batchSize: 500 })
    ) {
      read++;
      if (entry.key[1] === state.after) continue; // the start key is the last one done
      last = entry.key[1] as string;
      const key = indexKey(entry);
      if (key) writes.push([entry, key]);
      if (writes.length === TIME_INDEX_CHUNK) return { writes, last, exhausted: false };
    }
    return { writes, last, exhausted: read < TIME_INDEX_SCAN + 1 };
  });
  const value: TimeIndexMigration = exhausted || last === null
    ? { stage: state.stage + 1, after: null, done: false }
    : { stage: state.stage, after: last, done: false };
  const ok = await commit(() => {
    const op = kv.atomic().check(marker).set(MARKER, value);
    for (const [entry, key] of writes) op.check(entry).set(key, entry.key[1]);
    return op;
  });
  return ok ? "more" : RETRY;
}

/**
 * One commit of the `error-sub-lists` migration: copies the next run of `error-all` entries (as
 * many as fit one atomic operation) into `error-monthly` and `error-one-time` and answers "more",
 * or marks the migration done when nothing is left and answers "done"; RETRY after a lost race.
 */
async function errorSubListsStep(kv: Deno.Kv): Promise<"more" | "done" | typeof RETRY> {
  const subLists = ["error-monthly", "error-one-time"] as const;
  const [marker, all, monthly, oneTime] = await retryWhileLocked(() =>
    kv.getMany<[SubListMigration, number, number, number]>([
      ERROR_SUB_LISTS_MIGRATION,
      [TRANSACTIONS_COUNT, "error-all"],
      [TRANSACTIONS_COUNT, subLists[0]],
      [TRANSACTIONS_COUNT, subLists[1]],
    ])
  );
  const counters = [monthly, oneTime];
  if (marker.value?.done) return "done";
  const through = marker.value?.through ?? 0;
  const total = all.value ?? 0;
  if (through >= total) {
    // Nothing left (a new store starts here): done, unless an error was recorded meanwhile.
    const value: SubListMigration = { through, done: true };
    const ok = await commit(() => kv.atomic().check(marker, all).set(ERROR_SUB_LISTS_MIGRATION, value));
    return ok ? "done" : RETRY;
  }
  const selector = {
    start: [TRANSACTIONS_LIST, "error-all", through + 1],
    end: [TRANSACTIONS_LIST, "error-all", Math.min(total, through + MIGRATION_CHUNK) + 1],
  };
  const entries = await retryWhileLocked(async () => {
    const out: Deno.KvEntry<Transaction>[] = [];
    for await (const entry of kv.list<Transaction>(selector, { batchSize: MIGRATION_CHUNK })) out.push(entry);
    return out;
  });
  const seqs = new Map(subLists.map((list, i) => [list, counters[i].value ?? 0]));
  await loadSerialize();
  const budget = new ImportBudget([marker.key, ...counters.map((c) => c.key)]);
  const sets: [Deno.KvKey, Transaction][] = [];
  let last = through;
  for (const entry of entries) {
    const list = entry.value.isMonthly ? "error-monthly" : "error-one-time";
    const write: [Deno.KvKey, Transaction] = [[TRANSACTIONS_LIST, list, seqs.get(list)! + 1], entry.value];
    if (!budget.take([write])) break;
    sets.push(write);
    seqs.set(list, seqs.get(list)! + 1);
    last = entry.key[2] as number;
  }
  if (last === through) throw new Error(`error-all entry ${through + 1} is missing or too large to copy`);
  const value: SubListMigration = { through: last, done: false };
  const ok = await commit(() => {
    const op = kv.atomic().check(marker, ...counters).set(ERROR_SUB_LISTS_MIGRATION, value);
    subLists.forEach((list, i) => op.set(counters[i].key, seqs.get(list)!));
    for (const [key, tx] of sets) op.set(key, tx);
    return op;
  });
  return ok ? "more" : RETRY;
}
