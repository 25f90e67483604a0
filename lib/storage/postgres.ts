/**
 * The {@link Store} on PostgreSQL through postgres.js, used when `DATABASE_URL` is set.
 *
 * Opening applies pending {@link migrations} in one transaction under an advisory lock, so any
 * number of instances can start at once against a new database: the first one migrates, the others
 * wait for it and find nothing left to do.
 *
 * How the contract's promises are kept (tables in `migrations.ts`):
 * - unique admin email: a unique constraint on the normalized email, mapped to {@link EmailTakenError};
 * - `approveIfFirst`: the check and the insert run under a transaction-scoped advisory lock per
 *   schema (status changes take it too), so concurrent first registrations approve exactly one;
 * - `markUsed`: `update ... where used_at is null returning`, which the row lock makes exactly-once;
 * - throttle: one row per event, `(key, at)` indexed; a record serializes on a per-key advisory lock
 *   and prunes that key's rows out of the window or beyond the 100 most recent;
 * - nonces: one `insert ... on conflict do update ... where` the claim there expired, outside a
 *   transaction; beside it, expired rows of other nonces are swept a few at a time (`for update skip
 *   locked`);
 * - transactions: idempotent through a unique `(provider, provider_transaction_id)`; dense sequence
 *   numbers per list from `transaction_counters` (`record` is one call of the `record_transaction`
 *   function, migration 11: it moves the counters, inserts, and raises on a duplicate so the numbers
 *   roll back with it, holding the counters' lock only inside PostgreSQL), so a page is an index
 *   range on `(kind, seq_all)` or
 *   `(kind, is_monthly, seq_sub)`, total from the counter, in one statement. A search
 *   (migration 7) finds the distinct lower-cased donor fields containing the term through a
 *   trigram (pg_trgm GIN) index on `search_values`, then counts and pages through
 *   `transaction_search`, one entry per transaction and field value, by index-only scans: work in
 *   proportion to the matches, never a visit to each matching row (see `searchPage`). `record`
 *   and `import` write those entries in the statement or transaction that inserts the row;
 * - errors, like successes, have monthly and one-time sub-lists (migration 9): `seq_sub` numbers
 *   every transaction within `{kind}-monthly` or `{kind}-one-time`;
 * - `transactions.scan`: keyset reads of the same indexes below the cursor (the last `seq_all`
 *   or `seq_sub` answered), so reading a whole list never pays for deep offsets; with a search,
 *   the newest entries below the cursor of each matching field value, or the list walked along
 *   `seq_all` when the values are many;
 * - `transactions.dailyTotals`: one `group by` of the UTC day over a range of the partial index
 *   of successes' `created_at` (migration 9, with amount and currency included);
 * - `transactions.import`: one transaction per call that locks all six counter rows
 *   (`for update`, in the order `record` takes them), finds the pairs that exist, numbers the new
 *   rows, inserts them in one multi-row `insert ... on conflict do nothing`, and moves each counter
 *   once. Under those locks no `record` can commit in between, so a skipped duplicate never takes
 *   a sequence number.
 * - `payments.createOrReuse`: one call of the `create_or_reuse_payment` function (migration 12),
 *   decided under a transaction-scoped advisory lock on a hash of the dedupe key; the payment a
 *   repeat may reuse carries the key in `dedupe_key` (unique where set), and a newer payment taking
 *   the key over clears it on the old one. `getByProviderRef` reads the
 *   `(provider, provider_ref)` index;
 * - subscriptions: `create` is `insert ... on conflict (id) do nothing`; `updateIfActive` and
 *   `cancelForDonor` are `update ... where status = 'active'` (the row lock makes a racing cancel
 *   win or wait); `listDue` is a range of the partial index on the due time
 *   `greatest(next_payment_date, retry_at)` of active subscriptions, in the order answered;
 * - `charges.claim` inserts on the primary key `(subscription_id, period, attempt)` with
 *   `on conflict do nothing`: true once; `listStale` reads a partial index of started charges;
 * - `leases.acquire`: one `insert ... on conflict do update ... where` the holder is the same or
 *   the lease expired, exactly-once under the row lock;
 * - `sandbox.transition`: `update ... where status = from`, merging `data` with jsonb `||`.
 * - retention (`deleteExpired`, `deleteRevokedBefore`, `deleteBefore`): one statement per batch,
 *   deleting the oldest rows of an index on the deciding time (migration 10) that no other
 *   session holds (`for update skip locked`): two sweepers split the rows instead of waiting, and
 *   no batch is a long transaction. `sandbox.deleteUnchanged` deletes only rows whose
 *   `updated_at` is still the one read;
 * - `payments.listPending`: a range of the partial index of pending payments by `(created_at, id)`;
 *   `updateIfPending` is `update ... where status = 'pending'`.
 *
 * Times in milliseconds (throttle, nonces) are `bigint` columns and instants `timestamptz`, both
 * mapped back to the contract's numbers and ISO strings.
 *
 * Availability: every repository call is bounded (`operationTimeoutMs`, 10 s by default) and fails
 * with {@link StorageUnavailableError} when PostgreSQL cannot be reached or does not answer in time
 * (the app answers 503); the pool reconnects by itself, waiting at most a second between attempts,
 * so the store works again within about a second of PostgreSQL's return. Transactions run on
 * connections of their own, one each, through {@link transactionRunner}: see there why.
 *
 * @module
 */

import postgres from "postgres";
import {
  type Admin,
  type AdminRepository,
  type AdminStatus,
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
  type ResultData,
  type SandboxRecord,
  type SandboxRepository,
  StorageUnavailableError,
  type Store,
  type Subscription,
  type SubscriptionRepository,
  type ThrottleRepository,
  type Transaction,
  type TransactionQuery,
  type TransactionRepository,
} from "./types.ts";
import { type Migration, migrations } from "./migrations.ts";
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
  searchValuesOf,
  THROTTLE_MAX_EVENTS,
  totalsRange,
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
  jsonObject,
  normalizeEmail,
  paymentChanges,
  subscriptionChanges,
} from "./records.ts";

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * A schema to keep every table in, created when missing; the default is the server's
   * `search_path` (usually `public`). Lower-case letters, digits and `_` only.
   */
  schema?: string;
  /** Maximum connections, in all; default 10 (half of them kept for transactions). */
  max?: number;
  /**
   * How long one repository call may wait for PostgreSQL before it fails with
   * {@link StorageUnavailableError}; default {@link OPERATION_TIMEOUT_MS}.
   */
  operationTimeoutMs?: number;
}

/**
 * The default bound of one repository call (its statements, and any wait for a pooled
 * connection): far above any statement of this store, short of a request timeout.
 */
