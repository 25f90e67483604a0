/**
 * The storage contract for admissions: a request counted against rate limits and checked against
 * caps, in the same storage call as what it asks to create (`rateLimits.admit`,
 * `donors.createAdmitted`, `payments.createOrReuseAdmitted`). Types only; re-exported by `types.ts`.
 *
 * @module
 */

/** A request as the rate limits see it: what it counts, what must be under its cap, what it leaves. */
export interface Admission {
  /** Counted in order, as `rateLimits.hitInOrder` counts them (stopping at the first refused). */
  hits: readonly { key: string; limit: number }[];
  windowMs: number;
  /** Counters read, never counted, that refuse while they hold `cap` or more (the decline caps). */
  caps: readonly { key: string; cap: number }[];
  /** Remembered once admitted: the client a payment came from (`rateLimits.originOf`). */
  origin: { paymentId: string; origin: string; ttlMs: number } | null;
}

/** What an admission answers: admitted, or refused with why and until when. */
export type AdmissionAnswer =
  | { admitted: true }
  | { admitted: false; reason: "requests" | "declines"; retryAfterMs: number };

/** A refused admission. */
export type Refusal = Extract<AdmissionAnswer, { admitted: false }>;
