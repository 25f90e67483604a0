/**
 * The PostgreSQL schema, as an ordered list of migrations.
 *
 * `openPostgresStore` applies the pending ones at open, in one transaction, and records each in
 * `schema_migrations`. Rules, because a migration that already ran on some database is history:
 * - append only: never edit, renumber or remove a migration that has been merged;
 * - versions are consecutive integers starting at 1;
 * - write plain SQL with unqualified names: the store's `search_path` decides the schema, which is
 *   how tests run on throwaway schemas;
 * - several statements in one `sql` are fine (it runs over the simple query protocol).
 *
 * @module
 */

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
  {
    version: 1,
    name: "feature_flags",
    sql: `
      create table feature_flags (
        flag text primary key,
        enabled boolean not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
];