export const OPERATION_TIMEOUT_MS = 10_000;

/** The row shape of `feature_flags`; postgres.js reads `timestamptz` as a `Date`. */
interface FlagRow {
  flag: string;
  enabled: boolean;
  updated_at: Date;
}

/** The row shape of `donors`. */
interface DonorRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  country: string;
  created_at: Date;
  payment_date: Date | null;
  next_payment_date: Date | null;
  monthly_payment_available: boolean;
}

/** The row shape of `admins`. */
interface AdminRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  status: AdminStatus;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
}

/** The row shape of `refresh_tokens`. */
interface RefreshTokenRow {
  hash: string;
  admin_id: string;
  family_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** The row shape of `transactions`; postgres.js reads `bigint` as a string, `jsonb` parsed. */
interface TransactionRow {
  id: string;
  kind: Transaction["kind"];
  status_code: string;
  is_monthly: boolean;
  created_at: Date;
  donor_id: string;
  user_first_name: string;
  user_last_name: string;
  user_email: string;
  amount: string | null;
  currency: number | null;
  result_data: ResultData | null;
  error_message: string | null;
  provider: string;
  provider_transaction_id: string | null;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

const toDonor = (row: DonorRow): Donor => ({
  id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  country: row.country,
  createdAt: row.created_at.toISOString(),
  paymentDate: iso(row.payment_date),
  nextPaymentDate: iso(row.next_payment_date),
  monthlyPaymentAvailable: row.monthly_payment_available,
});

const toAdmin = (row: AdminRow): Admin => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  decidedBy: row.decided_by,
  decidedAt: iso(row.decided_at),
});

const toRefreshToken = (row: RefreshTokenRow): RefreshToken => ({
  hash: row.hash,
  adminId: row.admin_id,
  familyId: row.family_id,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  usedAt: iso(row.used_at),
});

const toTransaction = (row: TransactionRow): Transaction => ({
  id: row.id,
  kind: row.kind,
  statusCode: row.status_code,
  isMonthly: row.is_monthly,
  createdAt: row.created_at.toISOString(),
  donorId: row.donor_id,
  user: { firstName: row.user_first_name, lastName: row.user_last_name, email: row.user_email },
  amount: row.amount === null ? null : Number(row.amount),
  currency: row.currency as Transaction["currency"],
  resultData: row.result_data,
  errorMessage: row.error_message,
  provider: row.provider,
  providerTransactionId: row.provider_transaction_id,
});

/**
 * The part of `transaction_search` (migrations 7 and 9) a transaction's entries go to: monthly
 * and one-time successes (`m`, `o`), one-time and monthly (recurring) errors (`e`, `r`).
 */
/**
 * A transaction's columns in `transactions`, but the sequence numbers: what `record` hands to
 * `record_transaction` as JSON (migration 11) and `import` inserts, with its numbers, as rows.
 */
const transactionColumns = (t: Transaction) => ({
  id: t.id,
  kind: t.kind,
  status_code: t.statusCode,
  is_monthly: t.isMonthly,
  created_at: t.createdAt,
  donor_id: t.donorId,
  user_first_name: t.user.firstName,
  user_last_name: t.user.lastName,
  user_email: t.user.email,
  amount: t.amount,
  currency: t.currency,
  result_data: t.resultData,
  error_message: t.errorMessage,
  provider: t.provider,
  provider_transaction_id: t.providerTransactionId,
  search_text: searchTextOf(t.user),
});

const searchPartOf = (t: Pick<Transaction, "kind" | "isMonthly">) =>
  t.kind === "error" ? (t.isMonthly ? "r" : "e") : t.isMonthly ? "m" : "o";

/** The parts of `transaction_search` a list reads. */
const searchPartsOf = (kind: Transaction["kind"], isMonthly: boolean | undefined) =>
  isMonthly === undefined
    ? [searchPartOf({ kind, isMonthly: true }), searchPartOf({ kind, isMonthly: false })]
    : [searchPartOf({ kind, isMonthly })];

/**
 * A search that matches more distinct donor fields than this reads its page from the list itself,
 * newest first, rather than from the newest entries of every field value (one index probe each).
 */
const NARROW_SEARCH_VALUES = 200;
/** ... and past this many, it counts its total in one pass over the list rather than by value. */
const PROBED_SEARCH_VALUES = 20_000;

/** Whether `error` is PostgreSQL's unique violation (23505) of the named constraint. */
const isUniqueViolation = (error: unknown, constraint: string) =>
  error instanceof postgres.PostgresError && error.code === "23505" && error.constraint_name === constraint;

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
}

/** The row shape of `subscriptions`. */
interface SubscriptionRow {
  id: string;
  donor_id: string;
  amount: string;
  currency: number;
  provider: string;
  token: string;
  card_masked: string | null;
  language: string;
  status: Subscription["status"];
  created_at: Date;
  payment_date: Date | null;
  next_payment_date: Date;
  failed_attempts: number;
  retry_at: Date | null;
  cancelled_at: Date | null;
}

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
}

/** The row shape of `sandbox_records`. */
interface SandboxRow {
  ref: string;
  kind: SandboxRecord["kind"];
  status: string;
  reference: string;
  terminal_id: string | null;
  amount: string;
  currency: number;
  created_at: Date;
  updated_at: Date;
  data: Record<string, unknown>;
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
});

const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  donorId: row.donor_id,
  amount: Number(row.amount),
  currency: row.currency as Subscription["currency"],
  provider: row.provider,
  token: row.token,
  cardMasked: row.card_masked,
  language: row.language,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  paymentDate: iso(row.payment_date),
  nextPaymentDate: row.next_payment_date.toISOString(),
  failedAttempts: row.failed_attempts,
  retryAt: iso(row.retry_at),
  cancelledAt: iso(row.cancelled_at),
});

const toCharge = (row: ChargeRow): Charge => ({
  subscriptionId: row.subscription_id,
  period: row.period.toISOString(),
  attempt: row.attempt,
  status: row.status,
  reference: row.reference,
  startedAt: row.started_at.toISOString(),
  finishedAt: iso(row.finished_at),
  transactionId: row.transaction_id,
});

