/**
 * Feature flags: `MONTHLY_PAYMENT` gates the monthly tab and monthly payments,
 * `TEST_TERMINAL_PAYMENT` gates the test-terminal buttons. They live in storage, seeded on first
 * start from the configuration, and pages read them on the server, so a gated part is either in the
 * HTML or not, with no loading flash.
 *
 * @module
 */
import { sharedRead } from "@/lib/core/shared_read.ts";
import type { Store } from "@/lib/storage/types.ts";

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

/**
 * How long a page may still show a flag's previous state after it changed in storage, on any
 * instance. Pages read flags on every request, so each instance reads storage at most once per
 * this interval instead; payments (`POST /api/payment/create`, test terminals) and
 * `GET /api/feature-flags` always read storage.
 */
export const PAGE_FLAGS_MAX_AGE_MS = 1000;

/**
 * The flags for rendering a page: {@link readFlags}, shared by the requests of up to
 * {@link PAGE_FLAGS_MAX_AGE_MS} (concurrent requests share one read; a failed read is not kept).
 * Answers the flags themselves once the read is done, its promise while it is not.
 *
 * @example
 * ```ts
 * ctx.state.flags = await readFlagsForPages(store); // at most a second old
 * ```
 */
export const readFlagsForPages: (store: Store, now?: number) => Flags | Promise<Flags> = sharedRead(
  readFlags,
  PAGE_FLAGS_MAX_AGE_MS,
);
