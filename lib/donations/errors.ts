/**
 * What can go wrong when taking a donation (`service.ts`, `online.ts`, `terminal_sales.ts`), as
 * domain errors: each carries the message the caller sees (and the fields at fault), never a
 * status; `lib/http/domain_errors.ts` answers each kind with its status, and the donation page
 * shows the message in place.
 *
 * @module
 */
import { DomainError, type FieldError } from "@/lib/core/errors.ts";

/** Any error of taking a donation. */
export class PaymentError extends DomainError {}

/** The donation's input breaks a rule (an amount too small, too large, not money…). */
export class InvalidDonationError extends PaymentError {
  override readonly kind = "invalid";
  constructor(message: string, errors: FieldError[]) {
    super(message, errors);
  }
}

/** A monthly donation while monthly donations are switched off (`MONTHLY_PAYMENT`). */
export class MonthlyUnavailableError extends PaymentError {
  override readonly kind = "invalid";
  constructor() {
    super("Monthly donations are not available at the moment", [{
      path: "isMonthly",
      message: "monthly donations are switched off",
    }]);
  }
}

/** The donation names a donor that does not exist. */
export class UnknownDonorError extends PaymentError {
  override readonly kind = "not_found";
  constructor() {
    super("No donor with this userId");
  }
}

/** The payment provider (or the terminal service) did not answer; nothing was charged. */
export class ProviderUnavailableError extends PaymentError {
  override readonly kind = "unavailable";
  constructor(readonly service: "provider" | "terminal") {
    super(
      service === "provider"
        ? "The payment provider is not answering; nothing was charged. Please try again."
        : "The payment terminal service is not answering; nothing was charged. Please try again.",
    );
  }
}

/**
 * The same kiosk donation is already waiting at the terminal. The field error's message
 * (`terminal`: `busy`) names the refusal, which the kiosk page words in its language.
 */
export class TerminalBusyError extends PaymentError {
  override readonly kind = "conflict";
  constructor() {
    super("This donation is already waiting at the terminal; finish it there or wait a minute", [{
      path: "terminal",
      message: "busy",
    }]);
  }
}

/** Another sale is waiting at the same terminal (one pending sale per terminal at a time); `terminal`: `in-use`. */
export class TerminalInUseError extends PaymentError {
  override readonly kind = "conflict";
  constructor() {
    super(
      "Another donation is already waiting at this card terminal; finish or cancel it there, then try again",
      [{ path: "terminal", message: "in-use" }],
    );
  }
}