const toSandboxRecord = (row: SandboxRow): SandboxRecord => ({
  ref: row.ref,
  kind: row.kind,
  status: row.status,
  reference: row.reference,
  terminalId: row.terminal_id,
  amount: Number(row.amount),
  currency: row.currency as SandboxRecord["currency"],
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  data: row.data,
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

/** The columns of `subscriptions.updateIfActive`'s fields. */
const SUBSCRIPTION_COLUMNS = {
  paymentDate: "payment_date",
  nextPaymentDate: "next_payment_date",
  failedAttempts: "failed_attempts",
  retryAt: "retry_at",
  status: "status",
} as const;

/** `changes` (already canonical) as a `set` of columns, by `columns`. */
function columnsOf<T extends object>(
  changes: Partial<T>,
  columns: Partial<Record<keyof T, string>>,
): Record<string, string | number | boolean | null> {
  const set: Record<string, string | number | boolean | null> = {};
  for (const [field, value] of Object.entries(changes)) {
    const column = columns[field as keyof T];
    if (column === undefined || value === undefined) continue;
    set[column] = value as string | number | boolean | null;
  }
  return set;
}

// A schema name goes into the startup `search_path` parameter and into DDL; allowing only plain
// identifiers means it never needs quoting in either place.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Connects to PostgreSQL at `url`, applies pending migrations, and answers the store.
 *
 * @example Open the production store
 * ```ts
 * import { openPostgresStore } from "./postgres.ts";
 * const store = await openPostgresStore(Deno.env.get("DATABASE_URL")!);
 * await store.ping();
 * await store.close();
 * ```
 *
 * @example Tests: a throwaway schema
 * ```ts
 * import { openPostgresStore } from "./postgres.ts";
 * const store = await openPostgresStore("postgres://postgres:postgres@127.0.0.1:5432/postgres", {
 *   schema: `test_${crypto.randomUUID().slice(0, 8)}`,
 *   max: 2,
 * });
 * await store.close();
 * ```
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const { schema, max = 10, operationTimeoutMs = OPERATION_TIMEOUT_MS } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new TypeError(`invalid schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*`);
  }
  checkMigrations(migrations);

  const poolOptions = {
    connect_timeout: 5,
    // After a failed connection, postgres.js waits before the next attempt, growing with every
    // failure in the pool up to 20 s: after an outage that long wait, not PostgreSQL, would set
    // the recovery time. At most a second, so the app is back within about one of its return.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    // Server notices ("relation already exists, skipping", ...) are not ours to print.
    onnotice: () => {},
    // Every pooled connection starts with this search_path, so unqualified names (migrations and
    // queries alike) resolve inside the schema. It may name a schema that does not exist yet:
    // PostgreSQL resolves search_path lazily, and `migrate` creates the schema.
    ...(schema === undefined ? {} : { connection: { search_path: schema } }),
  };
  // Transactions get connections of their own, one transaction per connection (see
  // transactionRunner); single statements share the rest.
  const txMax = Math.max(1, Math.floor(max / 2));
  const sql = postgres(url, { ...poolOptions, max: Math.max(1, max - txMax) });
  const txSql = postgres(url, { ...poolOptions, max: txMax });
  const transaction = transactionRunner(txSql, txMax);

  let closing: Promise<void> | undefined;
  const close =
    () => (closing ??= Promise.all([sql.end({ timeout: 5 }), txSql.end({ timeout: 5 })]).then(() => {}));

  try {
    await migrate(transaction, schema);
  } catch (error) {
    await close();
    throw error;
  }

  const toFlag = (row: FlagRow): FeatureFlag => ({
    flag: row.flag,
    enabled: row.enabled,
    updatedAt: row.updated_at.toISOString(),
  });

  const flags: FlagRepository = {
    async list() {
      // `collate "C"` sorts by bytes, as KV does; a database's default (often en_US) ignores case
      // and punctuation, so the two backends would disagree.
      const rows = await sql<FlagRow[]>`
        select flag, enabled, updated_at from feature_flags order by flag collate "C"
      `;
      return rows.map(toFlag);
    },

    async get(flag) {
      const [row] = await sql<FlagRow[]>`
        select flag, enabled, updated_at from feature_flags where flag = ${flag}
      `;
      return row ? toFlag(row) : null;
    },

    async set(flag, enabled) {
      const [row] = await sql<FlagRow[]>`
        insert into feature_flags (flag, enabled, updated_at) values (${flag}, ${enabled}, now())
        on conflict (flag) do update set enabled = excluded.enabled, updated_at = excluded.updated_at
        returning flag, enabled, updated_at
      `;
      return toFlag(row);
    },

    async seed(defaults) {
      // Sorted, so concurrent seeds take the row locks of `on conflict` in the same order and can
      // wait on each other but never deadlock.
      const rows = Object.entries(defaults)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([flag, enabled]) => ({ flag, enabled }));
      if (rows.length === 0) return;
      await sql`insert into feature_flags ${sql(rows, "flag", "enabled")} on conflict (flag) do nothing`;
    },
  };

  // ---- donors ----

  const donors: DonorRepository = {
    async create(input) {
      const d = canonicalDonor(input);
      const [row] = await sql<DonorRow[]>`
        insert into donors (
          id, first_name, last_name, email, country, created_at,
          payment_date, next_payment_date, monthly_payment_available
        ) values (
          ${d.id}, ${d.firstName}, ${d.lastName}, ${d.email}, ${d.country}, ${d.createdAt},
          ${d.paymentDate}, ${d.nextPaymentDate}, ${d.monthlyPaymentAvailable}
        )
        returning *
      `;
      return toDonor(row);
    },

    async get(id) {
      const [row] = await sql<DonorRow[]>`select * from donors where id = ${id}`;
      return row ? toDonor(row) : null;
    },

    async update(id, changes) {
      const set: Record<string, string | boolean | null> = {};
      if (changes.paymentDate !== undefined) {
        set.payment_date = isoInstantOrNull(changes.paymentDate, "paymentDate");
      }
      if (changes.nextPaymentDate !== undefined) {
        set.next_payment_date = isoInstantOrNull(changes.nextPaymentDate, "nextPaymentDate");
      }
      if (changes.monthlyPaymentAvailable !== undefined) {
        set.monthly_payment_available = changes.monthlyPaymentAvailable;
      }
      if (Object.keys(set).length === 0) return await donors.get(id);
      const [row] = await sql<DonorRow[]>`update donors set ${sql(set)} where id = ${id} returning *`;
      return row ? toDonor(row) : null;
    },
  };

  // ---- admins ----

  /**
   * Serializes the decisions that depend on "is any admin approved?" (a first registration with
   * `approveIfFirst`, and status changes) within this schema. Transaction-scoped: released on
   * commit or rollback.
   */
  const lockApprovals = (tx: postgres.TransactionSql) =>
    tx`select pg_advisory_xact_lock(hashtextextended('donations.admins.approvals:' || current_schema(), 0))`;

  const admins: AdminRepository = {
    async create(input, options = {}) {
      const given = canonicalAdmin(input);
      try {
        return await transaction(async (tx) => {
          let admin = given;
          if (options.approveIfFirst) {
            await lockApprovals(tx);
            // A new statement after the lock: sees every approval committed before it was granted.
            const [{ any }] = await tx<{ any: boolean }[]>`
              select exists (select 1 from admins where status = 'approved') as any
            `;
            if (!any) admin = autoApproved(given);
          }
          const [row] = await tx<AdminRow[]>`
            insert into admins (id, email, name, password_hash, status, created_at, decided_by, decided_at)
            values (
              ${admin.id}, ${admin.email}, ${admin.name}, ${admin.passwordHash}, ${admin.status},
              ${admin.createdAt}, ${admin.decidedBy}, ${admin.decidedAt}
            )
            returning *
          `;
          return toAdmin(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, "admins_email_key")) throw new EmailTakenError(given.email);
        throw error;
      }
    },

    async get(id) {
      const [row] = await sql<AdminRow[]>`select * from admins where id = ${id}`;
      return row ? toAdmin(row) : null;
    },

    async getByEmail(email) {
      const [row] = await sql<AdminRow[]>`select * from admins where email = ${normalizeEmail(email)}`;
      return row ? toAdmin(row) : null;
    },

    async listByStatus(status) {
      // `collate "C"` on the tie-breaker, as KV orders its keys.
      const rows = await sql<AdminRow[]>`
        select * from admins where status = ${status} order by created_at, id collate "C"
      `;
      return rows.map(toAdmin);
    },

    async setStatus(id, status, decidedBy, decidedAt) {
      const at = isoInstant(decidedAt, "decidedAt");
      return await transaction(async (tx) => {
        await lockApprovals(tx);
        const [row] = await tx<AdminRow[]>`
          update admins set status = ${status}, decided_by = ${decidedBy}, decided_at = ${at}
          where id = ${id}
          returning *
        `;
        return row ? toAdmin(row) : null;
      });
    },
  };

  // ---- refresh tokens ----

  const refreshTokens: RefreshTokenRepository = {
    async create(input) {
      const t = canonicalRefreshToken(input);
      await sql`
        insert into refresh_tokens (hash, admin_id, family_id, created_at, expires_at, used_at)
        values (${t.hash}, ${t.adminId}, ${t.familyId}, ${t.createdAt}, ${t.expiresAt}, ${t.usedAt})
      `;
    },

    async get(hash) {
      const [row] = await sql<RefreshTokenRow[]>`select * from refresh_tokens where hash = ${hash}`;
      return row ? toRefreshToken(row) : null;
    },

    async markUsed(hash, usedAt) {
      // The row lock makes concurrent updates wait; each re-checks `used_at is null` after the
      // winner commits, so exactly one of them updates the row.
      const rows = await sql`
        update refresh_tokens set used_at = ${isoInstant(usedAt, "usedAt")}
        where hash = ${hash} and used_at is null
        returning hash
      `;
      return rows.length === 1;
    },

    async revokeFamily(familyId, revokedAt) {
      await sql`
        insert into refresh_token_families_revoked (family_id, revoked_at)
        values (${familyId}, ${isoInstant(revokedAt, "revokedAt")})
        on conflict (family_id) do nothing
      `;
    },

    async isFamilyRevoked(familyId) {
      const rows = await sql`select 1 from refresh_token_families_revoked where family_id = ${familyId}`;
      return rows.length === 1;
    },

    async deleteExpired(before, limit) {
      // One short statement per batch; `skip locked` lets two sweepers share the work without
      // waiting on (or counting) each other's rows.
      const result = await sql`
        delete from refresh_tokens where hash in (
          select hash from refresh_tokens where expires_at < ${isoInstant(before, "before")}
          order by expires_at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },

    async deleteRevokedBefore(before, limit) {
      const result = await sql`
        delete from refresh_token_families_revoked where family_id in (
          select family_id from refresh_token_families_revoked where revoked_at < ${
        isoInstant(before, "before")
      }
          order by revoked_at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },
  };

  // ---- throttle ----

  /** The key's events (ms) later than `cutoff`, the most recent ones, oldest first. */
  const throttleTimes = async (q: postgres.Sql | postgres.TransactionSql, key: string, cutoff: number) => {
    const rows = await q<{ at: string }[]>`
      select at from throttle_events where key = ${key} and at > ${cutoff}
      order by at desc, id desc limit ${THROTTLE_MAX_EVENTS}
    `;
    return rows.map((row) => Number(row.at)).reverse();
  };

  const throttle: ThrottleRepository = {
    async record(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const cutoff = now - windowMs;
      return await transaction(async (tx) => {
        // One recorder per key at a time, so each answer counts every event recorded before it.
        await tx`select pg_advisory_xact_lock(hashtextextended('donations.throttle:' || ${key}, 0))`;
        await tx`insert into throttle_events (key, at) values (${key}, ${now})`;
        // Prune this key: events out of the window, and all but the most recent ones.
        await tx`
          delete from throttle_events
          where key = ${key} and (
            at <= ${cutoff}
            or id not in (
              select id from throttle_events where key = ${key}
              order by at desc, id desc limit ${THROTTLE_MAX_EVENTS}
            )
          )
        `;
        return await throttleTimes(tx, key, cutoff);
      });
    },

    async recent(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      return await throttleTimes(sql, key, now - windowMs);
    },

    async clear(key) {
      await sql`delete from throttle_events where key = ${key}`;
    },

    async deleteBefore(before, limit) {
      // `record` waits on its key's advisory lock, never on these row locks for long: a batch is
      // one statement, and `skip locked` never waits on a recorder's rows.
      const result = await sql`
        delete from throttle_events where id in (
          select id from throttle_events where at < ${checkInteger(before, "before")}
          order by at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },
  };

  // ---- nonces ----

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

  // ---- transactions ----

  const getByProviderId = async (provider: string, providerTransactionId: string) => {
    const [row] = await sql<TransactionRow[]>`
      select * from transactions
      where provider = ${provider} and provider_transaction_id = ${providerTransactionId}
    `;
    return row ? toTransaction(row) : null;
  };

  /** Rolls a record() transaction back when its (provider, id) pair turned out to exist. */
  const DUPLICATE = Symbol("duplicate");

  const listPage = async (
    kind: Transaction["kind"],
    isMonthly: boolean | undefined,
    query: TransactionQuery,
  ): Promise<Page<Transaction>> => {
    const { offset, limit } = pageWindow(query);
    const term = searchTermOf(query.search);
    const monthly = isMonthly === undefined ? sql`` : sql`and t.is_monthly = ${isMonthly}`;

    if (term === null) {
      // One statement, so the total and the page come from one snapshot: the counter row, joined
      // to the page's seq range of the list (an index range scan on the seq index).
      const seq = isMonthly === undefined ? sql`t.seq_all` : sql`t.seq_sub`;
      const rows = await sql<(TransactionRow & { total: string })[]>`
        select c.n as total, t.*
        from transaction_counters c
        left join transactions t
          on t.kind = ${kind} ${monthly}
          and ${seq} <= c.n - ${offset} and ${seq} > c.n - ${offset + limit}
        where c.list = ${listOf(kind, isMonthly)}
        order by ${seq} desc
      `;
      const total = rows.length === 0 ? 0 : Number(rows[0].total);
      return { data: rows.filter((row) => row.id !== null).map(toTransaction), total };
    }

    // Search (see migration 7).
    const rows = await searchPage(kind, isMonthly, term, offset, limit);
    const total = rows.length === 0 ? 0 : Number(rows[0].total);
    return { data: rows.filter((row) => row.id !== null).map(toTransaction), total };
  };

  /**
   * One page of a search and its total: rows of the page (or one row of nulls) carrying the total.
   * The trigram index on search_values finds the distinct donor fields that contain the term
   * (`like` on the lower-cased values, with the term's own %, _ and the escape character \
   * escaped, so they match literally). A first query counts them (up to a cap), which picks how
   * the second reads the total and the page; the second finds the fields again itself, so the
   * total and the page come from one snapshot.
   * - Up to {@link NARROW_SEARCH_VALUES} fields (a name, an email): the total is an index-only
   *   count of their entries in transaction_search (a transaction with two matching fields has
   *   two entries: counted once), the page the newest `offset + limit` entries of each, merged.
   * - Up to {@link PROBED_SEARCH_VALUES} (part of many emails): the same count; the page is the
   *   list read newest first and filtered, since the matches are then many.
   * - More (a letter, a domain): the total is one pass over the list's rows, cheaper then than
   *   most of the entries; the page as above.
   */
  const searchPage = async (
    kind: Transaction["kind"],
    isMonthly: boolean | undefined,
    term: string,
    offset: number,
    limit: number,
  ): Promise<(TransactionRow & { total: string })[]> => {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const parts = searchPartsOf(kind, isMonthly);
    const monthly = isMonthly === undefined ? sql`` : sql`and t.is_monthly = ${isMonthly}`;
    const values = sql`select value from search_values where value like ${pattern}`;
    const entries = sql`transaction_search s where s.part = any(${parts}::"char"[])`;
    const listed = sql`transactions t where t.kind = ${kind} ${monthly} and t.search_text like ${pattern}`;
    const [{ n }] = await sql<{ n: string }[]>`
      select count(*) as n from (${values} limit ${PROBED_SEARCH_VALUES + 1}) as m
    `;
    const matched = Number(n);
    if (matched === 0) return [];
    if (matched <= NARROW_SEARCH_VALUES) {
      return await sql<(TransactionRow & { total: string })[]>`
        with m as materialized (${values}),
        total as (
          select case
            when (select count(*) from m) = 1 then
              (select count(*) from ${entries} and s.value = (select value from m))
            else (select count(distinct s.seq_all) from ${entries} and s.value = any(array(select value from m)))
          end as n
        ),
        page as (
          select distinct x.seq
          from m
          cross join unnest(${parts}::"char"[]) as p (part)
          cross join lateral (
            select s.seq_all as seq from transaction_search s
            where s.part = p.part and s.value = m.value
            order by s.seq_all desc
            limit ${offset + limit}
          ) as x
          order by x.seq desc
          offset ${offset} limit ${limit}
        )
        select total.n as total, t.*
        from total
        left join (page join transactions t on t.kind = ${kind} and t.seq_all = page.seq) on true
        order by t.seq_all desc
      `;
    }
    const total = matched <= PROBED_SEARCH_VALUES
      ? sql`select count(distinct s.seq_all) as n from ${entries} and s.value = any(array(${values}))`
      : sql`select count(*) as n from ${listed}`;
    return await sql<(TransactionRow & { total: string })[]>`
      with total as (${total}),
      page as (select t.* from ${listed} order by t.seq_all desc offset ${offset} limit ${limit})
      select total.n as total, page.*
      from total left join page on true
      order by page.seq_all desc
    `;
  };

  const transactions: TransactionRepository = {
    async record(input) {
      const t = canonicalTransaction(input);
      const [allList, subList] = listsOf(t);
      if (t.providerTransactionId !== null) {
        const existing = await getByProviderId(t.provider, t.providerTransactionId);
        if (existing) return { created: false, transaction: existing };
      }
      // One statement, so the counters' lock is held only inside PostgreSQL (migration 11).
      let row: TransactionRow | typeof DUPLICATE;
      try {
        [row] = await sql<TransactionRow[]>`
          select * from record_transaction(
            ${sql.json(transactionColumns(t) as postgres.JSONValue)}, ${allList}, ${subList ?? null},
            ${searchPartOf(t)}, ${searchValuesOf(t.user)}::text[]
          )
        `;
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== "DR001") throw error;
        row = DUPLICATE;
      }
      if (row !== DUPLICATE) return { created: true, transaction: toTransaction(row) };
      // Another record of the same pair committed first.
      const existing = await getByProviderId(t.provider, t.providerTransactionId!);
      if (!existing) throw new Error(`transaction ${t.provider}/${t.providerTransactionId} vanished`);
      return { created: false, transaction: existing };
    },

    async import(input) {
      const batch = importBatch(input);
      if (batch.length === 0) return 0;
      return await transaction(async (tx) => {
        // Every list counter, locked in the order record() takes them (by name: each -all list
        // before its sub-lists): no record() of any list commits until this transaction does, so
        // the pairs found below are all there are, and numbers given here are not taken twice.
        const counters = new Map(
          (await tx<{ list: string; n: string }[]>`
            select list, n from transaction_counters order by list collate "C" for update
          `).map((row) => [row.list, Number(row.n)]),
        );
        // A new statement after the lock: sees every record() committed before it was granted.
        const paired = batch.filter((t) => t.providerTransactionId !== null);
        const existing = new Set(
          paired.length === 0 ? [] : (await tx<{ provider: string; ptid: string }[]>`
            select t.provider, t.provider_transaction_id as ptid
            from transactions t
            join unnest(
              ${paired.map((t) => t.provider)}::text[],
              ${paired.map((t) => t.providerTransactionId!)}::text[]
            ) as p (provider, ptid)
              on t.provider = p.provider and t.provider_transaction_id = p.ptid
          `).map((row) => JSON.stringify([row.provider, row.ptid])),
        );
        const fresh = batch.filter((t) =>
          t.providerTransactionId === null ||
          !existing.has(JSON.stringify([t.provider, t.providerTransactionId]))
        );
        if (fresh.length === 0) return 0;
        const before = new Map(counters);
        const rows = fresh.map((t) => {
          const [allList, subList] = listsOf(t);
          const seqAll = counters.get(allList)! + 1;
          counters.set(allList, seqAll);
          let seqSub: number | null = null;
          if (subList !== undefined) {
            seqSub = counters.get(subList)! + 1;
            counters.set(subList, seqSub);
          }
          return {
            ...transactionColumns(t),
            result_data: t.resultData === null ? null : sql.json(t.resultData as postgres.JSONValue),
            seq_all: seqAll,
            seq_sub: seqSub,
          };
        });
        // `on conflict do nothing` cannot skip a row here (the pairs were checked under the lock);
        // were it to, the list would get a gap, so the count is verified and the whole call undone.
        const inserted = await tx`
          insert into transactions ${tx(rows)}
          on conflict (provider, provider_transaction_id) do nothing
        `;
        if (inserted.count !== rows.length) {
          throw new Error(`import inserted ${inserted.count} of ${rows.length} new transactions`);
        }
        const values = [...new Set(fresh.flatMap((t) => searchValuesOf(t.user)))].sort();
        await tx`insert into search_values (value) select unnest(${values}::text[]) on conflict (value) do nothing`;
        const entries = fresh.flatMap((t, i) =>
          searchValuesOf(t.user).map((value) => [searchPartOf(t), value, rows[i].seq_all] as const)
        );
        await tx`
          insert into transaction_search (part, value, seq_all)
          select * from unnest(
            ${entries.map((e) => e[0])}::"char"[],
            ${entries.map((e) => e[1])}::text[],
            ${entries.map((e) => e[2])}::bigint[]
          )
        `;
        // Each counter moves once, by the number of its new rows.
        const lists = [...counters.keys()].filter((list) => counters.get(list) !== before.get(list));
        await tx`
          update transaction_counters c set n = c.n + d.added
          from unnest(
            ${lists}::text[],
            ${lists.map((list) => counters.get(list)! - before.get(list)!)}::bigint[]
          ) as d (list, added)
          where c.list = d.list
        `;
        return rows.length;
      });
    },

    async get(id) {
      const [row] = await sql<TransactionRow[]>`select * from transactions where id = ${id}`;
      return row ? toTransaction(row) : null;
    },

    getByProviderId,

    async listSuccess(query) {
      return await listPage("success", query.isMonthly, query);
    },

    async listErrors(query) {
      return await listPage("error", query.isMonthly, query);
    },

    async scan(query) {
      const { limit, term, before } = scanWindow(query);
      const { kind, isMonthly } = query;
      const monthly = isMonthly === undefined ? sql`` : sql`and t.is_monthly = ${isMonthly}`;
      let rows: (TransactionRow & { seq: string })[];
      if (term === null) {
        // An index range of the list below the cursor: (kind, seq_all) or (kind, is_monthly, seq_sub).
        const seq = isMonthly === undefined ? sql`t.seq_all` : sql`t.seq_sub`;
        rows = await sql<(TransactionRow & { seq: string })[]>`
          select ${seq} as seq, t.* from transactions t
          where t.kind = ${kind} ${monthly} ${before === null ? sql`` : sql`and ${seq} < ${before}`}
          order by ${seq} desc
          limit ${limit}
        `;
      } else {
        // A search walks seq_all (see searchPage): through the entries of the few matching field
        // values when there are few, else along the list itself.
        const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const below = before === null ? sql`` : sql`and s.seq_all < ${before}`;
        const values = sql`select value from search_values where value like ${pattern}`;
        const [{ n }] = await sql<{ n: string }[]>`
          select count(*) as n from (${values} limit ${NARROW_SEARCH_VALUES + 1}) as m
        `;
        rows = Number(n) <= NARROW_SEARCH_VALUES
          ? await sql<(TransactionRow & { seq: string })[]>`
            with m as materialized (${values}),
            batch as (
              select distinct x.seq
              from m
              cross join unnest(${searchPartsOf(kind, isMonthly)}::"char"[]) as p (part)
              cross join lateral (
                select s.seq_all as seq from transaction_search s
                where s.part = p.part and s.value = m.value ${below}
                order by s.seq_all desc
                limit ${limit}
              ) as x
              order by x.seq desc
              limit ${limit}
            )
            select t.seq_all as seq, t.* from batch join transactions t on t.kind = ${kind} and t.seq_all = batch.seq
            order by t.seq_all desc
          `
          : await sql<(TransactionRow & { seq: string })[]>`
            select t.seq_all as seq, t.* from transactions t
            where t.kind = ${kind} ${monthly} and t.search_text like ${pattern}
              ${before === null ? sql`` : sql`and t.seq_all < ${before}`}
            order by t.seq_all desc
            limit ${limit}
          `;
      }
      const last = rows.length === 0 ? 0 : Number(rows[rows.length - 1].seq);
      return { data: rows.map(toTransaction), next: rows.length === limit && last > 1 ? String(last) : null };
    },

    async dailyTotals(range) {
      const { from, to } = totalsRange(range);
      // A range of the partial index on successes' created_at (migration 9), summed per UTC day.
      const rows = await sql<{ day: string; currency: number; amount: string; count: number }[]>`
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, currency,
          sum(amount)::text as amount, count(*)::int as count
        from transactions
        where kind = 'success' and created_at >= ${from} and created_at < ${to}
          and amount is not null and currency is not null
        group by 1, 2
        order by 1, 2
      `;
      return rows.map((row) => ({
        day: row.day,
        currency: row.currency as DailyTotal["currency"],
        amount: Number(row.amount),
        count: row.count,
      }));
    },
  };

  // ---- payments ----

  const payments: PaymentRepository = {
    async createOrReuse(input, dedupeKey, windowMs, now) {
      const p = canonicalPayment(input);
      checkInteger(windowMs, "windowMs", 0);
      checkInteger(now, "now");
      // One call (migration 12): the dedupe key's lock, the decision and the insert run inside
      // PostgreSQL, with no round trip to the app while the lock is held.
      const columns = {
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
      };
      const [row] = await sql<PaymentRow[]>`
        select * from create_or_reuse_payment(
          ${sql.json(columns as postgres.JSONValue)}, ${dedupeKey}, ${windowMs}, ${now}
        )
      `;
      return { created: row.id === p.id, payment: toPayment(row) };
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

  // ---- subscriptions ----

  const getSubscription = async (id: string) => {
    const [row] = await sql<SubscriptionRow[]>`select * from subscriptions where id = ${id}`;
    return row ? toSubscription(row) : null;
  };

  const subscriptions: SubscriptionRepository = {
    async create(input) {
      const s = canonicalSubscription(input);
      const [row] = await sql<SubscriptionRow[]>`
        insert into subscriptions (
          id, donor_id, amount, currency, provider, token, card_masked, language, status, created_at,
          payment_date, next_payment_date, failed_attempts, retry_at, cancelled_at
        ) values (
          ${s.id}, ${s.donorId}, ${s.amount}, ${s.currency}, ${s.provider}, ${s.token}, ${s.cardMasked},
          ${s.language}, ${s.status}, ${s.createdAt}, ${s.paymentDate}, ${s.nextPaymentDate},
          ${s.failedAttempts}, ${s.retryAt}, ${s.cancelledAt}
        )
        on conflict (id) do nothing
        returning *
      `;
      if (row) return toSubscription(row);
      // `on conflict` waited for the other insert to commit: the row is there to read.
      const existing = await getSubscription(s.id);
      if (!existing) throw new Error(`subscription ${s.id} conflicted but is missing`);
      return existing;
    },

    get: getSubscription,

    async listByDonor(donorId) {
      const rows = await sql<SubscriptionRow[]>`
        select * from subscriptions where donor_id = ${donorId} order by created_at, id
      `;
      return rows.map(toSubscription);
    },

    async cancelForDonor(donorId, at) {
      // Row locks make a concurrent cancel wait, then skip the rows it no longer finds active.
      const rows = await sql`
        update subscriptions set status = 'cancelled', cancelled_at = ${isoInstant(at, "at")}
        where donor_id = ${donorId} and status = 'active'
        returning id
      `;
      return rows.length;
    },

    async listDue(now, limit) {
      checkInteger(limit, "limit", 1);
      // The expression of the partial index subscriptions_due (migration 8): one range scan.
      const rows = await sql<SubscriptionRow[]>`
        select * from subscriptions
        where status = 'active' and greatest(next_payment_date, retry_at) <= ${isoInstant(now, "now")}
        order by greatest(next_payment_date, retry_at), id
        limit ${limit}
      `;
      return rows.map(toSubscription);
    },

    async updateIfActive(id, input) {
      const set = columnsOf(subscriptionChanges(input), SUBSCRIPTION_COLUMNS);
      const [row] = Object.keys(set).length === 0
        ? await sql<SubscriptionRow[]>`select * from subscriptions where id = ${id} and status = 'active'`
        : await sql<SubscriptionRow[]>`
          update subscriptions set ${sql(set)} where id = ${id} and status = 'active' returning *
        `;
      return row ? toSubscription(row) : null;
    },
  };

  // ---- charges ----

  const charges: ChargeRepository = {
    async claim(input) {
      const c = canonicalCharge(input);
      const rows = await sql`
        insert into charges (
          subscription_id, period, attempt, status, reference, started_at, finished_at, transaction_id
        ) values (
          ${c.subscriptionId}, ${c.period}, ${c.attempt}, ${c.status}, ${c.reference}, ${c.startedAt},
          ${c.finishedAt}, ${c.transactionId}
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

  // ---- leases ----

  const leases: LeaseRepository = {
    async acquire(name, holder, now, ttlMs) {
      checkInteger(now, "now");
      checkInteger(ttlMs, "ttlMs", 1);
      // The row lock of `on conflict do update` serializes acquirers; each re-checks the `where`
      // against the row as the previous one left it.
      const rows = await sql`
        insert into leases (name, holder, expires_at) values (${name}, ${holder}, ${now + ttlMs})
        on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where leases.holder = excluded.holder or leases.expires_at <= ${now}
        returning name
      `;
      return rows.length === 1;
    },

    async release(name, holder) {
      await sql`delete from leases where name = ${name} and holder = ${holder}`;
    },
  };

  // ---- sandbox ----

  const sandbox: SandboxRepository = {
    async create(input) {
      const r = canonicalSandboxRecord(input);
      await sql`
        insert into sandbox_records (
          ref, kind, status, reference, terminal_id, amount, currency, created_at, updated_at, data
        ) values (
          ${r.ref}, ${r.kind}, ${r.status}, ${r.reference}, ${r.terminalId}, ${r.amount}, ${r.currency},
          ${r.createdAt}, ${r.updatedAt}, ${sql.json(r.data as postgres.JSONValue)}
        )
      `;
    },

    async get(ref) {
      const [row] = await sql<SandboxRow[]>`select * from sandbox_records where ref = ${ref}`;
      return row ? toSandboxRecord(row) : null;
    },

    async transition(ref, from, to, data, at) {
      const updatedAt = isoInstant(at, "at");
      // `||` merges two jsonb objects shallowly, as mergeSandboxData does for KV; the row lock
      // makes a racing transition wait and then find the status changed.
      const patch = jsonObject(data, "data");
      const rows = await sql`
        update sandbox_records
        set status = ${to}, updated_at = ${updatedAt}, data = data || ${sql.json(patch as postgres.JSONValue)}
        where ref = ${ref} and status = ${from}
        returning ref
      `;
      return rows.length === 1;
    },

    async findByReference(reference) {
      const [row] = await sql<SandboxRow[]>`
        select * from sandbox_records where reference = ${reference}
        order by created_at desc, ref desc limit 1
      `;
      return row ? toSandboxRecord(row) : null;
    },

    async listByTerminal(terminalId, status) {
      const rows = await sql<SandboxRow[]>`
        select * from sandbox_records where terminal_id = ${terminalId} and status = ${status}
        order by created_at, ref
      `;
      return rows.map(toSandboxRecord);
    },

    async listUpdatedBefore(before, limit, after) {
      const end = isoInstant(before, "before");
      const n = batchLimit(limit);
      const rows = after
        ? await sql<SandboxRow[]>`
          select * from sandbox_records
          where updated_at < ${end}
            and (updated_at, ref) > (${
          isoInstant(after.updatedAt, "after.updatedAt")
        }::timestamptz, ${after.ref})
          order by updated_at, ref limit ${n}
        `
        : await sql<SandboxRow[]>`
          select * from sandbox_records where updated_at < ${end} order by updated_at, ref limit ${n}
        `;
      return rows.map(toSandboxRecord);
    },

    async deleteUnchanged(records) {
      if (records.length > MAX_BATCH) throw new RangeError(`at most ${MAX_BATCH} records per call`);
      if (records.length === 0) return 0;
      // A record transitioned since it was read has another updated_at and stays; the row lock
      // makes a concurrent transition (or a second sweeper) wait, then re-check.
      const result = await sql`
        delete from sandbox_records s
        using unnest(
          ${records.map((r) => r.ref)}::text[],
          ${records.map((r) => isoInstant(r.updatedAt, "updatedAt"))}::timestamptz[]
        ) as x (ref, updated_at)
        where s.ref = x.ref and s.updated_at = x.updated_at
      `;
      return result.count;
    },
  };

  const g = <T extends object>(name: string, repo: T) => guarded(name, repo, operationTimeoutMs);
  return {
    kind: "postgres",
    flags: g("flags", flags),
    donors: g("donors", donors),
    admins: g("admins", admins),
    refreshTokens: g("refreshTokens", refreshTokens),
    throttle: g("throttle", throttle),
    nonces: g("nonces", nonces),
    transactions: g("transactions", transactions),
    payments: g("payments", payments),
    subscriptions: g("subscriptions", subscriptions),
    charges: g("charges", charges),
    leases: g("leases", leases),
    sandbox: g("sandbox", sandbox),
    ...g("store", {
      async ping() {
        await sql`select 1`;
      },
    }),
    close,
  };
}

/** Errors after which a connection's socket is gone: postgres.js's, the socket's and the server's. */
const GONE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "57P01",
  "57P02",
]);

/** Runs a body in a transaction; see {@link transactionRunner}. */
export type TransactionRunner = <T>(body: (tx: postgres.TransactionSql) => Promise<T>) => Promise<T>;

/**
 * Runs bodies in transactions (`sql.begin`) on `sql`, a pool kept for transactions, at most
 * `slots` (its size) at once, working around two faults of postgres.js 3.4.9, the latest release
 * (neither is fixed in it):
 * - when no connection is idle, `sql.begin` may pipeline BEGIN onto a busy connection without
 *   reserving it: the BEGIN fails with UNSAFE_TRANSACTION, and the transaction it opened on the
 *   server stays open on a connection back in the pool, where unrelated statements then run
 *   inside it (porsager/postgres#823, #1189; seen here under the load test). With one transaction
 *   per connection of a pool of their own, a BEGIN always finds an idle connection (or opens one);
 * - when the connection dies inside the transaction (PostgreSQL stopped or restarted, the network
 *   cut), `sql.begin` answers the failed body with ROLLBACK on the dead connection, and that write
 *   throws from a `setImmediate` callback: an uncaught TypeError ("Cannot read properties of null
 *   (reading 'write')") that ends the whole process (#1066, #1154, #1208). So a body that fails
 *   because its connection is gone never settles instead: postgres.js then rejects the `begin`
 *   itself as the close reaches its pool, and sends nothing more on the dead connection (the
 *   server rolls back a transaction whose connection is lost). The dropped body is collected.
 */
export function transactionRunner(sql: postgres.Sql, slots: number): TransactionRunner {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async <T>(body: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await sql.begin((tx) =>
        body(tx).catch((error) => {
          if (connectionGone(error)) return new Promise<T>(() => {});
          throw error;
        })
      ) as T;
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/** Whether an error means the connection's socket is gone (postgres.js's, the socket's, the server's). */
function connectionGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && GONE_CODES.has(code);
}

/** Error codes of postgres.js and of the socket that mean "the server cannot be reached". */
const UNREACHABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Whether an error means PostgreSQL is unavailable rather than that a query was wrong: a socket or
 * connection failure, or a server answer of SQLSTATE class 08 (connection exception), 57P01-57P03
 * (shutting down, crashed, starting up) or 53300 (too many connections).
 *
 * @example
 * ```ts
 * isUnavailable(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })); // true
 * ```
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return /^(08|57P0[123]$|53300$)/.test(error.code);
  if (
    error instanceof Deno.errors.ConnectionRefused || error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted || error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.TimedOut
  ) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNREACHABLE_CODES.has(code);
}

/**
 * The repository with every method bounded: a call that fails because PostgreSQL is unavailable,
 * or that gets no answer within `timeoutMs`, rejects with {@link StorageUnavailableError} (the app
 * answers 503) instead of a 500 or a request that hangs. A timed-out statement may still finish
 * on the server later; the store's writes are idempotent or atomic, so a retry is safe.
 */
function guarded<T extends object>(name: string, repo: T, timeoutMs: number): T {
  const out: Record<string, unknown> = {};
  for (const [method, value] of Object.entries(repo)) {
    if (typeof value !== "function") {
      out[method] = value;
      continue;
    }
    out[method] = async (...args: unknown[]) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        return await Promise.race([
          value.apply(repo, args),
          new Promise((_, reject) => {
            timer = setTimeout(
              () =>
                reject(
                  new StorageUnavailableError(
                    `PostgreSQL did not answer ${name}.${method} within ${timeoutMs} ms`,
                  ),
                ),
              timeoutMs,
            );
          }),
        ]);
      } catch (error) {
        if (error instanceof StorageUnavailableError || !isUnavailable(error)) throw error;
        throw new StorageUnavailableError(
          `PostgreSQL is unavailable (${name}.${method}): ${(error as Error).message}`,
          { cause: error },
        );
      } finally {
        clearTimeout(timer);
      }
    };
  }
  return out as T;
}

