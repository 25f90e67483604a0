/**
 * The storage contract: one suite, {@link storeContract}, run against every backend, so routes can
 * rely on the {@link Store} interface alone.
 *
 * - Deno KV on `:memory:` and on a temporary file (reopened to see the data survive);
 * - PostgreSQL on a fresh random schema per run, dropped at the end. The server comes from
 *   `TEST_DATABASE_URL` (default `postgres://postgres:postgres@127.0.0.1:5432/postgres`). When it
 *   cannot be reached the PostgreSQL tests fail under `CI=true` and are skipped, with one line
 *   saying why, anywhere else.
 *
 * @module
 */

import postgres from "postgres";
import { openKvStore } from "../lib/storage/kv.ts";
import { migrations } from "../lib/storage/migrations.ts";
import { openStore } from "../lib/storage/mod.ts";
import { openPostgresStore } from "../lib/storage/postgres.ts";
import type { FeatureFlag, Store } from "../lib/storage/types.ts";
import assert from "node:assert/strict";

const PG_URL = Deno.env.get("TEST_DATABASE_URL") || "postgres://postgres:postgres@127.0.0.1:5432/postgres";
const IN_CI = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());

/** Exactly what `Date.prototype.toISOString` writes. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a store, runs `fn`, and closes the store whatever happens. */
async function withStore<T>(open: () => Promise<Store>, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await open();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The flags whose name starts with `prefix`, in the order given: each step keeps to its own names. */
const under = (flags: FeatureFlag[], prefix: string) => flags.filter((f) => f.flag.startsWith(prefix));

function assertIsoInstant(value: string, what: string): void {
  assert.match(value, ISO_INSTANT, `${what}: ${JSON.stringify(value)} is not an ISO 8601 instant`);
  assert.deepEqual(new Date(value).toISOString(), value, `${what} does not round-trip through Date`);
}

interface ContractOptions {
  /** The backend `open` is expected to answer. */
  kind: Store["kind"];
  /**
   * Whether every store `open` answers sees the same data (a file, a database schema). A
   * `:memory:` KV is a new empty database each time, so cross-instance steps race within one store.
   */
  sharedData: boolean;
}

/**
 * The contract every {@link Store} backend must meet. `open` opens a store on the backend under test;
 * the data must be empty on the first call. Steps run in order and share that data, so each step
 * uses its own flag names (a prefix) and filters `list()` by it.
 */
async function storeContract(
  t: Deno.TestContext,
  open: () => Promise<Store>,
  { kind, sharedData }: ContractOptions,
): Promise<void> {
  await t.step("list() of a new store is empty", () =>
    withStore(open, async (store) => {
      assert.deepEqual(await store.flags.list(), []);
    }));

  await t.step(
    "set() answers the flag as stored; get() and list() agree, sorted by name",
    () =>
      withStore(open, async (store) => {
        // Case, punctuation and a non-ASCII letter: a locale collation would order these differently.
        const names = ["sort.b", "sort.B", "sort.a_b", "sort.ab", "sort.a.b", "sort.Z", "sort.é", "sort.A"];
        const stored: FeatureFlag[] = [];
        for (const [i, name] of names.entries()) {
          const flag = await store.flags.set(name, i % 2 === 0);
          assert.deepEqual(flag.flag, name);
          assert.deepEqual(flag.enabled, i % 2 === 0);
          assertIsoInstant(flag.updatedAt, "updatedAt");
          assert.deepEqual(
            await store.flags.get(name),
            flag,
            `get(${name}) differs from what set() answered`,
          );
          stored.push(flag);
        }
        const expected = [...stored].sort((a, b) => (a.flag < b.flag ? -1 : 1));
        const all = await store.flags.list();
        assert.deepEqual(under(all, "sort."), expected);
        const allNames = all.map((f) => f.flag);
        assert.deepEqual(allNames, [...allNames].sort(), "list() is not sorted by name");
      }),
  );

  await t.step("get() of an unknown flag answers null", () =>
    withStore(open, async (store) => {
      assert.deepEqual(await store.flags.get("unknown.NEVER_SET"), null);
    }));

  await t.step("set() changes an existing flag in place", () =>
    withStore(open, async (store) => {
      await store.flags.set("change.X", true);
      const changed = await store.flags.set("change.X", false);
      assert.deepEqual(changed.enabled, false);
      assert.deepEqual(await store.flags.get("change.X"), changed);
      assert.deepEqual(under(await store.flags.list(), "change."), [changed]);
    }));

  await t.step(
    "seed() inserts missing flags only and never overwrites",
    () =>
      withStore(open, async (store) => {
        const kept = await store.flags.set("seed.KEPT", false);
        await store.flags.seed({ "seed.KEPT": true, "seed.NEW_ON": true, "seed.NEW_OFF": false });
        assert.deepEqual(await store.flags.get("seed.KEPT"), kept, "seed() overwrote an existing flag");
        const on = await store.flags.get("seed.NEW_ON");
        const off = await store.flags.get("seed.NEW_OFF");
        assert.deepEqual(on?.enabled, true);
        assert.deepEqual(off?.enabled, false);
        assertIsoInstant(on!.updatedAt, "seeded updatedAt");

        // An operator turns a seeded flag off; the next start seeds again and must leave it off.
        const changed = await store.flags.set("seed.NEW_ON", false);
        await store.flags.seed({ "seed.KEPT": true, "seed.NEW_ON": true, "seed.NEW_OFF": false });
        assert.deepEqual(await store.flags.get("seed.NEW_ON"), changed);
        assert.deepEqual(await store.flags.get("seed.NEW_OFF"), off, "re-seeding touched an unchanged flag");
        await store.flags.seed({});
        assert.deepEqual(under(await store.flags.list(), "seed.").length, 3);
      }),
  );

  await t.step(
    sharedData
      ? "concurrent seeds from two stores leave one flag each, with the seeded value"
      : "concurrent seeds on one store leave one flag each, with the seeded value",
    async () => {
      const a = await open();
      const b = sharedData ? await open() : a;
      try {
        for (let round = 0; round < 3; round++) {
          const prefix = `race${round}.`;
          // An operator already turned one of them off: no racing seed may turn it back on.
          await a.flags.set(`${prefix}OPERATOR`, false);
          const defaults: Record<string, boolean> = { [`${prefix}OPERATOR`]: true };
          for (let i = 0; i < 40; i++) defaults[`${prefix}${String(i).padStart(2, "0")}`] = i % 3 !== 0;
          // The same flags in the opposite order, as another version of the app might list them.
          const reversed = Object.fromEntries(Object.entries(defaults).reverse());
          await Promise.all([
            a.flags.seed(defaults),
            b.flags.seed(reversed),
            a.flags.seed(reversed),
            b.flags.seed(defaults),
          ]);

          const flags = under(await b.flags.list(), prefix);
          assert.deepEqual(flags.length, Object.keys(defaults).length);
          assert.deepEqual(new Set(flags.map((f) => f.flag)).size, flags.length, "a flag appears twice");
          for (const flag of flags) {
            const expected = flag.flag === `${prefix}OPERATOR` ? false : defaults[flag.flag];
            assert.deepEqual(flag.enabled, expected, `${flag.flag} has the wrong value`);
          }
        }
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  await t.step(
    "updatedAt is an ISO 8601 instant that moves forward on set()",
    () =>
      withStore(open, async (store) => {
        const first = await store.flags.set("time.T", true);
        assertIsoInstant(first.updatedAt, "updatedAt");
        // Generous: the database's clock may be another machine's.
        const skew = Math.abs(Date.parse(first.updatedAt) - Date.now());
        assert.ok(skew < 60_000, `updatedAt ${first.updatedAt} is ${skew} ms away from now`);

        await sleep(20);
        const second = await store.flags.set("time.T", true);
        assertIsoInstant(second.updatedAt, "updatedAt");
        assert.ok(
          Date.parse(second.updatedAt) > Date.parse(first.updatedAt),
          `updatedAt did not move: ${first.updatedAt} then ${second.updatedAt}`,
        );
        assert.deepEqual(await store.flags.get("time.T"), second);
      }),
  );

  await t.step("ping() answers, and kind names the backend", () =>
    withStore(open, async (store) => {
      await store.ping();
      assert.deepEqual(store.kind, kind);
    }));

  await t.step("close() is idempotent, also when called concurrently", async () => {
    const store = await open();
    await store.ping();
    await Promise.all([store.close(), store.close()]);
    await store.close();
  });
}

// ---- Deno KV ----

Deno.test("storage contract: kv on :memory:", async (t) => {
  await storeContract(t, () => openKvStore(":memory:"), { kind: "kv", sharedData: false });
});

Deno.test("storage contract: kv on a file", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "storage_contract_" });
  // Folders that do not exist yet: opening must create them.
  const path = `${dir}/not/yet/there/store.kv`;
  try {
    await storeContract(t, () => openKvStore(path), { kind: "kv", sharedData: true });

    await t.step("data survives closing and reopening the file", async () => {
      const written = await withStore(() => openKvStore(path), async (store) => {
        await store.flags.seed({ "persist.SEEDED": true });
        return await store.flags.set("persist.SET", true);
      });
      await withStore(() => openKvStore(path), async (store) => {
        assert.deepEqual(await store.flags.get("persist.SET"), written);
        assert.deepEqual((await store.flags.get("persist.SEEDED"))?.enabled, true);
      });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() opens KV when no databaseUrl is given (or it is empty)", async () => {
  for (const databaseUrl of [undefined, ""]) {
    await withStore(() => openStore({ databaseUrl, kvPath: ":memory:" }), async (store) => {
      assert.deepEqual(store.kind, "kv");
      await store.ping();
    });
  }
});

// ---- PostgreSQL ----

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(unparsable URL)";
  }
}

/** Answers why PostgreSQL cannot be used, or `null` when it can. */
async function probePostgres(url: string): Promise<string | null> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    return [code, message].filter(Boolean).join(": ") || "unknown error";
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const randomSchema = () => `test_storage_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

const pgProblem = await probePostgres(PG_URL);
const pgUnavailable = pgProblem === null
  ? ""
  : `PostgreSQL at ${redact(PG_URL)} is unreachable (${pgProblem}); set TEST_DATABASE_URL, or start it: ` +
    `pg_ctlcluster 15 main start`;
if (pgUnavailable && !IN_CI) console.log(`storage contract: skipping the PostgreSQL tests: ${pgUnavailable}`);

Deno.test({
  name: "storage contract: postgres on a throwaway schema",
  ignore: pgUnavailable !== "" && !IN_CI,
  async fn(t) {
    if (pgUnavailable) throw new Error(`CI is set, so PostgreSQL is required: ${pgUnavailable}`);

    const schema = randomSchema();
    const schemas = [schema];
    // A separate connection that looks at the tables from outside the store.
    const admin = postgres(PG_URL, { max: 2, connect_timeout: 5, onnotice: () => {} });
    const migrationRows = (name: string) =>
      admin<{ version: number; name: string; applied_at: Date }[]>`
        select version, name, applied_at from ${admin(name)}.schema_migrations order by version
      `.then((rows) => [...rows]);
    const open = () => openPostgresStore(PG_URL, { schema, max: 4 });

    try {
      await storeContract(t, open, { kind: "postgres", sharedData: true });

      await t.step("every migration is recorded once in schema_migrations", async () => {
        const rows = await migrationRows(schema);
        assert.deepEqual(
          rows.map(({ version, name }) => ({ version, name })),
          migrations.map(({ version, name }) => ({ version, name })),
        );
        for (const row of rows) assert.ok(row.applied_at instanceof Date, "applied_at is not a timestamp");
      });

      await t.step("reopening applies no migration again", async () => {
        const before = await migrationRows(schema);
        await withStore(open, (store) => store.ping());
        await withStore(open, (store) => store.ping());
        assert.deepEqual(await migrationRows(schema), before);
      });

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
            assert.deepEqual((await migrationRows(fresh)).length, migrations.length);
            // They all work on the same tables.
            const stores = results.map((r) => (r as PromiseFulfilledResult<Store>).value);
            await stores[0].flags.set("shared.F", true);
            for (const store of stores) assert.deepEqual((await store.flags.get("shared.F"))?.enabled, true);
          } finally {
            for (const result of results) if (result.status === "fulfilled") await result.value.close();
          }
        }
      });

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
