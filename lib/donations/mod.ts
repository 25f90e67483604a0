/**
 * Donations: taking a gift online or at a kiosk, completing it once per provider payment, and reconciling what is pending.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { finishPayment, recordResult } from "./completion.ts";
export { ProviderUnavailableError, TerminalBusyError, TerminalInUseError } from "./errors.ts";
export {
  checkDonation,
  clock,
  DEDUPE_WINDOW_MS,
  isAbandoned,
  newPendingPayment,
  type PaymentsContext,
  providerCall,
} from "./service.ts";
export { statusText } from "./status_text.ts";
