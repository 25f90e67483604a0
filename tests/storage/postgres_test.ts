/**
 * PostgreSQL on its own, outside the contract every backend meets: stores opening a new schema at
 * once, `openStore()` with a database URL, migration 9 on a schema as version 8 left it, migration
 * 15 on refresh tokens stored before it, the audit log's refusal of any change, and the
 * refusals of an invalid schema name and an unreachable server. The steps that need a schema make
 * their own, dropped at the end. Like the contract, it fails under `CI=true` when the server at
 * `TEST_DATABASE_URL` is unreachable, and is skipped with one line saying why anywhere else.
 *
 * @module
 */

import postgres from "postgres";
import { openStore } from "@/lib/storage/mod.ts";
import { listsOf, searchTextOf, searchValuesOf } from "@/lib/storage/queries.ts";
import type { Store } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { migrations, openKvStore, openPostgresStore } from "./backends.ts";
import { at, legacyFixtures, txFixture } from "./fixtures.ts";
import {
  adminConnection,
  IN_CI,
  listsSeen,
  migrationRows,
  PG_URL,
  postgresUnavailable,
  randomSchema,
  withStore,
} from "./support.ts";

const pgUnavailable = await postgresUnavailable();
if (pgUnavailable && !IN_CI) console.log(`storage, PostgreSQL alone: skipping its tests: ${pgUnavailable}`);

