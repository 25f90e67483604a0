/**
 * The one shape of a reconciliation pass, which the payments' (`reconcile.ts`), the card updates'
 * (`card_update_reconcile.ts`) and the pending refunds' (`refund_reconcile.ts`) passes share: the
 * items due, oldest first, are looked at one by one; what became of each is counted; a provider
 * that cannot be reached (a `ProviderError`) leaves that item for the next pass, with a warning
 * line, and the pass goes on with the next; anything else is a bug and is thrown. A pass may stop
 * before an item (a lost lease, a cap on questions): it is then incomplete. One line at the end
 * gives the counts (when anything was looked at, or always when asked).
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import { ProviderError } from "./provider.ts";

/** One pass: what it looks at, and what to do with each. */
export interface Pass<T, O extends string> {
  /** The summary line's message, e.g. `refunds reconciled`. */
  name: string;
  log: Logger;
  /** Every outcome, each counted from zero. */
  outcomes: readonly O[];
  /** The items due, oldest first; an async one may read storage in batches as the pass goes. */
  items: Iterable<T> | AsyncIterable<T>;
  /** What became of one item. A `ProviderError` it throws counts as {@link Pass.unreachable}. */
  each(item: T): Promise<O>;
  /** The outcome of an item whose provider could not be reached (asked again next pass). */
  unreachable: O;
  /** The item's fields on the warning line of an unreachable provider. */
  describe(item: T): Record<string, unknown>;
  /** Before each item: false ends the pass there, incomplete. */
  proceed?(item: T): boolean | Promise<boolean>;
  /** More fields of the summary line; with it, the line is written even when nothing was looked at. */
  summary?(): Record<string, unknown>;
}

/** What a pass did. */
export interface PassResult<O extends string> {
  counts: Record<O, number>;
  /** False when `proceed` stopped it before the end. */
  complete: boolean;
}

/**
 * Runs one pass (see the module's notes) and answers its counts.
 *
 * @example
 * ```ts
 * const { counts } = await runPass({
 *   name: "refunds reconciled", log, outcomes: ["succeeded", "failed", "pending"], unreachable: "pending",
 *   items: await store.refunds.listPending(before, 200), describe: (r) => ({ refundId: r.id }),
 *   each: (refund) => settleOne(refund),
 * });
 * ```
 */
export async function runPass<T, O extends string>(pass: Pass<T, O>): Promise<PassResult<O>> {
  const counts = Object.fromEntries(pass.outcomes.map((o) => [o, 0])) as Record<O, number>;
  const result: PassResult<O> = { counts, complete: true };
  const started = performance.now();
  let looked = 0;
  try {
    for await (const item of pass.items) {
      if (pass.proceed && !await pass.proceed(item)) {
        result.complete = false;
        break;
      }
      looked++;
      counts[await outcomeOf(pass, item)]++;
    }
    return result;
  } finally {
    if (looked > 0 || pass.summary) {
      pass.log.info(pass.name, {
        ...pass.summary?.(),
        ...counts,
        complete: result.complete,
        ms: Math.round(performance.now() - started),
      });
    }
  }
}

/** One item's outcome; an unreachable provider is counted, with a warning line. */
async function outcomeOf<T, O extends string>(pass: Pass<T, O>, item: T): Promise<O> {
  try {
    return await pass.each(item);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    pass.log.warn("reconciliation could not reach the payment provider; asked again next pass", {
      pass: pass.name,
      ...pass.describe(item),
      error: error.message,
      code: error.code,
    });
    return pass.unreachable;
  }
}
