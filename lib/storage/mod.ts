/**
 * The storage entry point: the app calls {@link openStore} once at start and passes the
 * {@link Store} along; nothing else opens a backend. This module imports no backend statically:
 * each is loaded when it is opened, so a KV deployment never loads postgres.js.
 *
 * The contract is `types.ts`; what both backends store and read the same way is in `records.ts`
 * and `queries.ts`; each backend is a folder (`kv/`, `postgres/`) of one module per concept. See
 * `README.md` beside this file.
 *
 * @module
 */

import type { Store } from "./types.ts";

export type * from "./types.ts";
export { EmailTakenError, StorageUnavailableError } from "./types.ts";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** A PostgreSQL URL (`DATABASE_URL`); when set, Postgres is the backend. */
  databaseUrl?: string;
  /**
   * The Deno KV file, `":memory:"` or a KV Connect URL, used when `databaseUrl` is not set.
   * Omitted: `Deno.openKv()`'s own database (on Deno Deploy, the KV database assigned to the app).
   */
  kvPath?: string;
  /** PostgreSQL connections at most (`openPostgresStore`'s `max`, 10 by default); ignored on KV. */
  connections?: number;
}

/**
 * Opens PostgreSQL when `databaseUrl` is set, otherwise Deno KV at `kvPath`.
 *
 * Each backend is imported on demand, so a KV deployment never loads postgres.js (faster cold
 * starts on Deno Deploy), and a Postgres one never opens a KV file.
 *
 * @example At application start
 * ```ts
 * import { openStore } from "./mod.ts";
 * const store = await openStore({
 *   databaseUrl: Deno.env.get("DATABASE_URL"),
 *   kvPath: "data/donations.kv",
 * });
 * console.log(`storage: ${store.kind}`);
 * await store.close();
 * ```
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // An empty DATABASE_URL (`DATABASE_URL=` in a .env file) means "not set", not "connect to ''".
  if (options.databaseUrl) {
    const { openPostgresStore } = await import("@/lib/storage/postgres/mod.ts");
    return await openPostgresStore(options.databaseUrl, { max: options.connections });
  }
  const { openKvStore } = await import("@/lib/storage/kv/mod.ts");
  return await openKvStore(options.kvPath);
}