/** Creates the schema and applies pending migrations, all in one transaction. */
async function migrate(transaction: TransactionRunner, schema: string | undefined): Promise<void> {
  await transaction(async (tx) => {
    // Transaction-scoped, so it is released on commit, on rollback, and when the connection dies.
    // Keyed by schema: migrating test schemas in parallel does not serialize on one lock.
    await tx`select pg_advisory_xact_lock(hashtext(${`donations.migrate:${schema ?? ""}`}))`;
    // Inside the lock: two sessions running `create schema if not exists` at once can still fail
    // on the catalog's unique index.
    if (schema !== undefined) await tx`create schema if not exists ${tx(schema)}`;
    await tx`
      create table if not exists schema_migrations (
        version int primary key,
        name text not null,
        applied_at timestamptz not null default now()
      )
    `;
    const applied = new Set(
      (await tx<{ version: number }[]>`select version from schema_migrations`).map((r) => r.version),
    );
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      // `unsafe` without parameters uses the simple protocol, which allows several statements.
      await tx.unsafe(migration.sql);
      await tx`
        insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})
      `;
    }
  });
}

/** Fails fast on a malformed migration list instead of half-migrating a database. */
function checkMigrations(list: readonly Migration[]): void {
  list.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `migrations must be numbered 1, 2, 3, ...: found version ${migration.version} at position ${
          index + 1
        }`,
      );
    }
  });
}
