/**
 * The {@link Store} on PostgreSQL through postgres.js, used when `DATABASE_URL` is set.
 *
 * Opening applies pending {@link migrations} in one transaction under an advisory lock, so any
 * number of instances can start at once against a new database: the first one migrates, the others
 * wait for it and find nothing left to do.
 *
 * @module
 */

import postgres from "postgres";
import type { FeatureFlag, FlagRepository, Store } from "./types.ts";
import { type Migration, migrations } from "./migrations.ts";

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

  return {
    kind: "postgres",
    flags,
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
