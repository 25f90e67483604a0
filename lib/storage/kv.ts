/**
 * The {@link Store} on Deno KV: the default backend, for one machine (a SQLite file under `data/`)
 * and for Deno Deploy.
 *
 * ## Key design
 *
 * | key                                            | value                               | written by                      |
 * |------------------------------------------------|-------------------------------------|---------------------------------|
 * | `["flags", name]`                              | `{ enabled, updatedAt }`            | flags.set, .seed                |
 * | `["health"]`                                   | never written; `ping` reads it      | (nothing)                       |
 * | `["donors", id]`                               | Donor                               | donors.create, .update          |
 * | `["admins", id]`                               | Admin                               | admins.create, .setStatus       |
 * | `["admins_by_email", email]`                   | admin id (unique: checked null)     | admins.create                   |
 * | `["admins_by_status", status, createdAt, id]`  | Admin (copy: one range read)        | admins.create, .setStatus       |
 * | `["admins_approved"]`                          | number of approved admins           | admins.create, .setStatus       |
 * | `["refresh_tokens", hash]`                     | RefreshToken                        | refreshTokens.create, .markUsed |
 * | `["refresh_tokens_by_expiry", expiresAt, h]`   | hash                                | refreshTokens.create            |
 * | `["refresh_families_revoked", familyId]`       | `{ revokedAt }`                     | refreshTokens.revokeFamily      |
 * | `["refresh_families_revoked_by_time", at, id]` | family id                           | refreshTokens.revokeFamily      |
 * | `["throttle", key]`                            | times (ms), sorted, <= 100; expires | throttle.record, .clear         |
 * | `["nonces", nonce]`                            | `{ expiresAt }` (ms); expires       | nonces.claim                    |
 * | `["transactions", id]`                         | Transaction                         | transactions.record, .import    |
 * | `["transactions_by_provider", provider, ptid]` | transaction id (idempotency key)    | transactions.record, .import    |
 * | `["transactions_count", list]`                 | number: last seq of the list        | transactions.record, .import    |
 * | `["transactions_list", list, seq]`             | Transaction (copy: one range read)  | transactions.record, .import    |
 * | `["kv_migrations", name]`                      | progress of a data migration        | openKvStore                     |
 *
 * Each primary record kind and each secondary index owns one first key part, so
 * `kv.list({ prefix: [part] })` reads exactly that; KV has no indexes of its own, so every index key
 * is written in the same atomic operation as its record.
 *
 * KV orders string key parts by their UTF-8 bytes, so `["flags"]` lists come back sorted by name
 * in the same order as PostgreSQL's `collate "C"`, and ISO 8601 instants in keys sort by time.
 *
 * ## Atomicity
 *
 * Every promise of the contract that something happens "atomically" or "once" is a read followed by
 * `kv.atomic()` that checks the versionstamps it read (a key read as absent is checked as `null`)
 * and commits only when none changed; a lost race re-reads and decides again ({@link untilCommitted}).
 * - `admins.create` checks the email key (unique email) and, when the decision depends on it, the
 *   `["admins_approved"]` counter: two first registrations at once cannot both see zero.
 * - `refreshTokens.markUsed` checks the token's versionstamp: exactly one caller sees it unused.
 * - `nonces.claim` checks the nonce's key: absent, or present but expired (expired keys can still be
 *   read until KV collects them, so the stored `expiresAt`, not the key's presence, decides).
 * - `throttle.record` rewrites the key's one value under a versionstamp check.
 * - `transactions.record` checks the idempotency key, the id and the list counters it increments.
 * - `transactions.import` reads all six list counters, then the idempotency and id keys of its
 *   transactions, and commits as many new ones as one atomic operation holds (Deno KV allows 100
 *   checks, 1,000 mutations, 800 KiB of keys and values, 80 KiB of keys: about 250 small
 *   transactions) with a check of all six counters. Every `record` and every import commit
 *   changes a counter, so none slips in between; a lost race re-reads and plans again. The writes
 *   are exactly `record`'s, so the lists, sequences and idempotency keys cannot tell them apart.
 *
 * ## Transaction lists
 *
 * Six lists (`success-all`, `success-monthly`, `success-one-time`, `error-all`, `error-monthly`,
 * `error-one-time`) each number their transactions 1, 2, 3, ... in the order recorded: a
 * transaction joins its kind's `-all` list and its monthly or one-time sub-list, and `record`
 * increments both counters and writes both `["transactions_list", list, seq]` copies in one
 * commit. Newest first is highest sequence first, so page `p` of `limit` is the one range
 * `(total - p*limit, total - (p-1)*limit]`: a page costs one counter read and one range read of
 * `limit` values, however long the list. A search cannot use
 * that: it scans the list newest first and filters (fine for a back office; use PostgreSQL, with
 * its trigram index, for large histories). `scan` reads the same ranges below a cursor (the last
 * sequence number read), so a whole list is read batch by batch at the cost of each batch;
 * `dailyTotals` reads `success-all` newest first and stops at the first transaction older than its
 * range.
 *
 * ## Data migrations
 *
 * KV has no schema, but a new index over existing data must be filled before it is read. Opening
 * the store runs each pending data migration to its end before answering (an instance of an older
 * version writing to the same data meanwhile is not supported, as with any schema change):
 * - `time-indexes` (stores written before retention and reconciliation): writes the time index key
 *   of every existing refresh token, revoked family, pending payment and sandbox record (see
 *   "Retention"), 90 index keys per commit, each record checked as read (finished payments need
 *   none, and cost a read only). `["kv_migrations", "time-indexes"]`
 *   holds `{ stage, after, done }`: the prefix being walked and its last key indexed.
 * - `error-sub-lists` (stores written before errors had monthly and one-time lists): copies
 *   `error-all` in order into `error-monthly` and `error-one-time`, a few hundred entries per
 *   commit. `["kv_migrations", "error-sub-lists"]` holds `{ through, done }`: the sub-lists hold
 *   exactly `error-all`'s entries up to `through`. Every commit checks that value and the
 *   sub-list counters, so stores opening at once take turns, and the final commit (`done: true`)
 *   checks that `error-all` still ends at `through`.
 *
 * Values stay under KV's 64 KiB: transactions are refused above 60 KB ({@link canonicalTransaction}),
 * throttle keys keep at most 100 times, everything else is a few small fields.
 *
 * ## Payments, billing and the sandbox
 *
 * | key                                                               | value                        | written by                      |
 * |-------------------------------------------------------------------|------------------------------|---------------------------------|
 * | `["payments", id]`                                                | Payment                      | payments.createOrReuse, .update |
 * | `["payments_dedupe", dedupeKey]`                                  | `{ id, createdAt }`; expires | payments.createOrReuse          |
 * | `["payments_by_provider_ref", provider, providerRef]`             | payment id                   | payments.createOrReuse, .update |
 * | `["payments_pending", createdAt, id]`                             | payment id                   | payments (every write)          |
 * | `["subscriptions", id]`                                           | Subscription                 | subscriptions.* (every write)   |
 * | `["subscriptions_by_donor", donorId, createdAt, id]`              | subscription id              | subscriptions.create            |
 * | `["subscriptions_due", dueAt, id]`                                | Subscription (copy)          | subscriptions.* (every write)   |
 * | `["charges", subscriptionId, period, attempt]`                    | Charge                       | charges.claim, .finish          |
 * | `["charges_started", startedAt, subscriptionId, period, attempt]` | Charge (copy)                | charges.claim, .finish          |
 * | `["leases", name]`                                                | `{ holder, expiresAt }` (ms) | leases.acquire, .release        |
 * | `["sandbox", ref]`                                                | SandboxRecord                | sandbox.create, .transition     |
 * | `["sandbox_by_reference", reference, createdAt, ref]`             | ref                          | sandbox.create                  |
 * | `["sandbox_by_terminal", terminalId, status, createdAt, ref]`     | SandboxRecord (copy)         | sandbox.create, .transition     |
 * | `["sandbox_by_updated", updatedAt, ref]`                          | ref                          | sandbox.create, .transition     |
 *
 * - `payments.createOrReuse` reads the dedupe key and the id, and either answers the payment the
 *   key names (created less than `windowMs` before `now` and still pending) or commits the new
 *   payment together with the key pointing to it, checking both as read: of two identical
 *   requests at once one commits, the other re-reads and reuses it. `update` moves the
 *   provider-reference key with `providerRef` (the old one only while it names this payment).
 * - `subscriptions_due` holds exactly the active subscriptions, under their due time
 *   ({@link subscriptionDueAt}: the later of `nextPaymentDate` and `retryAt`), so `listDue(now)`
 *   is one range read up to `now`, in the order answered; every write of a subscription deletes
 *   its old due key and sets the new one in the same commit, checked against the record as read
 *   (`updateIfActive` and `cancelForDonor` thus lose to, and re-read after, a racing write).
 * - `charges.claim` commits only while the charge's key is absent (exactly one claim wins);
 *   `charges_started` holds the started ones by start time, for `listStale`.
 * - `leases.acquire` rewrites the lease under a versionstamp check; expiry is decided by the
 *   callers' `now`, so lease keys carry no KV expiry.
 * - `sandbox.transition` commits only against the record as read in status `from`: one winner.
 * - `payments_pending` holds exactly the pending payments by creation time (every write of a
 *   payment moves it in the same commit), so `listPending` is one range read.
 *
 * ## Retention
 *
 * KV has no `delete where`, so what retention deletes is found through a time index written with
 * the record: refresh tokens by expiry, revoked families by revocation time, sandbox records by
 * last change. A sweep reads one bounded range of an index and deletes the index entries and
 * their records {@link SWEEP_CHUNK} at a time, each entry checked as read: two instances sweeping
 * at once delete (and count) each record once, and no commit comes near KV's limits. Throttle
 * keys, nonces and dedupe keys need no sweep: they are written with `expireIn`, and KV deletes
 * them itself.
 *
 * @module
 */

