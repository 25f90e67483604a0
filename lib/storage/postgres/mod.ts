/**
 * The {@link Store} on PostgreSQL through postgres.js, used when `DATABASE_URL` is set.
 *
 * Opening creates two pools, applies pending migrations (`migrations.ts`: one transaction under an
 * advisory lock, so any number of instances can start at once against a new database: the first
 * one migrates, the others wait for it and find nothing left to do), and assembles the store from
 * one factory per concept, each given the same {@link PgContext}.
 *
 * Pools: single statements share one pool; transactions run on a pool of their own, one
 * transaction per connection, through `transactionRunner` (`availability.ts` says why: two faults
 * of postgres.js). `max` connections are split between the two, half for transactions.
 *
 * Availability: every repository call is bounded (`operationTimeoutMs`, 10 s by default) and fails
 * with `StorageUnavailableError` when PostgreSQL cannot be reached or does not answer in time
 * (the app answers 503); the pools reconnect by themselves, waiting at most a second between
 * attempts, so the store works again within about a second of PostgreSQL's return.
 *
 * How the contract's promises are kept, in general: an atomic promise is one statement wherever it
 * can be (`insert ... on conflict`, `update ... where <state> returning`: the row lock serializes
 * racers, and each re-checks the condition), or one call of a PL/pgSQL function (migrations 11 and
 * 12) so no lock is held across a round trip to the app; where a decision spans rows, a
 * transaction-scoped advisory lock serializes it. Every bounded read is a range of an index made
 * for it; retention deletes a batch per statement with `for update skip locked`. Times in
 * milliseconds (throttle, nonces, leases) are `bigint` columns and instants `timestamptz`, both
 * mapped back to the contract's numbers and ISO strings. Each concept's file starts with its
 * tables, indexes and functions (with the migrations that made them) and why they are so:
 *
 * | File                   | Repository                     | Tables                                                  |
 * | ---------------------- | ------------------------------ | ------------------------------------------------------- |
 * | `flags.ts`             | `flags`                        | `feature_flags`                                         |
 * | `donors.ts`            | `donors`                       | `donors`                                                |
 * | `admins.ts`            | `admins`                       | `admins`                                                |
 * | `refresh_tokens.ts`    | `refreshTokens`                | `refresh_tokens`, `refresh_token_families_revoked`      |
 * | `throttle.ts`          | `throttle`                     | `throttle_events`                                       |
 * | `nonces.ts`            | `nonces`                       | `nonces`                                                |
 * | `rate_limits.ts`       | `rateLimits`                   | `rate_limits`, `rate_limit_origins`                     |
 * | `transactions.ts`      | `transactions` (writes)        | `transactions`, `transaction_counters`, search tables   |
 * | `transaction_lists.ts` | `transactions` (pages, scans)  | the same, read                                          |
 * | `transaction_rows.ts`  | (row shape, search parts)      | `transactions`, `search_values`, `transaction_search`   |
 * | `payments.ts`          | `payments`                     | `payments`                                              |
 * | `subscriptions.ts`     | `subscriptions`                | `subscriptions`                                         |
 * | `charges.ts`           | `charges`                      | `charges`                                               |
 * | `leases.ts`            | `leases`                       | `leases`                                                |
 * | `sandbox.ts`           | `sandbox`                      | `sandbox_records`                                       |
 * | `kiosk_devices.ts`     | `kioskDevices`                 | `kiosk_devices`                                         |
 * | `outbox.ts`            | `outbox` (and causes' messages) | `outbox`                                               |
 * | `receipts.ts`          | `receipts`                     | `receipts`, `receipt_counters`                          |
 * | `donor_sessions.ts`    | `donorSessions`                | `donor_sign_ins`, `donor_sessions`                      |
 * | `audit.ts`             | `audit` (and causes' entries)  | `audit_log`                                             |
 * | `two_factor.ts`        | `twoFactor`                    | `admin_two_factor`, `two_factor_policy`                 |
 * | `donor_erasure.ts`     | `donors.erase`                 | `donors`, `transactions`, search tables                 |
 * | `card_updates.ts`      | `cardUpdates`                  | `card_updates`                                          |
 * | `refunds.ts`           | `refunds`                      | `refunds`                                               |
 * | `reports.ts`           | `reports` (reads only)         | `transactions`, `subscriptions`                         |
 * | `museum.ts`            | `museum`                       | `museum_settings`                                       |
 * | `memberships.ts`       | `memberships`                  | `memberships`                                           |
 * | `visits.ts`            | `visits`                       | `visits`                                                |
 *
 * Beside them: `context.ts` (the {@link PgContext} and shared helpers), `availability.ts` (the
 * outage guard and the transaction runner), `migrations.ts` and `migrations/` (the schema).
 *
 * @module
 */

