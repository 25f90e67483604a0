/**
 * What can go wrong when issuing a receipt, as domain errors: each carries the message the caller
 * sees; `lib/http/domain_errors.ts` gives each its status, so issuing stays usable without HTTP
 * (the mail sender issues receipts in the background).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";

/** Any error of receipts. */
export class ReceiptError extends DomainError {}

/** No receipt can be issued: the museum's legal details are not configured (production). */
export class ReceiptsNotConfiguredError extends ReceiptError {
  override readonly kind = "unavailable";
  constructor() {
    super(
      "Receipts are not configured: the museum's legal name and address are not set (RECEIPT_LEGAL_NAME)",
    );
  }
}

/** The transaction is not a gift a receipt can be issued for (a failed payment, no amount). */
export class NotReceiptableError extends ReceiptError {
  override readonly kind = "conflict";
  constructor() {
    super("A receipt is issued only for a successful gift with an amount");
  }
}

/** Too many receipts are waiting to be drawn (`pdf_pool.ts`): try again in `retryAfterSeconds`. */
export class ReceiptsBusyError extends ReceiptError {
  override readonly kind = "unavailable";
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many receipts are being prepared; try again in ${retryAfterSeconds} second(s)`);
  }
}

/** The back office asked about a transaction that does not exist. */
export class NoSuchTransactionError extends ReceiptError {
  override readonly kind = "not_found";
  constructor() {
    super("No transaction with this id");
  }
}

/** The most resends one receipt email may have (a guard against a stuck button or script). */
export const MAX_RESENDS = 50;

/** The receipt email was resent {@link MAX_RESENDS} times already. */
export class TooManyResendsError extends ReceiptError {
  override readonly kind = "conflict";
  constructor() {
    super(`This receipt was resent ${MAX_RESENDS} times already`);
  }
}
