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
 * | `["refresh_families_revoked", familyId]`       | `{ revokedAt }`                     | refreshTokens.revokeFamily      |
 * | `["throttle", key]`                            | times (ms), sorted, <= 100; expires | throttle.record, .clear         |
 * | `["nonces", nonce]`                            | `{ expiresAt }` (ms); expires       | nonces.claim                    |
 * | `["transactions", id]`                         | Transaction                         | transactions.record             |
 * | `["transactions_by_provider", provider, ptid]` | transaction id (idempotency key)    | transactions.record             |
 * | `["transactions_count", list]`                 | number: last seq of the list        | transactions.record             |
 * | `["transactions_list", list, seq]`             | Transaction (copy: one range read)  | transactions.record             |
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
 *
 * ## Transaction lists
 *
 * Four lists (`success-all`, `success-monthly`, `success-one-time`, `error-all`) each number their
 * transactions 1, 2, 3, ... in the order recorded: `record` increments the counters and writes the
 * `["transactions_list", list, seq]` copies in one commit. Newest first is highest sequence first,
 * so page `p` of `limit` is the one range `(total - p*limit, total - (p-1)*limit]`: a page costs one
 * counter read and one range read of `limit` values, however long the list. A search cannot use
 * that: it scans the list newest first and filters (fine for a back office; use PostgreSQL, with
 * its trigram index, for large histories).
 *
 * Values stay under KV's 64 KiB: transactions are refused above 60 KB ({@link canonicalTransaction}),
 * throttle keys keep at most 100 times, everything else is a few small fields.
 *
 * @module
 */

import { dirname } from "node:path";
import {
  autoApproved,
  canonicalAdmin,
  canonicalDonor,
  canonicalRefreshToken,
  canonicalTransaction,
  checkInteger,
  isoInstant,
  isoInstantOrNull,
  listOf,
  listsOf,
  normalizeEmail,
  pageWindow,
  searchTermOf,
  searchTextOf,
  throttleWindow,
  type TransactionList,
} from "./mod.ts";
import {
  type Admin,
  type AdminRepository,
  type Donor,
  type DonorRepository,
  EmailTakenError,
  type FeatureFlag,
  type FlagRepository,
  type NonceRepository,
  type Page,
  type RefreshToken,
  type RefreshTokenRepository,
  type Store,
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

/** The stored value of a `["nonces", nonce]` key. */
interface NonceValue {
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

/**
 * Opens (creating when missing) a KV store at `path`, a file path or `":memory:"`.
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
export async function openKvStore(path: string): Promise<Store> {
  // `Deno.openKv(path)` fails with a bare "No such file or directory" when the folder is missing.
  if (path !== ":memory:") await Deno.mkdir(dirname(path), { recursive: true });
  const kv = await Deno.openKv(path);
  let closed = false;

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
      const ok = await commit(() => kv.atomic().check({ key, versionstamp: null }).set(key, token));
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
      await commit(() => kv.atomic().check({ key, versionstamp: null }).set(key, value));
    },

    async isFamilyRevoked(familyId) {
      const entry = await retryWhileLocked(() =>
        kv.get<RevokedFamilyValue>([REFRESH_FAMILIES_REVOKED, familyId])
      );
      return entry.value !== null;
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

  const transactions: TransactionRepository = {
    async record(input) {
      const tx = canonicalTransaction(input);
      const lists = listsOf(tx);
      const idKey = [TRANSACTIONS, tx.id];
      const providerKey = tx.providerTransactionId === null
        ? null
        : [TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId];
      const counterKeys = lists.map((list) => [TRANSACTIONS_COUNT, list]);
      return await untilCommitted(async () => {
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
      });
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
      return await listPage(listOf("error", undefined), query);
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
