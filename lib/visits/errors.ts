/**
 * What can go wrong at the front desk, as domain errors (`lib/http/domain_errors.ts` gives each its
 * status).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";

/** Any error of the front desk. */
export class VisitError extends DomainError {}

/** A scanned code that is not a genuine member card's token (changed, another key, not a card). */
export class InvalidCardError extends VisitError {
  override readonly kind = "invalid";
  constructor() {
    super("This is not a valid member card", [{ path: "token", message: "the card's code is not valid" }]);
  }
}

/** Neither a card, a number nor a search was given, or a number that is not one. */
export class InvalidLookupError extends VisitError {
  override readonly kind = "invalid";
  constructor(path: string, message: string) {
    super(message, [{ path, message }]);
  }
}

/** A check-in the membership does not allow now: lapsed, unknown, or more guests than its level's. */
export class CheckInRefusedError extends VisitError {
  override readonly kind = "conflict";
  constructor(message: string) {
    super(message);
  }
}