Deno.test({
  name: "postgres: opening stores on new, old and invalid schemas",
  ignore: pgUnavailable !== "" && !IN_CI,
  async fn(t) {
    if (pgUnavailable) throw new Error(`CI is set, so PostgreSQL is required: ${pgUnavailable}`);

    const schemas: string[] = [];
    const admin = adminConnection();
    try {
      await t.step("several stores opening the same new schema at once all succeed", async () => {
        for (let round = 0; round < 3; round++) {
          const fresh = randomSchema();
          schemas.push(fresh);
          const results = await Promise.allSettled(
            Array.from({ length: 4 }, () => openPostgresStore(PG_URL, { schema: fresh, max: 1 })),
          );
          try {
            for (const result of results) {
              if (result.status === "rejected") throw result.reason;
            }
            assert.deepEqual((await migrationRows(admin, fresh)).length, migrations.length);
            // They all work on the same tables.
            const stores = results.map((r) => (r as PromiseFulfilledResult<Store>).value);
            await stores[0].flags.set("shared.F", true);
            for (const store of stores) assert.deepEqual((await store.flags.get("shared.F"))?.enabled, true);
          } finally {
            for (const result of results) if (result.status === "fulfilled") await result.value.close();
          }
        }
      });

      await t.step("migration 15 gives stored refresh tokens their family's first sign-in", async () => {
        const own = randomSchema();
        schemas.push(own);
        const token = (hash: string, family: string, createdAt: string) => ({
          hash,
          admin_id: "admin_1",
          family_id: family,
          created_at: createdAt,
          expires_at: at(99_000_000),
        });
        await admin.begin(async (tx) => {
          await tx`create schema ${tx(own)}`;
          await tx.unsafe(`set local search_path to ${own}`);
          await tx`create table schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`;
          for (const m of migrations.filter((m) => m.version < 15)) {
            await tx.unsafe(m.sql);
            await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
          }
          for (
            const row of [
              token("h1", "family_a", at(1_000)),
              token("h2", "family_a", at(5_000)),
              token("h3", "family_b", at(3_000)),
            ]
          ) await tx`insert into refresh_tokens ${tx(row)}`;
        });
        await withStore(() => openPostgresStore(PG_URL, { schema: own, max: 2 }), async (store) => {
          assert.equal((await store.refreshTokens.get("h1"))?.familyStartedAt, at(1_000));
          assert.equal((await store.refreshTokens.get("h2"))?.familyStartedAt, at(1_000));
          assert.equal((await store.refreshTokens.get("h3"))?.familyStartedAt, at(3_000));
        });
      });

      await t.step(
        "migration 19 gives existing donors no Israeli ID number; the table refuses a malformed one",
        async () => {
          const own = randomSchema();
          schemas.push(own);
          await admin.begin(async (tx) => {
            await tx`create schema ${tx(own)}`;
            await tx.unsafe(`set local search_path to ${own}`);
            await tx`create table schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`;
            for (const m of migrations.filter((m) => m.version < 19)) {
              await tx.unsafe(m.sql);
              await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
            }
            await tx`
            insert into donors (id, first_name, last_name, email, country, created_at)
            values ('donor_before_20', 'Dana', 'Levi', 'dana@example.org', 'Israel', ${at(1_000)})
          `;
          });
          await withStore(() => openPostgresStore(PG_URL, { schema: own, max: 2 }), async (store) => {
            assert.equal((await store.donors.get("donor_before_20"))?.israeliId, null);
          });
          for (const bad of ["18", "12345678a", "1234567890"]) {
            await assert.rejects(
              () =>
                admin.begin(async (tx) => {
                  await tx.unsafe(`set local search_path to ${own}`);
                  await tx`update donors set israeli_id = ${bad} where id = 'donor_before_20'`;
                }),
              /donors_israeli_id_nine_digits/,
              bad,
            );
          }
        },
      );

      await t.step("openStore() opens PostgreSQL when databaseUrl is set", async () => {
        const own = randomSchema();
        schemas.push(own);
        await admin`create schema ${admin(own)}`;
        // postgres.js passes unknown URL parameters to the server as startup parameters.
        const url = new URL(PG_URL);
        url.searchParams.set("search_path", own);
        await withStore(() => openStore({ databaseUrl: url.href, kvPath: ":memory:" }), async (store) => {
          assert.deepEqual(store.kind, "postgres");
          await store.flags.set("mod.F", true);
        });
        const [row] = await admin`select count(*)::int as n from ${admin(own)}.feature_flags`;
        assert.deepEqual(row.n, 1);
      });

      await t.step(
        "migration 9 numbers existing errors into their sub-lists and splits their search entries",
        async () => {
          const own = randomSchema();
          schemas.push(own);
          const txs = legacyFixtures(600);
          // The schema and rows as version 8 wrote them.
          await admin.begin(async (tx) => {
            await tx`create schema ${tx(own)}`;
            await tx.unsafe(`set local search_path to ${own}`);
            await tx`create table schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`;
            for (const m of migrations.filter((m) => m.version <= 8)) {
              await tx.unsafe(m.sql);
              await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
            }
            const counts = new Map<string, number>();
            const next = (list: string) => {
              counts.set(list, (counts.get(list) ?? 0) + 1);
              return counts.get(list)!;
            };
            for (const t of txs) {
              const seqAll = next(`${t.kind}-all`);
              const seqSub = t.kind === "success" ? next(listsOf(t)[1]) : null;
              await tx`
              insert into transactions (
                id, kind, status_code, is_monthly, created_at, donor_id, user_first_name, user_last_name,
                user_email, amount, currency, result_data, error_message, provider, provider_transaction_id,
                search_text, seq_all, seq_sub
              ) values (
                ${t.id}, ${t.kind}, ${t.statusCode}, ${t.isMonthly}, ${t.createdAt}, ${t.donorId},
                ${t.user.firstName}, ${t.user.lastName}, ${t.user.email}, ${t.amount}, ${t.currency},
                ${
                t.resultData === null ? null : tx.json(t.resultData as postgres.JSONValue)
              }, ${t.errorMessage},
                ${t.provider}, ${t.providerTransactionId}, ${searchTextOf(t.user)}, ${seqAll}, ${seqSub}
              )
            `;
              const part = t.kind === "error" ? "e" : t.isMonthly ? "m" : "o";
              for (const value of searchValuesOf(t.user)) {
                await tx`insert into search_values (value) values (${value}) on conflict do nothing`;
                await tx`insert into transaction_search (part, value, seq_all) values (${part}, ${value}, ${seqAll})`;
              }
            }
            for (
              const [list, n] of counts
            ) await tx`update transaction_counters set n = ${n} where list = ${list}`;
          });

          const expected = await withStore(() => openKvStore(":memory:"), async (store) => {
            await store.transactions.import(txs);
            return await listsSeen(store);
          });
          await withStore(() => openPostgresStore(PG_URL, { schema: own, max: 2 }), async (store) => {
            assert.deepEqual((await migrationRows(admin, own)).length, migrations.length);
            assert.deepEqual(await listsSeen(store), expected);
            const late = txFixture({ kind: "error", isMonthly: false, createdAt: at(9_999_000) });
            await store.transactions.record(late);
            assert.deepEqual(await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: false }), {
              data: [late],
              total: expected["error false undefined"].total + 1,
            });
          });
        },
      );

      await t.step("the audit log refuses update, delete and truncate, even in plain SQL", async () => {
        const own = randomSchema();
        schemas.push(own);
        await withStore(() => openPostgresStore(PG_URL, { schema: own, max: 1 }), async (store) => {
          const [entry] = await store.audit.append([{
            action: "refund",
            actorId: "a1",
            actorEmail: "staff@museum.example",
            address: "203.0.113.7",
            target: "tx_1",
            changes: { amount: 500 },
          }], at(0));
          const log = admin`${admin(own)}.audit_log`;
          for (
            const statement of [
              admin`update ${log} set changes = '{}'::jsonb where id = ${entry.id}`,
              admin`delete from ${log} where id = ${entry.id}`,
              admin`truncate ${log}`,
            ]
          ) {
            await assert.rejects(() => statement, /append-only/);
          }
          assert.deepEqual(await store.audit.list({ actorId: "a1" }, 10), [entry]);
        });
      });

      await t.step("an invalid schema name is refused before connecting", async () => {
        await assert.rejects(() => openPostgresStore(PG_URL, { schema: 'x"; drop table y; --' }), TypeError);
        await assert.rejects(() => openPostgresStore(PG_URL, { schema: "Upper" }), TypeError);
      });

      await t.step("opening an unreachable server rejects", async () => {
        const url = new URL(PG_URL);
        url.hostname = "127.0.0.1";
        url.port = "1";
        await assert.rejects(() => openPostgresStore(url.href, { max: 1 }));
      });
    } finally {
      for (const name of schemas) await admin`drop schema if exists ${admin(name)} cascade`;
      await admin.end({ timeout: 5 });
    }
  },
});
