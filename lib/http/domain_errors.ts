/**
 * The one place where errors become HTTP answers: the domain's errors (`lib/staff/errors.ts`,
 * `lib/donations/errors.ts`), which say what went wrong but not how to answer, get their status
 * here; so do this layer's own {@link HttpError} (bad requests, with their status) and a refused
 * request signature. `routes/api/_middleware.ts` answers them as JSON `{ message, statusCode,
 * errors? }`; pages that catch them (the donation form) read the status to choose theirs.
 *
 * @module
 */
import {
  AccessTokenError,
  AccountInactiveError,
  AccountRejectedError,
  AlreadyDecidedError,
  EmailRegisteredError,
  InvalidCredentialsError,
  LastOwnerRefusedError,
  LoginThrottledError,
  NoSuchAdminError,
  NotActiveAdminError,
  NotApprovedError,
  OwnDecisionError,
  OwnRoleError,
  PasswordsBusyError,
  RefreshTokenError,
  RegistrationClosedError,
  RoleRefusedError,
  SignInRequiredError,
  WeakPasswordError,
} from "@/lib/staff/errors.ts";
import {
  AlreadyEnrolledError,
  NoEnrolmentError,
  NotEnrolledError,
  NoTwoFactorError,
  SecondFactorTokenError,
  SecretUnreadableError,
  TwoFactorEnrolmentRequiredError,
  TwoFactorRequiredError,
  WrongCurrentCodeError,
  WrongEnrolmentCodeError,
  WrongSecondFactorCodeError,
} from "@/lib/staff/two_factor_errors.ts";
import type { DomainError, FieldError } from "@/lib/core/errors.ts";
import {
  KioskDeviceRequiredError,
  KioskDeviceRevokedError,
  NoSuchKioskDeviceError,
  NoTerminalForShopError,
  PairingCodeError,
} from "@/lib/kiosk/errors.ts";
import {
  InvalidDonationError,
  MonthlyUnavailableError,
  ProviderUnavailableError,
  TerminalBusyError,
  TerminalInUseError,
  UnknownDonorError,
} from "@/lib/donations/errors.ts";
import {
  ChargeInProgressError,
  GiftEndedError,
  InvalidGiftChangeError,
  NoSuchGiftError,
  RaiseNeedsSignInError,
} from "@/lib/monthly_gifts/subscription_changes.ts";
import { CardUpdateUnavailableError } from "@/lib/monthly_gifts/card_update.ts";
import { CardUpdatesLockedError } from "@/lib/monthly_gifts/card_update_limits.ts";
import { OutboxCursorError } from "@/lib/mail/outbox_view.ts";
import { NoDonorWithEmailError } from "@/lib/donors/donor_view.ts";
import { RateLimitedError } from "@/lib/rate_limits/rate_limits.ts";
import {
  NoSuchTransactionError,
  NotReceiptableError,
  ReceiptsBusyError,
  ReceiptsNotConfiguredError,
  TooManyResendsError,
} from "@/lib/receipts/errors.ts";
import { SignatureError } from "@/lib/signing/signature_check.ts";
import {
  FailureConfirmationError,
  NoSuchRefundError,
  RefundSettledError,
  RefundTooRecentError,
} from "@/lib/refunds/refund_outcome.ts";
import {
  NotRefundableError,
  RefundDeclinedError,
  RefundProviderError,
  RefundTooLargeError,
} from "@/lib/refunds/refunds.ts";
import { ErasureNotConfirmedError, ErasureUnfinishedError } from "@/lib/donor_portal/erasure.ts";
import { TooManyReceiptsError, ZipInProgressError } from "@/lib/donor_portal/year_receipts.ts";
import { AuditCursorError, AuditFilterError } from "@/lib/audit/audit_log.ts";
import { FlagChangedMeanwhileError, FlagEnforcedError } from "@/lib/settings/settings.ts";
import { InvalidReportRangeError } from "@/lib/reports/monthly.ts";
import { errorBody } from "./errors.ts";
import { HttpError } from "./validation.ts";

