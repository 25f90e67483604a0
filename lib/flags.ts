/**
 * Feature flags: `MONTHLY_PAYMENT` gates the monthly tab and monthly payments,
 * `TEST_TERMINAL_PAYMENT` gates the test-terminal buttons. They live in storage, seeded on first
 * start from the configuration, and pages read them on the server, so a gated part is either in the
 * HTML or not, with no loading flash.
 *
 * @module
 */
import type { Store } from "./storage/types.ts";

/** The flags the product knows. */
export const FLAG_NAMES = ["MONTHLY_PAYMENT", "TEST_TERMINAL_PAYMENT"] as const;
export type FlagName = typeof FLAG_NAMES[number];

/** Every known flag with its state. */
export type Flags = Record<FlagName, boolean>;

/**
 * Seeds the known flags that storage does not have yet; existing values are kept.
 *
 * @example
 * ```ts
 * await seedFlags(store, { MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: false });
 * ```
 */
export async function seedFlags(store: Store, initial: Flags): Promise<void> {
  await store.flags.seed(initial);
}

/**
 * Reads the known flags; a flag missing from storage counts as off.
 *
 * @example
 * ```ts
 * const flags = await readFlags(store);
 * if (flags.MONTHLY_PAYMENT) { ... }
 * ```
 */
export async function readFlags(store: Store): Promise<Flags> {
  const stored = await store.flags.list();
  const on = new Set(stored.filter((f) => f.enabled).map((f) => f.flag));
  return Object.fromEntries(FLAG_NAMES.map((name) => [name, on.has(name)])) as Flags;
}
