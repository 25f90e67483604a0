/**
 * The storage contract for PostgreSQL's schema migrations, checked on the schema the other parts
 * just used (opened and closed many times): each migration recorded once, in order, and none
 * applied again on reopening. The runner runs it for PostgreSQL only, after the other parts;
 * migrations of other schemas (new, old or concurrent) are in `postgres_test.ts`.
 *
 * @module
 */

import type postgres from "postgres";
import assert from "node:assert/strict";
import { migrations } from "./backends.ts";
import { type ContractOptions, migrationRows, withStore } from "./support.ts";

/** What the PostgreSQL-only parts are given besides the {@link ContractOptions}. */
export interface PostgresContractOptions extends ContractOptions {
  /** The schema `open` opens its stores on. */
  schema: string;
  /** A connection of its own, to look at the tables from outside the store. */
  admin: postgres.Sql;
}

/** The contract of the migrations of `schema`, the schema `open` uses. */
export async function schemaMigrationsContract(
  t: Deno.TestContext,
  { open, schema, admin }: PostgresContractOptions,
): Promise<void> {
  await t.step("every migration is recorded once in schema_migrations", async () => {
    const rows = await migrationRows(admin, schema);
    assert.deepEqual(
      rows.map(({ version, name }) => ({ version, name })),
      migrations.map(({ version, name }) => ({ version, name })),
    );
    for (const row of rows) assert.ok(row.applied_at instanceof Date, "applied_at is not a timestamp");
  });

  await t.step("reopening applies no migration again", async () => {
    const before = await migrationRows(admin, schema);
    await withStore(open, (store) => store.ping());
    await withStore(open, (store) => store.ping());
    assert.deepEqual(await migrationRows(admin, schema), before);
  });
}