/** How an error is answered: status, message, the fields at fault and extra headers. */
export interface ErrorAnswer {
  status: number;
  message: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

// deno-lint-ignore no-explicit-any
type ErrorClass = abstract new (...args: any[]) => DomainError;

/** The status of each kind of domain error. */
const STATUSES: [ErrorClass, number][] = [
  // Admin accounts and sessions.
  [WeakPasswordError, 400],
  [InvalidCredentialsError, 401],
  [SignInRequiredError, 401],
  [AccessTokenError, 401],
  [RefreshTokenError, 401],
  [AccountInactiveError, 401],
  [AccountRejectedError, 403],
  [RegistrationClosedError, 403],
  [NotApprovedError, 403],
  [RoleRefusedError, 403],
  [NoSuchAdminError, 404],
  [EmailRegisteredError, 409],
  [OwnDecisionError, 409],
  [AlreadyDecidedError, 409],
  [OwnRoleError, 409],
  [LastOwnerRefusedError, 409],
  [NotActiveAdminError, 409],
  [LoginThrottledError, 429],
  [PasswordsBusyError, 503],
  // The staff's two-factor sign-in.
  [WrongEnrolmentCodeError, 400],
  [WrongCurrentCodeError, 400],
  [NotEnrolledError, 409],
  [TwoFactorRequiredError, 409],
  [SecondFactorTokenError, 401],
  [WrongSecondFactorCodeError, 401],
  [TwoFactorEnrolmentRequiredError, 403],
  [AlreadyEnrolledError, 409],
  [NoEnrolmentError, 409],
  [NoTwoFactorError, 409],
  [SecretUnreadableError, 409],
  // Donations.
  [InvalidDonationError, 400],
  [MonthlyUnavailableError, 400],
  [UnknownDonorError, 404],
  [TerminalBusyError, 409],
  [ProviderUnavailableError, 503],
  // A donor's changes to a monthly gift.
  [InvalidGiftChangeError, 400],
  [NoSuchGiftError, 404],
  [RaiseNeedsSignInError, 403],
  [GiftEndedError, 409],
  [ChargeInProgressError, 409],
  // The donor portal's privacy: a year's receipts, erasure.
  [ErasureNotConfirmedError, 400],
  [ErasureUnfinishedError, 409],
  [TooManyReceiptsError, 413],
  [ZipInProgressError, 409],
  [CardUpdateUnavailableError, 409],
  [CardUpdatesLockedError, 409],
  // Rate limits (card testing, floods).
  [RateLimitedError, 429],
  [TerminalInUseError, 409],
  // Kiosk devices.
  [KioskDeviceRequiredError, 403],
  [PairingCodeError, 400],
  [NoTerminalForShopError, 400],
  [NoSuchKioskDeviceError, 404],
  [KioskDeviceRevokedError, 409],
  // Receipts.
  [NoSuchTransactionError, 404],
  [NotReceiptableError, 409],
  [TooManyResendsError, 409],
  // Refunds.
  [NotRefundableError, 409],
  [RefundTooLargeError, 409],
  [RefundDeclinedError, 409],
  [RefundProviderError, 503],
  [NoSuchRefundError, 404],
  [RefundSettledError, 409],
  [RefundTooRecentError, 409],
  [FailureConfirmationError, 409],
  // The back office's outbox list.
  [OutboxCursorError, 400],
  [ReceiptsNotConfiguredError, 503],
  [ReceiptsBusyError, 503],
  // The back office's donor view.
  [NoDonorWithEmailError, 404],
  // The back office's audit log and settings (issue 16).
  [AuditCursorError, 400],
  [AuditFilterError, 400],
  [FlagChangedMeanwhileError, 409],
  [FlagEnforcedError, 409],
  // The accountant's monthly report.
  [InvalidReportRangeError, 400],
];

/**
 * How a known error is answered, or `null` for any other error (a bug or an outage: the app's 500
 * and 503 handlers take those).
 *
 * @example
 * ```ts
 * errorAnswer(new UnknownDonorError()); // { status: 404, message: "No donor with this userId" }
 * errorAnswer(new TypeError("x")); // null
 * ```
 */
export function errorAnswer(e: unknown): ErrorAnswer | null {
  if (e instanceof HttpError) {
    return { status: e.status, message: e.message, errors: e.errors, headers: e.headers };
  }
  if (e instanceof SignatureError) return { status: 401, message: e.message };
  const status = STATUSES.find(([kind]) => e instanceof kind)?.[1];
  if (status === undefined) return null;
  const error = e as DomainError;
  const headers =
    e instanceof LoginThrottledError || e instanceof PasswordsBusyError || e instanceof RateLimitedError ||
      e instanceof ReceiptsBusyError
      ? { "retry-after": String(e.retryAfterSeconds) }
      : undefined;
  return { status, message: error.message, errors: error.errors, headers };
}

/**
 * The API's JSON answer to a known error: `{ message, statusCode, errors? }` with its status and
 * headers (e.g. `Retry-After`).
 *
 * @example
 * ```ts
 * const answer = errorAnswer(e);
 * if (answer) return errorResponse(answer);
 * ```
 */
export function errorResponse(answer: ErrorAnswer): Response {
  return Response.json(errorBody(answer.status, answer.message, answer.errors), {
    status: answer.status,
    headers: answer.headers,
  });
}