import {
  batchLimit,
  importBatch,
  listOf,
  listsOf,
  MAX_BATCH,
  pageWindow,
  scanWindow,
  searchTermOf,
  searchTextOf,
  throttleWindow,
  totalsRange,
  TRANSACTION_LISTS,
  type TransactionList,
} from "./queries.ts";
import {
  autoApproved,
  canonicalAdmin,
  canonicalCharge,
  canonicalDonor,
  canonicalPayment,
  canonicalRefreshToken,
  canonicalSandboxRecord,
  canonicalSubscription,
  canonicalTransaction,
  chargeResult,
  checkInteger,
  isoInstant,
  isoInstantOrNull,
  mergeSandboxData,
  normalizeEmail,
  paymentChanges,
  subscriptionChanges,
  subscriptionDueAt,
} from "./records.ts";
import {
  type Admin,
  type AdminRepository,
  type Charge,
  type ChargeRepository,
  type DailyTotal,
  type Donor,
  type DonorRepository,
  EmailTakenError,
  type FeatureFlag,
  type FlagRepository,
  type LeaseRepository,
  type NonceRepository,
  type Page,
  type Payment,
  type PaymentRepository,
  type RefreshToken,
  type RefreshTokenRepository,
  type SandboxRecord,
  type SandboxRepository,
  type Store,
  type Subscription,
  type SubscriptionRepository,
  type ThrottleRepository,
  type Transaction,
  type TransactionQuery,
  type TransactionRepository,
} from "./types.ts";

/** The stored value of a `["flags", name]` key; the name lives in the key only. */
interface FlagValue {
  enabled: boolean;
  updatedAt: string;
}

const FLAGS = "flags";
const DONORS = "donors";
const ADMINS = "admins";
const ADMINS_BY_EMAIL = "admins_by_email";
const ADMINS_BY_STATUS = "admins_by_status";
const ADMINS_APPROVED: Deno.KvKey = ["admins_approved"];
const REFRESH_TOKENS = "refresh_tokens";
const REFRESH_FAMILIES_REVOKED = "refresh_families_revoked";
const THROTTLE = "throttle";
const NONCES = "nonces";
const TRANSACTIONS = "transactions";
const TRANSACTIONS_BY_PROVIDER = "transactions_by_provider";
const TRANSACTIONS_COUNT = "transactions_count";
const TRANSACTIONS_LIST = "transactions_list";
const PAYMENTS = "payments";
const PAYMENTS_DEDUPE = "payments_dedupe";
const PAYMENTS_BY_PROVIDER_REF = "payments_by_provider_ref";
const SUBSCRIPTIONS = "subscriptions";
const SUBSCRIPTIONS_BY_DONOR = "subscriptions_by_donor";
const SUBSCRIPTIONS_DUE = "subscriptions_due";
const CHARGES = "charges";
const CHARGES_STARTED = "charges_started";
const LEASES = "leases";
const SANDBOX = "sandbox";
const SANDBOX_BY_REFERENCE = "sandbox_by_reference";
const SANDBOX_BY_TERMINAL = "sandbox_by_terminal";
// Time indexes, for retention and reconciliation (see "Retention" above).
const REFRESH_TOKENS_BY_EXPIRY = "refresh_tokens_by_expiry";
const REFRESH_FAMILIES_REVOKED_BY_TIME = "refresh_families_revoked_by_time";
const PAYMENTS_PENDING = "payments_pending";
const SANDBOX_BY_UPDATED = "sandbox_by_updated";