import postgres from "postgres";
import type { Store } from "@/lib/storage/types.ts";
import { guarded, OPERATION_TIMEOUT_MS, transactionRunner } from "./availability.ts";
import { pgAdmins } from "./admins.ts";
import { pgCharges } from "./charges.ts";
import type { PgContext } from "./context.ts";
import { pgDonors } from "./donors.ts";
import { pgDonorSessions } from "./donor_sessions.ts";
import { pgCardUpdates } from "./card_updates.ts";
import { pgFlags } from "./flags.ts";
import { pgKioskDevices } from "./kiosk_devices.ts";
import { pgLeases } from "./leases.ts";
import { checkMigrations, migrate, migrations } from "./migrations.ts";
import { pgNonces } from "./nonces.ts";
import { pgOutbox } from "./outbox.ts";
import { pgAudit } from "./audit.ts";
import { pgRefunds } from "./refunds.ts";
import { pgMuseum } from "./museum.ts";
import { pgMemberships } from "./memberships.ts";
import { pgVisits } from "./visits.ts";
import { pgTwoFactor } from "./two_factor.ts";
import { pgPayments } from "./payments.ts";
import { pgReceipts } from "./receipts.ts";
import { pgRefreshTokens } from "./refresh_tokens.ts";
import { pgSandbox } from "./sandbox.ts";
import { pgSubscriptions } from "./subscriptions.ts";
import { pgReports } from "./reports.ts";
import { pgThrottle } from "./throttle.ts";
import { pgRateLimits } from "./rate_limits.ts";
import { pgTransactions } from "./transactions.ts";

export {
  isUnavailable,
  OPERATION_TIMEOUT_MS,
  type TransactionRunner,
  transactionRunner,
} from "./availability.ts";
export type { PgContext } from "./context.ts";

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
   * `StorageUnavailableError`; default {@link OPERATION_TIMEOUT_MS}.
   */
  operationTimeoutMs?: number;
}

// A schema name goes into the startup `search_path` parameter and into DDL; allowing only plain
// identifiers means it never needs quoting in either place.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Connects to PostgreSQL at `url`, applies pending migrations, and answers the store.
 *
 * @example Open the production store
 * ```ts
 * import { openPostgresStore } from "./mod.ts";
 * const store = await openPostgresStore(Deno.env.get("DATABASE_URL")!);
 * await store.ping();
 * await store.close();
 * ```
 *
 * @example Tests: a throwaway schema
 * ```ts
 * import { openPostgresStore } from "./mod.ts";
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

  const ctx: PgContext = { sql, transaction, schema, operationTimeoutMs };
  const g = <T extends object>(name: string, repo: T) => guarded(name, repo, operationTimeoutMs);
  return {
    kind: "postgres",
    flags: g("flags", pgFlags(ctx)),
    donors: g("donors", pgDonors(ctx)),
    admins: g("admins", pgAdmins(ctx)),
    refreshTokens: g("refreshTokens", pgRefreshTokens(ctx)),
    throttle: g("throttle", pgThrottle(ctx)),
    nonces: g("nonces", pgNonces(ctx)),
    rateLimits: g("rateLimits", pgRateLimits(ctx)),
    transactions: g("transactions", pgTransactions(ctx)),
    payments: g("payments", pgPayments(ctx)),
    subscriptions: g("subscriptions", pgSubscriptions(ctx)),
    charges: g("charges", pgCharges(ctx)),
    leases: g("leases", pgLeases(ctx)),
    sandbox: g("sandbox", pgSandbox(ctx)),
    kioskDevices: g("kioskDevices", pgKioskDevices(ctx)),
    outbox: g("outbox", pgOutbox(ctx)),
    audit: g("audit", pgAudit(ctx)),
    reports: g("reports", pgReports(ctx)),
    receipts: g("receipts", pgReceipts(ctx)),
    donorSessions: g("donorSessions", pgDonorSessions(ctx)),
    cardUpdates: g("cardUpdates", pgCardUpdates(ctx)),
    refunds: g("refunds", pgRefunds(ctx)),
    twoFactor: g("twoFactor", pgTwoFactor(ctx)),
    museum: g("museum", pgMuseum(ctx)),
    memberships: g("memberships", pgMemberships(ctx)),
    visits: g("visits", pgVisits(ctx)),
    ...g("store", {
      async ping() {
        await sql`select 1`;
      },
    }),
    close,
  };
}
