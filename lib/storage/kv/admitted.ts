/**
 * Admitted creations on Deno KV (`donors.createAdmitted`, `payments.createOrReuseAdmitted`): the
 * admission (`rateLimits.admit`, its hits group-committed), then the creation. KV is embedded, so
 * two steps cost no round trip; the order keeps the contract: a refused request creates nothing.
 *
 * @module
 */
import type { DonorRepository, PaymentRepository, RateLimitRepository } from "@/lib/storage/types.ts";

/**
 * The donors with `createAdmitted`.
 *
 * @example
 * ```ts
 * const donors = admittedDonors(kvDonors(ctx), kvRateLimits(ctx));
 * ```
 */
export function admittedDonors(
  donors: Omit<DonorRepository, "createAdmitted">,
  rateLimits: RateLimitRepository,
): DonorRepository {
  return {
    ...donors,
    async createAdmitted(donor, admission, now) {
      const answer = await rateLimits.admit(admission, now);
      return answer.admitted ? { admitted: true, donor: await donors.create(donor) } : answer;
    },
  };
}

/**
 * The payments with `createOrReuseAdmitted`.
 *
 * @example
 * ```ts
 * const payments = admittedPayments(kvPayments(ctx), kvRateLimits(ctx));
 * ```
 */
export function admittedPayments(
  payments: Omit<PaymentRepository, "createOrReuseAdmitted">,
  rateLimits: RateLimitRepository,
): PaymentRepository {
  return {
    ...payments,
    async createOrReuseAdmitted(payment, dedupeKey, windowMs, now, admission) {
      const answer = await rateLimits.admit(admission, now);
      if (!answer.admitted) return answer;
      return { admitted: true, ...await payments.createOrReuse(payment, dedupeKey, windowMs, now) };
    },
  };
}
