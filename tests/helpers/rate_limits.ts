/**
 * Rate-limit helpers for tests.
 *
 * @module
 */
import { paymentAdmission, type RateLimitSettings, refusalError } from "@/lib/rate_limits/rate_limits.ts";
import type { Store } from "@/lib/storage/types.ts";

/**
 * A payment start's admission on its own (the app makes it in the payment's own storage call):
 * throws the app's `RateLimitedError` when refused.
 */
export async function admitPayment(
  store: Store,
  settings: RateLimitSettings,
  client: { email: string; address: string; paymentId: string; countRequest: boolean },
  now = Date.now(),
): Promise<void> {
  const answer = await store.rateLimits.admit(paymentAdmission(settings, client), now);
  if (!answer.admitted) throw refusalError(answer);
}