const KV_MIGRATIONS = "kv_migrations";
const ERROR_SUB_LISTS_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "error-sub-lists"];
const TIME_INDEXES_MIGRATION: Deno.KvKey = [KV_MIGRATIONS, "time-indexes"];

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
const TIME_INDEX_STAGES: { prefix: string; indexKey: (entry: Deno.KvEntry<unknown>) => Deno.KvKey | null }[] =
  [
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

/** The `["payments_pending", createdAt, id]` key of a pending payment; null once it finished. */
function pendingKey(p: Payment): Deno.KvKey | null {
  return p.status === "pending" ? [PAYMENTS_PENDING, p.createdAt, p.id] : null;
}

function tokenExpiryKey(t: RefreshToken): Deno.KvKey {
  return [REFRESH_TOKENS_BY_EXPIRY, t.expiresAt, t.hash];
}

function revokedTimeKey(familyId: string, revokedAt: string): Deno.KvKey {
  return [REFRESH_FAMILIES_REVOKED_BY_TIME, revokedAt, familyId];
}

function sandboxUpdatedKey(r: SandboxRecord): Deno.KvKey {
  return [SANDBOX_BY_UPDATED, r.updatedAt, r.ref];
}

/** The stored value of `["kv_migrations", "error-sub-lists"]`. */
interface SubListMigration {
  /** The last `error-all` sequence number copied into the sub-lists. */
  through: number;
  done: boolean;
}

/** How many `error-all` entries one migration commit reads at most. */
const MIGRATION_CHUNK = 500;

/** How many list entries one `scan` call with a search reads at most (at least its `limit`). */
const SCAN_SEARCH_BUDGET = 5_000;

/**
 * Deno KV's limits on one atomic operation and one read (`ext/kv` in Deno 2, checked here with
 * Deno 2.9): 100 checks, 1,000 mutations, 800 KiB of keys and values in total (every check and
 * mutation key, plus each set's key and value again), 80 KiB of set keys, 10 keys per getMany.
 */
const KV_LIMITS = {
  checks: 100,
  mutations: 1_000,
  totalBytes: 800 * 1024,
  totalKeyBytes: 80 * 1024,
  keysPerRead: 10,
};

/**
 * Records one retention commit deletes at most: one check and a few deletions each, far inside
 * {@link KV_LIMITS}, so a sweep is many small commits rather than one huge one.
 */
const SWEEP_CHUNK = 50;

/** How many transactions `transactions.import` looks up at once (a few parallel getMany calls). */
const IMPORT_LOOKAHEAD = 100;

/**
 * The size of a key as Deno KV encodes it (the FoundationDB tuple layout): a type byte, then a
 * string's UTF-8 bytes (a NUL escaped as two bytes) and a NUL, or a number's 8 bytes.
 */
function keyBytes(key: Deno.KvKey): number {
  let bytes = 0;
  for (const part of key) {
    if (typeof part === "string") {
      const utf8 = encoder.encode(part);
      bytes += 2 + utf8.length + utf8.filter((b) => b === 0).length;
    } else if (typeof part === "number") {
      bytes += 9;
    } else {
      throw new TypeError(`keyBytes: unsupported key part ${typeof part}`);
    }
  }
  return bytes;
}

const encoder = new TextEncoder();

// `node:v8` (and with it Node's compatibility layer, 30 ms and more of a server start) is loaded
// only when an import or a migration measures values: see `loadSerialize`.
let serialize: ((value: unknown) => Uint8Array) | undefined;
async function loadSerialize(): Promise<void> {
  serialize ??= (await import("node:v8")).serialize;
}

/**
 * Counts what an atomic operation under construction uses of {@link KV_LIMITS}: the checks given
 * at the start, the counter sets reserved for the end, and the sets {@link take}n in between.
 * Values are measured as KV stores them (V8 serialization).
 */
class ImportBudget {
  #mutations: number;
  #bytes: number;
  #keyBytes: number;

  constructor(counterKeys: Deno.KvKey[]) {
    const counterBytes = counterKeys.reduce((sum, key) => sum + keyBytes(key), 0);
    // The counters: checked once each, and set at most once each (a number: at most 11 bytes).
    this.#mutations = counterKeys.length;
    this.#bytes = counterBytes + 2 * counterBytes + 16 * counterKeys.length;
    this.#keyBytes = counterBytes;
    if (counterKeys.length > KV_LIMITS.checks) throw new Error("too many checks");
  }

  /** Reserves room for `sets` and answers true, or answers false and reserves nothing. */
  take(sets: [Deno.KvKey, unknown][]): boolean {
    let bytes = 0;
    let keys = 0;
    const sizes = new Map<unknown, number>();
    for (const [key, value] of sets) {
      const k = keyBytes(key);
      let v = sizes.get(value);
      if (v === undefined) sizes.set(value, v = serialize!(value).length);
      bytes += 2 * k + v;
      keys += k;
    }
    if (
      this.#mutations + sets.length > KV_LIMITS.mutations ||
      this.#bytes + bytes > KV_LIMITS.totalBytes ||
      this.#keyBytes + keys > KV_LIMITS.totalKeyBytes
    ) return false;
    this.#mutations += sets.length;
    this.#bytes += bytes;
    this.#keyBytes += keys;
    return true;
  }
}

/** The stored value of a `["nonces", nonce]` key. */
interface NonceValue {
  expiresAt: number;
}

/** The stored value of a `["payments_dedupe", dedupeKey]` key: the payment a repeat may reuse. */
interface PaymentDedupeValue {
  id: string;
  /** The payment's `createdAt`: the window is counted from it. */
  createdAt: string;
}

/** The stored value of a `["leases", name]` key. */
interface LeaseValue {
  holder: string;
  /** Epoch ms, on the callers' clock. */
  expiresAt: number;
}

/** The stored value of a `["refresh_families_revoked", familyId]` key. */
interface RevokedFamilyValue {
  revokedAt: string;
}

/** How long keys that expire (throttle, nonces) outlive the moment they stop mattering. */
const EXPIRY_GRACE_MS = 60_000;

/** How long an operation keeps retrying while another handle holds the SQLite write lock. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Runs a KV operation, retrying while the database file is locked.
 *
 * Deno KV's SQLite backend sets no busy timeout: when another handle on the same file (this
 * process or another one) is writing, an operation fails at once with "database is locked" (about
 * half of 1,600 racing commits from two handles, measured here). Such a failure writes nothing,
 * and every operation of this module is safe to repeat (`seed` re-checks that the key is still
 * absent), so trying again, with jittered exponential backoff, is correct.
 */
async function retryWhileLocked<T>(operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isLocked(error) || Date.now() >= deadline) throw error;
      const cap = Math.min(100, 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, cap / 2 + Math.random() * (cap / 2)));
    }
  }
}

const isLocked = (error: unknown) =>
  error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);

/** What an attempt of {@link untilCommitted} answers when its commit lost a race. */
const RETRY = Symbol("retry");

/** How long a read-check-commit loop keeps trying while other writers win the race. */
const CONFLICT_TIMEOUT_MS = 10_000;

/**
 * Runs `attempt` (read, decide, commit with versionstamp checks) until it answers something other
 * than {@link RETRY}: an attempt whose commit failed its checks re-reads and decides again. Short
 * jittered pauses between attempts keep many racing writers from retrying in lockstep.
 */
async function untilCommitted<T>(attempt: () => Promise<T | typeof RETRY>): Promise<T> {
  const deadline = Date.now() + CONFLICT_TIMEOUT_MS;
  for (let round = 0;; round++) {
    const result = await attempt();
    if (result !== RETRY) return result;
    if (Date.now() >= deadline) {
      throw new Error(`Deno KV: gave up after ${round + 1} conflicting commits in ${CONFLICT_TIMEOUT_MS} ms`);
    }
    const cap = Math.min(20, 2 ** round);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
  }
}

/**
 * Commits the operation `build` answers (rebuilt for every retry while the file is locked) and
 * answers whether its checks passed.
 */
async function commit(build: () => Deno.AtomicOperation): Promise<boolean> {
  const result = await retryWhileLocked(() => build().commit());
  return result.ok;
}

/** Runs every pending data migration (see "Data migrations" above) to its end. */
async function migrateData(kv: Deno.Kv): Promise<void> {
  while (await untilCommitted(() => errorSubListsStep(kv)) === "more");
  while (await untilCommitted(() => timeIndexesStep(kv)) === "more");
}

/**
 * One commit of the `time-indexes` migration: indexes the next {@link TIME_INDEX_CHUNK} records
 * of the current stage's prefix and answers "more", or marks the migration done after the last
 * stage and answers "done"; RETRY after a lost race. Every record indexed is checked as read, so
 * one changed meanwhile (a payment finished, a sandbox record transitioned, a token swept) makes
 * the commit re-read instead of indexing a stale value.
 */
