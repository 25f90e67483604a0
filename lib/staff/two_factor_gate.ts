/**
 * The check every admin request passes (`lib/http/admin_auth.ts`): while an owner requires
 * two-factor and the signed-in admin has not set it up, only enrolment is open. Apart from
 * `two_factor.ts` so signing a request in loads no TOTP or QR code library.
 *
 * @module
 */
import type { Admin, Store } from "@/lib/storage/types.ts";
import { TwoFactorEnrolmentRequiredError } from "./two_factor_errors.ts";

/**
 * Throws {@link TwoFactorEnrolmentRequiredError} (403) when two-factor is required and this
 * approved admin has not set it up (one storage read).
 *
 * @example
 * ```ts
 * await requireSecondFactorIfDue(store, admin);
 * ```
 */
export async function requireSecondFactorIfDue(store: Store, admin: Admin): Promise<void> {
  if (admin.status !== "approved") return;
  const state = await store.twoFactor.state(admin.id);
  if (state.required && !state.enrolled) throw new TwoFactorEnrolmentRequiredError();
}
