/**
 * The PostgreSQL schema, as an ordered list of migrations (one file each under `migrations/`), and
 * the runner that applies them.
 *
 * `openPostgresStore` calls {@link migrate} at open: the pending migrations run in one
 * transaction under an advisory lock, and each is recorded in `schema_migrations`, so any number of
 * instances can start at once against a new database: the first one migrates, the others wait for
 * it and find nothing left to do. Which concept uses which table, and why it is shaped so, is
 * written at the top of that concept's file (`donors.ts`, `transactions.ts`, ...).
 *
 * Rules, because a migration that already ran on some database is history:
 * - append only: never edit, renumber or remove a migration that has been merged;
 * - versions are consecutive integers starting at 1, given when a change is merged (a database
 *   migrated out of order could differ from one migrated in order);
 * - write plain SQL with unqualified names: the store's `search_path` decides the schema, which is
 *   how tests run on throwaway schemas;
 * - several statements in one `sql` are fine (it runs over the simple query protocol).
 *
 * @module
 */

import type { TransactionRunner } from "./availability.ts";
import { migration001 } from "@/lib/storage/postgres/migrations/001_feature_flags.ts";
import { migration002 } from "@/lib/storage/postgres/migrations/002_donors.ts";
import { migration003 } from "@/lib/storage/postgres/migrations/003_admins.ts";
import { migration004 } from "@/lib/storage/postgres/migrations/004_refresh_tokens.ts";
import { migration005 } from "@/lib/storage/postgres/migrations/005_throttle_events_and_nonces.ts";
import { migration006 } from "@/lib/storage/postgres/migrations/006_transactions.ts";
import { migration007 } from "@/lib/storage/postgres/migrations/007_transaction_search_values.ts";
import { migration008 } from "@/lib/storage/postgres/migrations/008_payments_billing_sandbox.ts";
import { migration009 } from "@/lib/storage/postgres/migrations/009_error_sub_lists_and_daily_totals.ts";
import { migration010 } from "@/lib/storage/postgres/migrations/010_retention_and_pending_payments.ts";
import { migration011 } from "@/lib/storage/postgres/migrations/011_record_transaction_function.ts";
import { migration012 } from "@/lib/storage/postgres/migrations/012_create_or_reuse_payment_function.ts";
import { migration013 } from "@/lib/storage/postgres/migrations/013_rate_limits.ts";
import { migration014 } from "@/lib/storage/postgres/migrations/014_kiosk_devices.ts";
import { migration015 } from "@/lib/storage/postgres/migrations/015_throttle_reserve_and_refresh_family_start.ts";
import { migration016 } from "@/lib/storage/postgres/migrations/016_rate_limits_async_commit.ts";
import { migration017 } from "@/lib/storage/postgres/migrations/017_outbox.ts";
import { migration018 } from "@/lib/storage/postgres/migrations/018_receipts.ts";
import { migration019 } from "@/lib/storage/postgres/migrations/019_donor_israeli_id.ts";
import { migration020 } from "@/lib/storage/postgres/migrations/020_rate_limit_admit.ts";
import { migration021 } from "@/lib/storage/postgres/migrations/021_donor_sessions.ts";
import { migration022 } from "@/lib/storage/postgres/migrations/022_subscription_changes.ts";
import { migration023 } from "@/lib/storage/postgres/migrations/023_subscription_cancel_reasons.ts";
import { migration024 } from "@/lib/storage/postgres/migrations/024_donor_privacy.ts";
import { migration025 } from "@/lib/storage/postgres/migrations/025_card_updates.ts";
import { migration026 } from "@/lib/storage/postgres/migrations/026_audit_log.ts";
import { migration027 } from "@/lib/storage/postgres/migrations/027_admin_roles.ts";
import { migration028 } from "@/lib/storage/postgres/migrations/028_refunds.ts";
import { migration029 } from "@/lib/storage/postgres/migrations/029_two_factor.ts";
import { migration030 } from "@/lib/storage/postgres/migrations/030_report_indexes.ts";
import { migration031 } from "@/lib/storage/postgres/migrations/031_refund_cards.ts";
import { migration032 } from "@/lib/storage/postgres/migrations/032_donor_records.ts";
import { migration033 } from "@/lib/storage/postgres/migrations/033_donor_session_scopes.ts";
import { migration034 } from "@/lib/storage/postgres/migrations/034_museum_settings.ts";
import { migration035 } from "@/lib/storage/postgres/migrations/035_memberships.ts";
import { migration036 } from "@/lib/storage/postgres/migrations/036_membership_cardholders.ts";
import { migration037 } from "@/lib/storage/postgres/migrations/037_receipt_membership.ts";
import { migration040 } from "@/lib/storage/postgres/migrations/040_museum_images.ts";
import { migration038 } from "@/lib/storage/postgres/migrations/038_membership_list_indexes.ts";
import { migration039 } from "@/lib/storage/postgres/migrations/039_membership_auto_renew.ts";
import { migration041 } from "@/lib/storage/postgres/migrations/041_visits.ts";
import { migration042 } from "@/lib/storage/postgres/migrations/042_gift_memberships.ts";

/** One step of the schema. */
export interface Migration {
  /** Position in the history: 1, 2, 3, ... */
  readonly version: number;
  /** A short snake_case name, recorded next to the version for humans. */
  readonly name: string;
  /** The SQL to run, once, inside the migration transaction. */
  readonly sql: string;
}

/**
 * Every migration, oldest first.
 *
 * @example Inspect the latest version
 * ```ts
 * import { migrations } from "./migrations.ts";
 * console.log(migrations.at(-1)?.version);
 * ```
 */
export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
  migration025,
  migration026,
  migration027,
  migration028,
  migration029,
  migration030,
  migration031,
  migration032,
  migration033,
  migration034,
  migration035,
  migration036,
  migration037,
  migration038,
  migration039,
  migration040,
  migration041,
  migration042,
];

/**
 * Creates the schema and applies pending migrations, all in one transaction.
 *
 * @example
 * ```ts
 * await migrate(transactionRunner(txSql, 1), "test_schema");
 * ```
 */
export async function migrate(transaction: TransactionRunner, schema: string | undefined): Promise<void> {
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

/**
 * Fails fast on a malformed migration list instead of half-migrating a database.
 *
 * @example
 * ```ts
 * checkMigrations(migrations); // throws unless numbered 1, 2, 3, ...
 * ```
 */
export function checkMigrations(list: readonly Migration[]): void {
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