async function timeIndexesStep(kv: Deno.Kv): Promise<"more" | "done" | typeof RETRY> {
  const marker = await retryWhileLocked(() => kv.get<TimeIndexMigration>(TIME_INDEXES_MIGRATION));
  const state = marker.value ?? { stage: 0, after: null, done: false };
  if (state.done) return "done";
  if (state.stage >= TIME_INDEX_STAGES.length) {
    const value: TimeIndexMigration = { ...state, done: true };
    const ok = await commit(() => kv.atomic().check(marker).set(TIME_INDEXES_MIGRATION, value));
    return ok ? "done" : RETRY;
  }
  const { prefix, indexKey } = TIME_INDEX_STAGES[state.stage];
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
    const op = kv.atomic().check(marker).set(TIME_INDEXES_MIGRATION, value);
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

/**
 * Opens (creating when missing) a KV store at `path`: a file path, `":memory:"`, or a KV Connect
 * URL (`https://…/connect`, with `DENO_KV_ACCESS_TOKEN`). Without `path`, `Deno.openKv()`'s own
 * database: on Deno Deploy, the KV database assigned to the app.
 *
 * @example Open the embedded store of a single machine
 * ```ts
 * import { openKvStore } from "./kv.ts";
 * const store = await openKvStore("data/donations.kv");
 * await store.flags.seed({ MONTHLY_PAYMENT: true });
 * console.log(await store.flags.list());
 * await store.close();
 * ```
 */
export async function openKvStore(path?: string): Promise<Store> {
  // `Deno.openKv(path)` fails with a bare "No such file or directory" when the folder is missing.
  if (path !== undefined && path !== ":memory:" && !/^https?:\/\//.test(path)) {
    // The folder, as `node:path`'s `dirname` would answer it (not imported: see `loadSerialize`).
    const slash = path.lastIndexOf("/");
    const folder = slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
    await Deno.mkdir(folder, { recursive: true });
  }
  const kv = await Deno.openKv(path);
  try {
    await migrateData(kv);
  } catch (error) {
    kv.close();
    throw error;
  }
  let closed = false;

  /**
   * Transaction writes of this handle, one at a time. Every record moves the shared list counters,
   * so concurrent records in one process only lose commits to each other: under load (hundreds of
   * donors at once) unlucky ones lost every race until they gave up, while one at a time each
   * commits at its first try, in arrival order. Other processes on the same file still race, and
   * `untilCommitted` still settles that.
   */
  let transactionWrites: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(write: () => Promise<T>): Promise<T> => {
    const run = transactionWrites.then(write, write);
    transactionWrites = run.catch(() => {});
    return run;
  };

  /** Reads any number of keys, {@link KV_LIMITS.keysPerRead} per getMany, in the order given. */
  const getAll = async <T>(keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> => {
    const reads: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
    for (let i = 0; i < keys.length; i += KV_LIMITS.keysPerRead) {
      const group = keys.slice(i, i + KV_LIMITS.keysPerRead);
      reads.push(retryWhileLocked(() => kv.getMany<T[]>(group)));
    }
    return (await Promise.all(reads)).flat();
  };

  /** The first `limit` entries of a time index `[prefix, time, id]` with `time < before`. */
  const indexRange = (prefix: string, before: string, limit: number) =>
    retryWhileLocked(async () => {
      const out: Deno.KvEntry<string>[] = [];
      const selector = { start: [prefix], end: [prefix, before] };
      for await (const entry of kv.list<string>(selector, { limit, batchSize: Math.min(limit, 500) })) {
        out.push(entry);
      }
      return out;
    });

  /**
   * Deletes the time-index `entries` and the records they name (`recordKeys`), {@link SWEEP_CHUNK}
   * per commit, each index entry checked as read: a record another sweeper deleted first is
   * re-read and left out, so each deletion is counted once. Answers how many were deleted.
   */
  const deleteIndexed = async (
    entries: Deno.KvEntry<unknown>[],
    recordKeys: (entry: Deno.KvEntry<unknown>) => Deno.KvKey[],
  ): Promise<number> => {
    let deleted = 0;
    for (let i = 0; i < entries.length; i += SWEEP_CHUNK) {
      let chunk = entries.slice(i, i + SWEEP_CHUNK);
      deleted += await untilCommitted(async () => {
        if (chunk.length === 0) return 0;
        const ok = await commit(() => {
          const op = kv.atomic();
          for (const entry of chunk) {
            op.check(entry).delete(entry.key);
            for (const key of recordKeys(entry)) op.delete(key);
          }
          return op;
        });
        if (ok) return chunk.length;
        const again = await getAll<unknown>(chunk.map((entry) => entry.key));
        chunk = again.filter((entry): entry is Deno.KvEntry<unknown> => entry.value !== null);
        return RETRY;
      });
    }
    return deleted;
  };

  const toFlag = (flag: string, value: FlagValue): FeatureFlag => ({
    flag,
    enabled: value.enabled,
    updatedAt: value.updatedAt,
  });

  const flags: FlagRepository = {
    list() {
      // Retried as a whole: a listing interrupted half way restarts from the first key.
      return retryWhileLocked(async () => {
        const out: FeatureFlag[] = [];
        for await (const entry of kv.list<FlagValue>({ prefix: [FLAGS] })) {
          out.push(toFlag(entry.key[1] as string, entry.value));
        }
        return out;
      });
    },

    async get(flag) {
      const entry = await retryWhileLocked(() => kv.get<FlagValue>([FLAGS, flag]));
      return entry.value === null ? null : toFlag(flag, entry.value);
    },

    async set(flag, enabled) {
      const value: FlagValue = { enabled, updatedAt: new Date().toISOString() };
      await retryWhileLocked(() => kv.set([FLAGS, flag], value));
      return toFlag(flag, value);
    },

    async seed(defaults) {
      const updatedAt = new Date().toISOString();
      // One atomic operation per flag, each committing only while the key is still absent: a racing
      // instance's insert or an operator's change always wins, and a lost race is not an error.
      // (One operation for all flags would fail as a whole as soon as any flag exists.)
      await Promise.all(
        Object.entries(defaults).map(async ([flag, enabled]) => {
          const key = [FLAGS, flag];
          // `ok: false` means the flag exists: the expected outcome on every start after the first.
          await retryWhileLocked(() =>
            kv.atomic()
              .check({ key, versionstamp: null })
              .set(key, { enabled, updatedAt } satisfies FlagValue)
              .commit()
          );
        }),
      );
    },
  };

  // ---- donors ----

  const donors: DonorRepository = {
    async create(input) {
      const donor = canonicalDonor(input);
      const key = [DONORS, donor.id];
      const ok = await commit(() => kv.atomic().check({ key, versionstamp: null }).set(key, donor));
      if (!ok) throw new Error(`a donor with the id ${donor.id} exists`);
      return donor;
    },

    async get(id) {
      return (await retryWhileLocked(() => kv.get<Donor>([DONORS, id]))).value;
    },

    async update(id, changes) {
      const key = [DONORS, id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Donor>(key));
        if (entry.value === null) return null;
        const donor: Donor = { ...entry.value };
        if (changes.paymentDate !== undefined) {
          donor.paymentDate = isoInstantOrNull(changes.paymentDate, "paymentDate");
        }
        if (changes.nextPaymentDate !== undefined) {
          donor.nextPaymentDate = isoInstantOrNull(changes.nextPaymentDate, "nextPaymentDate");
        }
        if (changes.monthlyPaymentAvailable !== undefined) {
          donor.monthlyPaymentAvailable = changes.monthlyPaymentAvailable;
        }
        return (await commit(() => kv.atomic().check(entry).set(key, donor))) ? donor : RETRY;
      });
    },
  };

  // ---- admins ----

  const statusKey = (admin: Admin): Deno.KvKey => [ADMINS_BY_STATUS, admin.status, admin.createdAt, admin.id];

  const admins: AdminRepository = {
    async create(input, options = {}) {
      const given = canonicalAdmin(input);
      const emailKey = [ADMINS_BY_EMAIL, given.email];
      const idKey = [ADMINS, given.id];
      return await untilCommitted(async () => {
        const [byEmail, byId, approved] = await retryWhileLocked(() =>
          kv.getMany<[string, Admin, number]>([emailKey, idKey, ADMINS_APPROVED])
        );
        if (byEmail.value !== null) throw new EmailTakenError(given.email);
        if (byId.value !== null) throw new Error(`an admin with the id ${given.id} exists`);
        const approvedCount = approved.value ?? 0;
        const admin = options.approveIfFirst && approvedCount === 0 ? autoApproved(given) : given;
        const ok = await commit(() => {
          const op = kv.atomic()
            .check(byEmail, byId)
            .set(idKey, admin)
            .set(emailKey, admin.id)
            .set(statusKey(admin), admin);
          // The approved count is checked whenever the decision read it or this admin changes it:
          // a racing first registration (or approval) makes this commit fail and decide again.
          if (options.approveIfFirst || admin.status === "approved") op.check(approved);
          if (admin.status === "approved") op.set(ADMINS_APPROVED, approvedCount + 1);
          return op;
        });
        return ok ? admin : RETRY;
      });
    },

    async get(id) {
      return (await retryWhileLocked(() => kv.get<Admin>([ADMINS, id]))).value;
    },

    async getByEmail(email) {
      const id =
        (await retryWhileLocked(() => kv.get<string>([ADMINS_BY_EMAIL, normalizeEmail(email)]))).value;
      return id === null ? null : await admins.get(id);
    },

    async listByStatus(status) {
      return await retryWhileLocked(async () => {
        const out: Admin[] = [];
        for await (const entry of kv.list<Admin>({ prefix: [ADMINS_BY_STATUS, status] })) {
          out.push(entry.value);
        }
        return out;
      });
    },

    async setStatus(id, status, decidedBy, decidedAt) {
      const idKey = [ADMINS, id];
      const at = isoInstant(decidedAt, "decidedAt");
      return await untilCommitted(async () => {
        const [entry, approved] = await retryWhileLocked(() =>
          kv.getMany<[Admin, number]>([idKey, ADMINS_APPROVED])
        );
        if (entry.value === null) return null;
        const before = entry.value;
        const after: Admin = { ...before, status, decidedBy, decidedAt: at };
        const delta = (after.status === "approved" ? 1 : 0) - (before.status === "approved" ? 1 : 0);
        const ok = await commit(() => {
          const op = kv.atomic().check(entry).delete(statusKey(before)).set(statusKey(after), after).set(
            idKey,
            after,
          );
          if (delta !== 0) op.check(approved).set(ADMINS_APPROVED, (approved.value ?? 0) + delta);
          return op;
        });
        return ok ? after : RETRY;
      });
    },
  };

  // ---- refresh tokens ----

  const refreshTokens: RefreshTokenRepository = {
    async create(input) {
      const token = canonicalRefreshToken(input);
      const key = [REFRESH_TOKENS, token.hash];
      const ok = await commit(() =>
        kv.atomic().check({ key, versionstamp: null }).set(key, token).set(tokenExpiryKey(token), token.hash)
      );
      if (!ok) throw new Error("a refresh token with this hash exists");
    },

    async get(hash) {
      return (await retryWhileLocked(() => kv.get<RefreshToken>([REFRESH_TOKENS, hash]))).value;
    },

    async markUsed(hash, usedAt) {
      const key = [REFRESH_TOKENS, hash];
      const at = isoInstant(usedAt, "usedAt");
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<RefreshToken>(key));
        if (entry.value === null || entry.value.usedAt !== null) return false;
        const used: RefreshToken = { ...entry.value, usedAt: at };
        return (await commit(() => kv.atomic().check(entry).set(key, used))) ? true : RETRY;
      });
    },

    async revokeFamily(familyId, revokedAt) {
      const key = [REFRESH_FAMILIES_REVOKED, familyId];
      const value: RevokedFamilyValue = { revokedAt: isoInstant(revokedAt, "revokedAt") };
      // Only the first revocation is written (its time is kept); a later one finds the key and is done.
      await commit(() =>
        kv.atomic().check({ key, versionstamp: null }).set(key, value)
          .set(revokedTimeKey(familyId, value.revokedAt), familyId)
      );
    },

    async isFamilyRevoked(familyId) {
      const entry = await retryWhileLocked(() =>
        kv.get<RevokedFamilyValue>([REFRESH_FAMILIES_REVOKED, familyId])
      );
      return entry.value !== null;
    },

    async deleteExpired(before, limit) {
      const entries = await indexRange(
        REFRESH_TOKENS_BY_EXPIRY,
        isoInstant(before, "before"),
        batchLimit(limit),
      );
      return await deleteIndexed(entries, (entry) => [[REFRESH_TOKENS, entry.key[2] as string]]);
    },

    async deleteRevokedBefore(before, limit) {
      const entries = await indexRange(
        REFRESH_FAMILIES_REVOKED_BY_TIME,
        isoInstant(before, "before"),
        batchLimit(limit),
      );
      return await deleteIndexed(entries, (entry) => [[REFRESH_FAMILIES_REVOKED, entry.key[2] as string]]);
    },
  };

  // ---- throttle ----

  const throttle: ThrottleRepository = {
    async record(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const kvKey = [THROTTLE, key];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<number[]>(kvKey));
        const times = [...(entry.value ?? [])];
        // Sorted insert; usually at the end, but callers' clocks (and tests) may go back.
        let at = times.length;
        while (at > 0 && times[at - 1] > now) at--;
        times.splice(at, 0, now);
        const kept = throttleWindow(times, now, windowMs);
        // The value is useless once its newest event leaves the window: KV may then collect it.
        const expireIn = Math.max(0, kept[kept.length - 1] - now) + windowMs + EXPIRY_GRACE_MS;
        const ok = await commit(() => kv.atomic().check(entry).set(kvKey, kept, { expireIn }));
        return ok ? kept : RETRY;
      });
    },

    async recent(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const entry = await retryWhileLocked(() => kv.get<number[]>([THROTTLE, key]));
      return throttleWindow(entry.value ?? [], now, windowMs);
    },

    async clear(key) {
      await retryWhileLocked(() => kv.delete([THROTTLE, key]));
    },

    async deleteBefore(before, limit) {
      checkInteger(before, "before");
      batchLimit(limit);
      // Every value is written with a KV expiry past its newest event's window: KV deletes it.
      return await Promise.resolve(0);
    },
  };

  // ---- nonces ----

  const nonces: NonceRepository = {
    async claim(nonce, expiresAt) {
      checkInteger(expiresAt, "expiresAt");
      const key = [NONCES, nonce];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<NonceValue>(key));
        const now = Date.now();
        if (entry.value !== null && entry.value.expiresAt > now) return false;
        // Absent, or claimed before and expired (KV may not have collected it yet): claim it now.
        const expireIn = Math.max(0, expiresAt - now) + EXPIRY_GRACE_MS;
        const value: NonceValue = { expiresAt };
        return (await commit(() => kv.atomic().check(entry).set(key, value, { expireIn }))) ? true : RETRY;
      });
    },

    async deleteExpired(now, limit) {
      checkInteger(now, "now");
      batchLimit(limit);
      // Every claim is written with a KV expiry just past its own: KV deletes it.
      return await Promise.resolve(0);
    },
  };

  // ---- transactions ----

  const getTransaction = async (id: string) =>
    (await retryWhileLocked(() => kv.get<Transaction>([TRANSACTIONS, id]))).value;

  /** One page of `list`: a counter read and one range read of the page, or a scan with `search`. */
  const listPage = async (list: TransactionList, query: TransactionQuery): Promise<Page<Transaction>> => {
    const { offset, limit } = pageWindow(query);
    const term = searchTermOf(query.search);
    // Retried as a whole: a listing interrupted half way restarts from the first key.
    return await retryWhileLocked(async () => {
      const total = (await kv.get<number>([TRANSACTIONS_COUNT, list])).value ?? 0;
      // Entries never change once written, and every seq <= total is written together with the
      // counter: reading the range below `total` is a consistent snapshot of the list.
      if (term === null) {
        const high = total - offset;
        const low = Math.max(0, high - limit);
        const data: Transaction[] = [];
        if (high <= 0) return { data, total };
        const selector = {
          start: [TRANSACTIONS_LIST, list, low + 1],
          end: [TRANSACTIONS_LIST, list, high + 1],
        };
        for await (const entry of kv.list<Transaction>(selector, { reverse: true, batchSize: limit })) {
          data.push(entry.value);
        }
        return { data, total };
      }
      // Search: KV has no text index, so this scans the whole list, newest first.
      const data: Transaction[] = [];
      let matches = 0;
      const selector = { start: [TRANSACTIONS_LIST, list, 1], end: [TRANSACTIONS_LIST, list, total + 1] };
      for await (const entry of kv.list<Transaction>(selector, { reverse: true, batchSize: 500 })) {
        if (!searchTextOf(entry.value.user).includes(term)) continue;
        if (matches >= offset && data.length < limit) data.push(entry.value);
        matches++;
      }
      return { data, total: matches };
    });
  };

  /**
   * One commit of `transactions.import`: from `batch[start]` on, the transactions not recorded yet,
   * as many as fit {@link KV_LIMITS}, written exactly as `record` writes them (record, idempotency
   * key, list copies, counters). Answers how many of `batch` it decided (recorded or skipped as
   * duplicates) and how many it recorded, or RETRY when a concurrent write got in first.
   *
   * The commit checks all six list counters as read at the start. Every `record` and every
   * import commit changes at least one of them, so none can slip between these reads and this
   * commit: the duplicates found are all there are, and the sequence numbers stay dense.
   */
  const importChunk = async (
    batch: Transaction[],
    start: number,
  ): Promise<{ consumed: number; added: number } | typeof RETRY> => {
    const counters = await retryWhileLocked(() =>
      kv.getMany<number[]>(TRANSACTION_LISTS.map((list) => [TRANSACTIONS_COUNT, list]))
    );
    const last = new Map(TRANSACTION_LISTS.map((list, i) => [list, counters[i].value ?? 0]));
    await loadSerialize();
    const budget = new ImportBudget(counters.map((entry) => entry.key));
    const sets: [Deno.KvKey, unknown][] = [];
    let consumed = 0;
    let added = 0;
    // The remaining transactions are looked up a window at a time, after the counters were read.
    scan: for (let from = start; from < batch.length; from += IMPORT_LOOKAHEAD) {
      const window = batch.slice(from, from + IMPORT_LOOKAHEAD);
      const found = await lookUp(window);
      for (const [i, tx] of window.entries()) {
        if (found[i].byProvider) {
          consumed++; // recorded before: nothing to write, as record() answers `created: false`
          continue;
        }
        if (found[i].byId) throw new Error(`a transaction with the id ${tx.id} exists`);
        const lists = listsOf(tx);
        const seqs = lists.map((list) => last.get(list)! + 1);
        const writes: [Deno.KvKey, unknown][] = [[[TRANSACTIONS, tx.id], tx]];
        if (tx.providerTransactionId !== null) {
          writes.push([[TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId], tx.id]);
        }
        lists.forEach((list, j) => writes.push([[TRANSACTIONS_LIST, list, seqs[j]], tx]));
        if (!budget.take(writes)) {
          if (added === 0) throw new Error(`transaction ${tx.id} does not fit one Deno KV atomic operation`);
          break scan;
        }
        sets.push(...writes);
        lists.forEach((list, j) => last.set(list, seqs[j]));
        consumed++;
        added++;
      }
    }
    if (added === 0) return { consumed, added };
    TRANSACTION_LISTS.forEach((list, i) => {
      if (last.get(list) !== (counters[i].value ?? 0)) sets.push([counters[i].key, last.get(list)!]);
    });
    const ok = await commit(() => {
      const op = kv.atomic().check(...counters);
      for (const [key, value] of sets) op.set(key, value);
      return op;
    });
    return ok ? { consumed, added } : RETRY;
  };

  /** Whether each transaction's id and `(provider, providerTransactionId)` keys exist. */
  const lookUp = async (txs: Transaction[]): Promise<{ byId: boolean; byProvider: boolean }[]> => {
    const keys: Deno.KvKey[] = [];
    const at = txs.map((tx) => {
      const byId = keys.push([TRANSACTIONS, tx.id]) - 1;
      const byProvider = tx.providerTransactionId === null
        ? -1
        : keys.push([TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId]) - 1;
      return { byId, byProvider };
    });
    const reads: Promise<Deno.KvEntryMaybe<unknown>[]>[] = [];
    for (let i = 0; i < keys.length; i += KV_LIMITS.keysPerRead) {
      const group = keys.slice(i, i + KV_LIMITS.keysPerRead);
      reads.push(retryWhileLocked(() => kv.getMany<unknown[]>(group)));
    }
    const entries = (await Promise.all(reads)).flat();
    return at.map(({ byId, byProvider }) => ({
      byId: entries[byId].value !== null,
      byProvider: byProvider >= 0 && entries[byProvider].value !== null,
    }));
  };

  const transactions: TransactionRepository = {
    async record(input) {
      const tx = canonicalTransaction(input);
      const lists = listsOf(tx);
      const idKey = [TRANSACTIONS, tx.id];
      const providerKey = tx.providerTransactionId === null
        ? null
        : [TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId];
      const counterKeys = lists.map((list) => [TRANSACTIONS_COUNT, list]);
      return await oneAtATime(() =>
        untilCommitted(async () => {
          // One consistent read of everything the commit checks.
          const [byId, ...rest] = await retryWhileLocked(() =>
            kv.getMany<unknown[]>([idKey, ...counterKeys, ...(providerKey ? [providerKey] : [])])
          );
          const counters = rest.slice(0, lists.length) as Deno.KvEntryMaybe<number>[];
          const byProvider = providerKey ? rest[lists.length] as Deno.KvEntryMaybe<string> : null;
          if (byProvider?.value != null) {
            const existing = await getTransaction(byProvider.value);
            if (existing === null) throw new Error(`transaction ${byProvider.value} is indexed but missing`);
            return { created: false, transaction: existing };
          }
          if (byId.value !== null) throw new Error(`a transaction with the id ${tx.id} exists`);
          const ok = await commit(() => {
            const op = kv.atomic().check(byId).set(idKey, tx);
            if (byProvider && providerKey) op.check(byProvider).set(providerKey, tx.id);
            counters.forEach((counter, i) => {
              const seq = (counter.value ?? 0) + 1;
              op.check(counter).set(counter.key, seq).set([TRANSACTIONS_LIST, lists[i], seq], tx);
            });
            return op;
          });
          return ok ? { created: true, transaction: tx } : RETRY;
        })
      );
    },

    async import(input) {
      const batch = importBatch(input);
      let created = 0;
      // Each round commits the longest run of the remaining transactions that fits one atomic
      // operation (see importChunk); a lost race re-reads and plans that run again.
      for (let done = 0; done < batch.length;) {
        const { consumed, added } = await oneAtATime(() => untilCommitted(() => importChunk(batch, done)));
        done += consumed;
        created += added;
      }
      return created;
    },

    get: getTransaction,

    async getByProviderId(provider, providerTransactionId) {
      const id =
        (await retryWhileLocked(() =>
          kv.get<string>([TRANSACTIONS_BY_PROVIDER, provider, providerTransactionId])
        )).value;
      return id === null ? null : await getTransaction(id);
    },

    async listSuccess(query) {
      return await listPage(listOf("success", query.isMonthly), query);
    },

    async listErrors(query) {
      return await listPage(listOf("error", query.isMonthly), query);
    },

    async scan(query) {
      const { limit, term, before } = scanWindow(query);
      const list = listOf(query.kind, query.isMonthly);
      return await retryWhileLocked(async () => {
        // Below the cursor, or below the end of the list as it is now: entries never change once
        // written, so later batches read exactly what the first one left.
        const high = before ?? ((await kv.get<number>([TRANSACTIONS_COUNT, list])).value ?? 0) + 1;
        const selector = { start: [TRANSACTIONS_LIST, list, 1], end: [TRANSACTIONS_LIST, list, high] };
        const data: Transaction[] = [];
        let last = high;
        if (term === null) {
          for await (
            const entry of kv.list<Transaction>(selector, { reverse: true, limit, batchSize: limit })
          ) {
            data.push(entry.value);
            last = entry.key[2] as number;
          }
          return { data, next: data.length === limit && last > 1 ? String(last) : null };
        }
        // Search: a bounded scan per call, so one call never reads the whole list for a rare term.
        const budget = Math.max(limit, SCAN_SEARCH_BUDGET);
        let read = 0;
        for await (
          const entry of kv.list<Transaction>(selector, { reverse: true, limit: budget, batchSize: 500 })
        ) {
          read++;
          last = entry.key[2] as number;
          if (searchTextOf(entry.value.user).includes(term)) data.push(entry.value);
          if (data.length === limit) break;
        }
        const more = (data.length === limit || read === budget) && last > 1;
        return { data, next: more ? String(last) : null };
      });
    },

    async dailyTotals(range) {
      const { from, to } = totalsRange(range);
      return await retryWhileLocked(async () => {
        const sums = new Map<string, DailyTotal>();
        const selector = { prefix: [TRANSACTIONS_LIST, "success-all"] };
        for await (const entry of kv.list<Transaction>(selector, { reverse: true, batchSize: 500 })) {
          const tx = entry.value;
          // The list is in time order (see the contract): the first one older than the range ends it.
          if (tx.createdAt < from) break;
          if (tx.createdAt >= to || tx.amount === null || tx.currency === null) continue;
          const day = tx.createdAt.slice(0, 10);
          const key = `${day}/${tx.currency}`;
          const sum = sums.get(key) ?? { day, currency: tx.currency, amount: 0, count: 0 };
          sum.amount += tx.amount;
          sum.count++;
          sums.set(key, sum);
        }
        return [...sums.values()].sort((a, b) =>
          a.day < b.day ? -1 : a.day > b.day ? 1 : a.currency - b.currency
        );
      });
    },
  };

  // ---- payments ----

  const providerRefKey = (p: Payment): Deno.KvKey | null =>
    p.providerRef === null ? null : [PAYMENTS_BY_PROVIDER_REF, p.provider, p.providerRef];

  const getPayment = async (id: string) =>
    (await retryWhileLocked(() => kv.get<Payment>([PAYMENTS, id]))).value;

  /**
   * `payments.update` (and, with `onlyIfPending`, `updateIfPending`): one commit checked against
   * the payment as read, moving its provider-reference and pending index keys with it.
   */
  const writePayment = async (
    id: string,
    input: Parameters<PaymentRepository["update"]>[1],
    onlyIfPending: boolean,
  ): Promise<Payment | null> => {
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
  };

  const payments: PaymentRepository = {
    async createOrReuse(input, dedupeKey, windowMs, now) {
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
          const existing = await getPayment(byKey.value.id);
          if (existing?.status === "pending") return { created: false, payment: existing };
        }
        // No key, or its payment is too old or finished: this payment takes the key over. The
        // key is useless once the window has passed; KV may then collect it.
        const value: PaymentDedupeValue = { id: payment.id, createdAt: payment.createdAt };
        const ok = await commit(() => {
          const op = kv.atomic().check(byKey, byId).set(idKey, payment).set(dedupe, value, {
            expireIn: windowMs + EXPIRY_GRACE_MS,
          });
          if (payment.providerRef !== null) op.set(providerRefKey(payment)!, payment.id);
          const pending = pendingKey(payment);
          if (pending) op.set(pending, payment.id);
          return op;
        });
        return ok ? { created: true, payment } : RETRY;
      });
    },

    get: getPayment,

    async getByProviderRef(provider, providerRef) {
      const id =
        (await retryWhileLocked(() => kv.get<string>([PAYMENTS_BY_PROVIDER_REF, provider, providerRef])))
          .value;
      if (id === null) return null;
      const payment = await getPayment(id);
      // The index is kept in step by update(); checked anyway, as it costs nothing.
      return payment?.provider === provider && payment.providerRef === providerRef ? payment : null;
    },

    update: (id, input) => writePayment(id, input, false),

    updateIfPending: (id, input) => writePayment(id, input, true),

    async listPending(range, limit, after) {
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
      return (await getAll<Payment>(ids.map((id) => [PAYMENTS, id])))
        .map((entry) => entry.value)
        .filter((p): p is Payment => p !== null && p.status === "pending");
    },
  };

  // ---- subscriptions ----

  const donorKey = (s: Subscription): Deno.KvKey => [SUBSCRIPTIONS_BY_DONOR, s.donorId, s.createdAt, s.id];
  const dueKey = (s: Subscription): Deno.KvKey => [SUBSCRIPTIONS_DUE, subscriptionDueAt(s), s.id];

  const getSubscription = async (id: string) =>
    (await retryWhileLocked(() => kv.get<Subscription>([SUBSCRIPTIONS, id]))).value;

  /** Adds the writes of `after` replacing `before` (null: new) to `op`: record, donor and due index. */
  const writeSubscription = (op: Deno.AtomicOperation, before: Subscription | null, after: Subscription) => {
    op.set([SUBSCRIPTIONS, after.id], after);
    if (before === null) op.set(donorKey(after), after.id);
    if (before !== null && before.status === "active") op.delete(dueKey(before));
    if (after.status === "active") op.set(dueKey(after), after);
    return op;
  };

  /** The donor's subscriptions (oldest first), as entries: the versionstamps are for checks. */
  const donorEntries = (donorId: string) =>
    retryWhileLocked(async () => {
      const keys: Deno.KvKey[] = [];
      for await (const entry of kv.list<string>({ prefix: [SUBSCRIPTIONS_BY_DONOR, donorId] })) {
        keys.push([SUBSCRIPTIONS, entry.value]);
      }
      const reads: Promise<Deno.KvEntryMaybe<Subscription>[]>[] = [];
      for (let i = 0; i < keys.length; i += KV_LIMITS.keysPerRead) {
        reads.push(kv.getMany<Subscription[]>(keys.slice(i, i + KV_LIMITS.keysPerRead)));
      }
      return (await Promise.all(reads)).flat().filter((entry): entry is Deno.KvEntry<Subscription> =>
        entry.value !== null
      );
    });

  /** Subscriptions a cancelForDonor commit changes at most (each: one check, three mutations). */
  const CANCEL_CHUNK = 25;

  const subscriptions: SubscriptionRepository = {
    async create(input) {
      const subscription = canonicalSubscription(input);
      const key = [SUBSCRIPTIONS, subscription.id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Subscription>(key));
        if (entry.value !== null) return entry.value;
        const ok = await commit(() => writeSubscription(kv.atomic().check(entry), null, subscription));
        return ok ? subscription : RETRY;
      });
    },

    get: getSubscription,

    async listByDonor(donorId) {
      return (await donorEntries(donorId)).map((entry) => entry.value);
    },

    async cancelForDonor(donorId, at) {
      const cancelledAt = isoInstant(at, "at");
      let cancelled = 0;
      // Every active one, a chunk per commit (a donor has a few; chunks keep any number within
      // KV's limits). Each commit checks the records it changes: a racing write makes it re-read,
      // and a racing cancel leaves it nothing to do, so each one is counted once.
      for (;;) {
        const done = await untilCommitted(async () => {
          const active = (await donorEntries(donorId)).filter((e) => e.value.status === "active");
          const chunk = active.slice(0, CANCEL_CHUNK);
          if (chunk.length === 0) return 0;
          const ok = await commit(() => {
            const op = kv.atomic();
            for (const entry of chunk) {
              writeSubscription(op.check(entry), entry.value, {
                ...entry.value,
                status: "cancelled",
                cancelledAt,
              });
            }
            return op;
          });
          return ok ? chunk.length : RETRY;
        });
        if (done === 0) return cancelled;
        cancelled += done;
      }
    },

    async listDue(now, limit) {
      checkInteger(limit, "limit", 1);
      // Due at `now` means a due time <= now; instants have whole milliseconds, so the range ends
      // before the first key of now + 1 ms.
      const end = new Date(Date.parse(isoInstant(now, "now")) + 1).toISOString();
      return await retryWhileLocked(async () => {
        const out: Subscription[] = [];
        const selector = { start: [SUBSCRIPTIONS_DUE], end: [SUBSCRIPTIONS_DUE, end] };
        for await (
          const entry of kv.list<Subscription>(selector, { limit, batchSize: Math.min(limit, 500) })
        ) {
          out.push(entry.value);
        }
        return out;
      });
    },

    async updateIfActive(id, input) {
      const changes = subscriptionChanges(input);
      const key = [SUBSCRIPTIONS, id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Subscription>(key));
        if (entry.value === null || entry.value.status !== "active") return null;
        const after: Subscription = { ...entry.value, ...changes };
        const ok = await commit(() => writeSubscription(kv.atomic().check(entry), entry.value, after));
        return ok ? after : RETRY;
      });
    },
  };

  // ---- charges ----

  const chargeKey = (subscriptionId: string, period: string, attempt: number): Deno.KvKey => [
    CHARGES,
    subscriptionId,
    period,
    attempt,
  ];
  const startedKey = (
    c: Charge,
  ): Deno.KvKey => [CHARGES_STARTED, c.startedAt, c.subscriptionId, c.period, c.attempt];

  const charges: ChargeRepository = {
    async claim(input) {
      const charge = canonicalCharge(input);
      const key = chargeKey(charge.subscriptionId, charge.period, charge.attempt);
      return await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, charge);
        if (charge.status === "started") op.set(startedKey(charge), charge);
        return op;
      });
    },

    async get(subscriptionId, period, attempt) {
      const key = chargeKey(subscriptionId, isoInstant(period, "period"), attempt);
      return (await retryWhileLocked(() => kv.get<Charge>(key))).value;
    },

    async finish(subscriptionId, period, attempt, input) {
      const result = chargeResult(input);
      const key = chargeKey(subscriptionId, isoInstant(period, "period"), attempt);
      await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Charge>(key));
        if (entry.value === null) return;
        const before = entry.value;
        const after: Charge = { ...before, ...result };
        const ok = await commit(() => {
          const op = kv.atomic().check(entry).set(key, after);
          if (before.status === "started") op.delete(startedKey(before));
          if (after.status === "started") op.set(startedKey(after), after);
          return op;
        });
        return ok ? undefined : RETRY;
      });
    },

    async listStale(before, limit) {
      checkInteger(limit, "limit", 1);
      const selector = { start: [CHARGES_STARTED], end: [CHARGES_STARTED, isoInstant(before, "before")] };
      return await retryWhileLocked(async () => {
        const out: Charge[] = [];
        for await (const entry of kv.list<Charge>(selector, { limit, batchSize: Math.min(limit, 500) })) {
          out.push(entry.value);
        }
        return out;
      });
    },
  };

  // ---- leases ----

  const leases: LeaseRepository = {
    async acquire(name, holder, now, ttlMs) {
      checkInteger(now, "now");
      checkInteger(ttlMs, "ttlMs", 1);
      const key = [LEASES, name];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<LeaseValue>(key));
        const lease = entry.value;
        if (lease !== null && lease.holder !== holder && lease.expiresAt > now) return false;
        // No expireIn: the callers' clock decides expiry, and KV's collection runs on the real one.
        const value: LeaseValue = { holder, expiresAt: now + ttlMs };
        return (await commit(() => kv.atomic().check(entry).set(key, value))) ? true : RETRY;
      });
    },

    async release(name, holder) {
      const key = [LEASES, name];
      await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<LeaseValue>(key));
        if (entry.value === null || entry.value.holder !== holder) return;
        return (await commit(() => kv.atomic().check(entry).delete(key))) ? undefined : RETRY;
      });
    },
  };

  // ---- sandbox ----

  const sandboxByReferenceKey = (r: SandboxRecord): Deno.KvKey => [
    SANDBOX_BY_REFERENCE,
    r.reference,
    r.createdAt,
    r.ref,
  ];
  const sandboxByTerminalKey = (r: SandboxRecord): Deno.KvKey | null =>
    r.terminalId === null ? null : [SANDBOX_BY_TERMINAL, r.terminalId, r.status, r.createdAt, r.ref];

  const getSandbox = async (ref: string) =>
    (await retryWhileLocked(() => kv.get<SandboxRecord>([SANDBOX, ref]))).value;

  const sandbox: SandboxRepository = {
    async create(input) {
      const record = canonicalSandboxRecord(input);
      const key = [SANDBOX, record.ref];
      const terminalKey = sandboxByTerminalKey(record);
      const ok = await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, record)
          .set(sandboxByReferenceKey(record), record.ref)
          .set(sandboxUpdatedKey(record), record.ref);
        if (terminalKey) op.set(terminalKey, record);
        return op;
      });
      if (!ok) throw new Error(`a sandbox record with the ref ${record.ref} exists`);
    },

    get: getSandbox,

    async transition(ref, from, to, data, at) {
      const updatedAt = isoInstant(at, "at");
      const key = [SANDBOX, ref];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<SandboxRecord>(key));
        if (entry.value === null || entry.value.status !== from) return false;
        const before = entry.value;
        const after: SandboxRecord = {
          ...before,
          status: to,
          updatedAt,
          data: mergeSandboxData(before.data, data),
        };
        const ok = await commit(() => {
          const op = kv.atomic().check(entry).set(key, after);
          if (after.updatedAt !== before.updatedAt) {
            op.delete(sandboxUpdatedKey(before)).set(sandboxUpdatedKey(after), ref);
          }
          const oldKey = sandboxByTerminalKey(before);
          if (oldKey) op.delete(oldKey).set(sandboxByTerminalKey(after)!, after);
          return op;
        });
        return ok ? true : RETRY;
      });
    },

    async findByReference(reference) {
      const ref = await retryWhileLocked(async () => {
        for await (
          const entry of kv.list<string>({ prefix: [SANDBOX_BY_REFERENCE, reference] }, {
            reverse: true,
            limit: 1,
          })
        ) {
          return entry.value;
        }
        return null;
      });
      return ref === null ? null : await getSandbox(ref);
    },

    async listByTerminal(terminalId, status) {
      return await retryWhileLocked(async () => {
        const out: SandboxRecord[] = [];
        for await (
          const entry of kv.list<SandboxRecord>({ prefix: [SANDBOX_BY_TERMINAL, terminalId, status] })
        ) {
          out.push(entry.value);
        }
        return out;
      });
    },

    async listUpdatedBefore(before, limit, after) {
      const end = isoInstant(before, "before");
      const n = batchLimit(limit);
      const cursor = after ? [isoInstant(after.updatedAt, "after.updatedAt"), after.ref] as const : null;
      const refs = await retryWhileLocked(async () => {
        const out: string[] = [];
        const start: Deno.KvKey = cursor ? [SANDBOX_BY_UPDATED, cursor[0], cursor[1]] : [SANDBOX_BY_UPDATED];
        for await (
          const entry of kv.list<string>({ start, end: [SANDBOX_BY_UPDATED, end] }, {
            limit: n + 1,
            batchSize: Math.min(n + 1, 500),
          })
        ) {
          if (cursor && entry.key[1] === cursor[0] && entry.key[2] === cursor[1]) continue;
          out.push(entry.value);
          if (out.length === n) break;
        }
        return out;
      });
      return (await getAll<SandboxRecord>(refs.map((ref) => [SANDBOX, ref])))
        .map((entry) => entry.value)
        .filter((r): r is SandboxRecord => r !== null && r.updatedAt < end);
    },

    async deleteUnchanged(records) {
      if (records.length > MAX_BATCH) throw new RangeError(`at most ${MAX_BATCH} records per call`);
      const wanted = new Map(records.map((r) => [r.ref, isoInstant(r.updatedAt, "updatedAt")]));
      const refs = [...wanted.keys()];
      let deleted = 0;
      // A few records per commit, each checked as read: one transitioned (or deleted by another
      // sweeper) in between makes the commit fail, and the re-read leaves it out.
      for (let i = 0; i < refs.length; i += SWEEP_CHUNK) {
        const group = refs.slice(i, i + SWEEP_CHUNK);
        deleted += await untilCommitted(async () => {
          const entries = (await getAll<SandboxRecord>(group.map((ref) => [SANDBOX, ref])))
            .filter((e): e is Deno.KvEntry<SandboxRecord> =>
              e.value !== null && e.value.updatedAt === wanted.get(e.value.ref)
            );
          if (entries.length === 0) return 0;
          const ok = await commit(() => {
            const op = kv.atomic();
            for (const { key, value: r, versionstamp } of entries) {
              op.check({ key, versionstamp }).delete(key).delete(sandboxByReferenceKey(r))
                .delete(sandboxUpdatedKey(r));
              const terminalKey = sandboxByTerminalKey(r);
              if (terminalKey) op.delete(terminalKey);
            }
            return op;
          });
          return ok ? entries.length : RETRY;
        });
      }
      return deleted;
    },
  };

  return {
    kind: "kv",
    flags,
    donors,
    admins,
    refreshTokens,
    throttle,
    nonces,
    transactions,
    payments,
    subscriptions,
    charges,
    leases,
    sandbox,
    async ping() {
      await retryWhileLocked(() => kv.get(["health"]));
    },
    close() {
      if (!closed) {
        closed = true;
        kv.close();
      }
      return Promise.resolve();
    },
  };
}
