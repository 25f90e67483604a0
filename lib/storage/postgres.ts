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
 * - nonces: `insert ... on conflict do nothing`, after deleting the nonce's expired claim; expired
 *   rows of other nonces are swept a few at a time (`for update skip locked`);
 * - transactions: idempotent through a unique `(provider, provider_transaction_id)`; dense sequence
 *   numbers per list from `transaction_counters` (`update ... set n = n + 1 returning n` inside the
 *   insert's transaction, rolled back with it), so a page is an index range on `(kind, seq_all)` or
 *   `(kind, is_monthly, seq_sub)`, total from the counter, in one statement. A search uses the
 *   trigram (pg_trgm GIN) index on the lower-cased `search_text` with `like`, `%`, `_` and `\`
 *   escaped, ordered by sequence with offset and limit.
 *
 * Times in milliseconds (throttle, nonces) are `bigint` columns and instants `timestamptz`, both
 * mapped back to the contract's numbers and ISO strings.
 *
 * @module
 */

import postgres from "postgres";
import {
  type Admin,
  type AdminRepository,
  type AdminStatus,
  type Donor,
  type DonorRepository,
  EmailTakenError,
  type FeatureFlag,
  type FlagRepository,
  type NonceRepository,
  type Page,
  type RefreshToken,
  type RefreshTokenRepository,
  type ResultData,
  type Store,
  type ThrottleRepository,
  type Transaction,
  type TransactionQuery,
  type TransactionRepository,
} from "./types.ts";
import { type Migration, migrations } from "./migrations.ts";
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
  THROTTLE_MAX_EVENTS,
} from "./mod.ts";

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * A schema to keep every table in, created when missing; the default is the server's
   * `search_path` (usually `public`). Lower-case letters, digits and `_` only.
   */
  schema?: string;
  /** Maximum connections in the pool; default 10. */
  max?: number;
}

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

/** Whether `error` is PostgreSQL's unique violation (23505) of the named constraint. */
const isUniqueViolation = (error: unknown, constraint: string) =>
  error instanceof postgres.PostgresError && error.code === "23505" && error.constraint_name === constraint;

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
  const { schema, max = 10 } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new TypeError(`invalid schema name ${JSON.stringify(schema)}: use [a-z_][a-z0-9_]*`);
  }
  checkMigrations(migrations);

  const sql = postgres(url, {
    max,
    connect_timeout: 5,
    // Server notices ("relation already exists, skipping", ...) are not ours to print.
    onnotice: () => {},
    // Every pooled connection starts with this search_path, so unqualified names (migrations and
    // queries alike) resolve inside the schema. It may name a schema that does not exist yet:
    // PostgreSQL resolves search_path lazily, and `migrate` creates the schema.
    ...(schema === undefined ? {} : { connection: { search_path: schema } }),
  });

  let closing: Promise<void> | undefined;
  const close = () => (closing ??= sql.end({ timeout: 5 }));

  try {
    await migrate(sql, schema);
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
        return await sql.begin(async (tx) => {
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
      return await sql.begin(async (tx) => {
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
      return await sql.begin(async (tx) => {
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
  };

  // ---- nonces ----

  const nonces: NonceRepository = {
    async claim(nonce, expiresAt) {
      checkInteger(expiresAt, "expiresAt");
      const now = Date.now();
      return await sql.begin(async (tx) => {
        // An expired claim of this nonce makes way for a new one. A concurrent claimer of the same
        // nonce waits on this row lock, then finds the row gone and our new one in conflict.
        await tx`delete from nonces where nonce = ${nonce} and expires_at <= ${now}`;
        const inserted = await tx`
          insert into nonces (nonce, expires_at) values (${nonce}, ${expiresAt})
          on conflict (nonce) do nothing
          returning nonce
        `;
        // Housekeeping: a few other expired nonces, skipping rows someone else holds (no waiting,
        // no deadlocks).
        await tx`
          delete from nonces where ctid = any (array (
            select ctid from nonces where expires_at <= ${now} limit 100 for update skip locked
          ))
        `;
        return inserted.length === 1;
      });
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

    // Search: the trigram index finds the matches; `like` on the lower-cased column, with the
    // term's own % and _ (and the escape character \) escaped, so they match literally.
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await sql<(TransactionRow & { total: string })[]>`
      select t.*, count(*) over () as total
      from transactions t
      where t.kind = ${kind} ${monthly} and t.search_text like ${pattern}
      order by t.seq_all desc
      offset ${offset} limit ${limit}
    `;
    if (rows.length > 0) return { data: rows.map(toTransaction), total: Number(rows[0].total) };
    if (offset === 0) return { data: [], total: 0 };
    // A page past the end has no row to carry the count.
    const [{ total }] = await sql<{ total: string }[]>`
      select count(*) as total from transactions t
      where t.kind = ${kind} ${monthly} and t.search_text like ${pattern}
    `;
    return { data: [], total: Number(total) };
  };

  const transactions: TransactionRepository = {
    async record(input) {
      const t = canonicalTransaction(input);
      const [allList, subList] = listsOf(t);
      if (t.providerTransactionId !== null) {
        const existing = await getByProviderId(t.provider, t.providerTransactionId);
        if (existing) return { created: false, transaction: existing };
      }
      let row: TransactionRow | typeof DUPLICATE;
      try {
        row = await sql.begin(async (tx) => {
          // Counters are locked in a fixed order (the -all list first), so concurrent records wait
          // on each other but never deadlock; the numbers stay dense because a rollback (below, or
          // on any error) undoes the increments too.
          const [all] = await tx<{ n: string }[]>`
            update transaction_counters set n = n + 1 where list = ${allList} returning n
          `;
          const sub = subList === undefined ? null : (await tx<{ n: string }[]>`
            update transaction_counters set n = n + 1 where list = ${subList} returning n
          `)[0].n;
          const [inserted] = await tx<TransactionRow[]>`
            insert into transactions (
              id, kind, status_code, is_monthly, created_at, donor_id,
              user_first_name, user_last_name, user_email, amount, currency, result_data,
              error_message, provider, provider_transaction_id, search_text, seq_all, seq_sub
            ) values (
              ${t.id}, ${t.kind}, ${t.statusCode}, ${t.isMonthly}, ${t.createdAt}, ${t.donorId},
              ${t.user.firstName}, ${t.user.lastName}, ${t.user.email}, ${t.amount}, ${t.currency},
              ${t.resultData === null ? null : sql.json(t.resultData as postgres.JSONValue)},
              ${t.errorMessage}, ${t.provider}, ${t.providerTransactionId}, ${searchTextOf(t.user)},
              ${all.n}, ${sub}
            )
            on conflict (provider, provider_transaction_id) do nothing
            returning *
          `;
          if (!inserted) throw DUPLICATE;
          return inserted;
        });
      } catch (error) {
        if (error !== DUPLICATE) throw error;
        row = DUPLICATE;
      }
      if (row !== DUPLICATE) return { created: true, transaction: toTransaction(row) };
      // Another record of the same pair committed first.
      const existing = await getByProviderId(t.provider, t.providerTransactionId!);
      if (!existing) throw new Error(`transaction ${t.provider}/${t.providerTransactionId} vanished`);
      return { created: false, transaction: existing };
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
      return await listPage("error", undefined, query);
    },
  };

  return {
    kind: "postgres",
    flags,
    donors,
    admins,
    refreshTokens,
    throttle,
    nonces,
    transactions,
    async ping() {
      await sql`select 1`;
    },
    close,
  };
}

/** Creates the schema and applies pending migrations, all in one transaction. */
async function migrate(sql: postgres.Sql, schema: string | undefined): Promise<void> {
  await sql.begin(async (tx) => {
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
