/**
 * Runs a test once per storage backend: Deno KV in memory and PostgreSQL on a throwaway schema.
 * When PostgreSQL is unreachable its run is skipped with one line saying why, except under CI
 * (`CI` set), where it fails.
 *
 * @module
 */
import postgres from "postgres";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { Store } from "@/lib/storage/types.ts";

export const PG_URL = Deno.env.get("TEST_DATABASE_URL") ||
  "postgres://postgres:postgres@127.0.0.1:5432/postgres";
export const IN_CI = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());

let probe: Promise<string | null> | null = null;

/** `null` when PostgreSQL answers, else why not. */
export function postgresProblem(): Promise<string | null> {
  probe ??= (async () => {
    const sql = postgres(PG_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
    try {
      await sql`select 1`;
      return null;
    } catch (e) {
      return (e as Error).message;
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  })();
  return probe;
}

/** A store for one test, and how to throw it away. */
export interface TestStore {
  store: Store;
  /** Closes the store and drops what it created. */
  dispose(): Promise<void>;
}

/**
 * Opens a fresh PostgreSQL store on its own schema.
 *
 * @example
 * ```ts
 * const { store, dispose } = await openTestPostgres();
 * ```
 */
export async function openTestPostgres(): Promise<TestStore> {
  const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const store = await openPostgresStore(PG_URL, { schema, max: 4 });
  return {
    store,
    async dispose() {
      await store.close();
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop schema if exists ${schema} cascade`);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
  };
}

/**
 * Registers `fn` as one test per backend, named `${name} [kv]` and `${name} [postgres]`. Stores
 * from `open` are closed (and PostgreSQL schemas dropped) when the test ends.
 *
 * @example
 * ```ts
 * backendTest("POST /api/user", async (t, open) => {
 *   const app = await startTestApp({ store: await open() });
 * });
 * ```
 */
export function backendTest(
  name: string,
  fn: (t: Deno.TestContext, open: () => Promise<Store>) => Promise<void>,
): void {
  for (const backend of ["kv", "postgres"] as const) {
    Deno.test({
      name: `${name} [${backend}]`,
      ignore: backend === "postgres" && probed !== null && !IN_CI,
      async fn(t) {
        const disposers: (() => Promise<void>)[] = [];
        const open = async () => {
          if (backend === "kv") {
            const store = await openKvStore(":memory:");
            disposers.push(() => store.close());
            return store;
          }
          const why = await postgresProblem();
          if (why) {
            throw new Error(`CI is set, so PostgreSQL is required, but ${PG_URL} is unreachable: ${why}`);
          }
          const test = await openTestPostgres();
          disposers.push(test.dispose);
          return test.store;
        };
        try {
          await fn(t, open);
        } finally {
          for (const dispose of disposers) await dispose();
        }
      },
    });
  }
}

/**
 * Two handles on the same data, as two app instances have: a KV file opened twice, or one
 * PostgreSQL schema twice; `dispose` closes both and removes the data.
 *
 * @example
 * ```ts
 * const { stores: [a, b], dispose } = await twoInstances("kv");
 * ```
 */
export async function twoInstances(
  backend: "kv" | "postgres",
): Promise<{ stores: [Store, Store]; dispose(): Promise<void> }> {
  if (backend === "kv") {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/data.sqlite`;
    const a = await openKvStore(path);
    const b = await openKvStore(path);
    return {
      stores: [a, b],
      async dispose() {
        await a.close();
        await b.close();
        await Deno.remove(dir, { recursive: true });
      },
    };
  }
  const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const a = await openPostgresStore(PG_URL, { schema, max: 2 });
  const b = await openPostgresStore(PG_URL, { schema, max: 2 });
  return {
    stores: [a, b],
    async dispose() {
      await a.close();
      await b.close();
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop schema if exists ${schema} cascade`);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
  };
}

// Decided before any test is registered, so a skipped backend is marked ignored, not passed.
const probed = await postgresProblem();
if (probed && !IN_CI) console.log(`PostgreSQL tests skipped: ${PG_URL} is unreachable (${probed})`);
