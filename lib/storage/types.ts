/**
 * The storage contract: one interface for everything the product keeps.
 *
 * Every backend (Deno KV in `kv.ts`, PostgreSQL in `postgres.ts`) implements {@link Store}, and the
 * single contract suite in `tests/storage_contract_test.ts` runs against both, so routes and `lib/`
 * never know which one is behind them. Each concept is a small repository on the store
 * (`store.flags` now; donors, transactions, subscriptions, admins, refresh tokens and throttling
 * counters join as their issues land), which keeps the interface readable as it grows.
 *
 * This module is types only, so importing it costs nothing at run time.
 *
 * @module
 */

/** A feature flag as stored and as `GET /api/feature-flags` answers it. */
export interface FeatureFlag {
  /** The flag's name, e.g. `MONTHLY_PAYMENT`. */
  flag: string;
  /** Whether the feature is on. */
  enabled: boolean;
  /** When the flag was created or last changed, as an ISO 8601 string. */
  updatedAt: string;
}

/** Feature flags: seeded once, then changed only on purpose. */
export interface FlagRepository {
  /** Every flag, sorted by name. */
  list(): Promise<FeatureFlag[]>;
  /** One flag, or `null` when no flag has that name. */
  get(flag: string): Promise<FeatureFlag | null>;
  /** Creates or changes one flag and answers it as stored. */
  set(flag: string, enabled: boolean): Promise<FeatureFlag>;
  /**
   * Inserts each flag of `defaults` that does not exist yet and leaves existing ones untouched, so
   * a restart never overwrites a value an operator changed. Safe when several instances start at
   * once: each flag ends up inserted exactly once.
   */
  seed(defaults: Record<string, boolean>): Promise<void>;
}

/** The whole store. */
export interface Store {
  /** Which backend this is, for logs and `/health`. */
  readonly kind: "kv" | "postgres";
  readonly flags: FlagRepository;
  /** Throws when the backend cannot answer a trivial query; used by `GET /health`. */
  ping(): Promise<void>;
  /** Releases connections and file handles. Idempotent. */
  close(): Promise<void>;
}
