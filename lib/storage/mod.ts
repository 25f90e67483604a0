/**
 * The storage entry point: the app calls {@link openStore} once at start and passes the
 * {@link Store} along; nothing else imports a backend directly.
 *
 * @module
 */

import type { Store } from "./types.ts";

export type { FeatureFlag, FlagRepository, Store } from "./types.ts";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** A PostgreSQL URL (`DATABASE_URL`); when set, Postgres is the backend. */
  databaseUrl?: string;
  /** The Deno KV file (or `":memory:"`) used when `databaseUrl` is not set. */
  kvPath: string;
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
    const { openPostgresStore } = await import("./postgres.ts");
    return await openPostgresStore(options.databaseUrl);
  }
  const { openKvStore } = await import("./kv.ts");
  return await openKvStore(options.kvPath);
}
