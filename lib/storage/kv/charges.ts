/**
 * Charges on Deno KV: one per attempt to charge a subscription for a period.
 *
 * | key                                                               | value         | written by    |
 * |-------------------------------------------------------------------|---------------|---------------|
 * | `["charges", subscriptionId, period, attempt]`                    | Charge        | claim, finish |
 * | `["charges_started", startedAt, subscriptionId, period, attempt]` | Charge (copy) | claim, finish |
 *
 * `claim` commits only while the charge's key is absent: exactly one claim wins, so a period is
 * never charged twice by instances billing at once. `charges_started` holds the charges still
 * `started`, by start time, so `listStale` is one range read; `finish` moves a charge out of it in
 * the same commit, checked against the charge as read.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { canonicalCharge, chargeResult, checkInteger, isoInstant } from "@/lib/storage/records.ts";
import type { Charge, ChargeRepository } from "@/lib/storage/types.ts";

/** The first key part of every charge. */
const CHARGES = "charges";
/** The charges still started, by start time: copies, so `listStale` is one range read. */
const CHARGES_STARTED = "charges_started";

const chargeKey = (subscriptionId: string, period: string, attempt: number): Deno.KvKey => [
  CHARGES,
  subscriptionId,
  period,
  attempt,
];
const startedKey = (
  c: Charge,
): Deno.KvKey => [CHARGES_STARTED, c.startedAt, c.subscriptionId, c.period, c.attempt];

/** The {@link ChargeRepository} of the store on `ctx`. */
export function kvCharges({ kv }: KvContext): ChargeRepository {
  return {
    async claim(input) {
      const charge = canonicalCharge(input);
      const key = chargeKey(charge.subscriptionId, charge.period, charge.attempt);
      return await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, charge);
        if (charge.status === "started") op.set(startedKey(charge), charge);
        return op;
      });
    },

    async get(subscriptionId, period, attempt) {
      const key = chargeKey(subscriptionId, isoInstant(period, "period"), attempt);
      return (await retryWhileLocked(() => kv.get<Charge>(key))).value;
    },

    async finish(subscriptionId, period, attempt, input) {
      const result = chargeResult(input);
      const key = chargeKey(subscriptionId, isoInstant(period, "period"), attempt);
      await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Charge>(key));
        if (entry.value === null) return;
        const before = entry.value;
        const after: Charge = { ...before, ...result };
        const ok = await commit(() => {
          const op = kv.atomic().check(entry).set(key, after);
          if (before.status === "started") op.delete(startedKey(before));
          if (after.status === "started") op.set(startedKey(after), after);
          return op;
        });
        return ok ? undefined : RETRY;
      });
    },

    async listStale(before, limit) {
      checkInteger(limit, "limit", 1);
      const selector = { start: [CHARGES_STARTED], end: [CHARGES_STARTED, isoInstant(before, "before")] };
      return await retryWhileLocked(async () => {
        const out: Charge[] = [];
        for await (const entry of kv.list<Charge>(selector, { limit, batchSize: Math.min(limit, 500) })) {
          out.push(entry.value);
        }
        return out;
      });
    },
  };
}
