/**
 * The overview's gift sums, kept briefly per instance: summing two months of gifts reads every one
 * of them (on Deno KV about a second for 20,000 on a busy machine, `bench/README.md`), while the
 * page is opened again and again. A sum is answered from memory for {@link TOTALS_MAX_AGE_MS};
 * after that the kept one is still answered at once while one fresh read replaces it in the
 * background, so only the first request for a set of periods (after a restart, or at the museum's
 * midnight, when the bounds change) waits for storage. The figures are thus at most about that old.
 *
 * @module
 */
import type { DailyTotal, Store } from "@/lib/storage/types.ts";

/** How long a sum is answered without asking storage again. */
export const TOTALS_MAX_AGE_MS = 30_000;

/** Sets of periods kept per store: today's and, around midnight, yesterday's. */
const KEPT = 4;

interface Entry {
  readAt: number;
  totals: Promise<DailyTotal[]>;
  refreshing: boolean;
}

const entries = new WeakMap<Store, Map<string, Entry>>();

/**
 * `store.transactions.dailyTotals(bounds)`, answered from memory when read less than `maxAgeMs`
 * ago, or answered as kept while a fresh read replaces it; a failed read is not kept.
 *
 * @example
 * ```ts
 * const totals = await keptTotals(store, bounds); // storage once, then memory
 * ```
 */
export function keptTotals(
  store: Store,
  bounds: readonly string[],
  maxAgeMs = TOTALS_MAX_AGE_MS,
  now: () => number = Date.now,
): Promise<DailyTotal[]> {
  let kept = entries.get(store);
  if (!kept) entries.set(store, kept = new Map());
  const key = bounds.join(" ");
  const entry = kept.get(key);
  const read = (): Entry => {
    const fresh: Entry = {
      readAt: now(),
      totals: store.transactions.dailyTotals(bounds),
      refreshing: false,
    };
    fresh.totals.catch(() => kept.get(key) === fresh && kept.delete(key));
    return fresh;
  };
  if (!entry) {
    const fresh = read();
    kept.set(key, fresh);
    // Newest last: the oldest sets of periods go first.
    for (const old of kept.keys()) if (kept.size > KEPT) kept.delete(old);
    return fresh.totals;
  }
  if (now() - entry.readAt >= maxAgeMs && !entry.refreshing) {
    entry.refreshing = true;
    const fresh = read();
    fresh.totals.then(() => kept.set(key, fresh), () => entry.refreshing = false);
  }
  return entry.totals;
}
