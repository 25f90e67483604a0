/**
 * What can go wrong with the staff's two-factor sign-in (`two_factor.ts`), as domain errors;
 * `lib/http/domain_errors.ts` gives each its status. Separate from `errors.ts` so the second
 * factor's refusals read together.
 *
 * @module
 */
import { AuthError } from "./errors.ts";

/** The password step's token is missing, changed or older than its few minutes: sign in again. */
export class SecondFactorTokenError extends AuthError {
  override readonly kind = "unauthorized";
  constructor() {
    super("This sign-in has expired or is not valid; sign in again with your password", [
      { path: "pendingToken", message: "expired or not valid" },
    ]);
  }
}

/** A wrong, spent or malformed code at sign-in (it counts toward the login throttle). */
export class WrongSecondFactorCodeError extends AuthError {
  override readonly kind = "unauthorized";
  constructor() {
    super("The code is not valid (each code works once); try the current code or a recovery code", [
      { path: "code", message: "not valid" },
    ]);
  }
}

/** A code that does not match the secret being enrolled. */
export class WrongEnrolmentCodeError extends AuthError {
  override readonly kind = "invalid";
  constructor() {
    super("The code does not match; check that the phone's clock is right and type the current code", [
      { path: "code", message: "does not match" },
    ]);
  }
}

/** Two-factor is required for everyone and this account has not set it up: only enrolment is open to it. */
export class TwoFactorEnrolmentRequiredError extends AuthError {
  override readonly kind = "forbidden";
  constructor() {
    super(
      "Two-factor sign-in is required: set it up first (GET /api/auth/admin/two-factor tells the state)",
      [
        { path: "twoFactor", message: "enrolment required" },
      ],
    );
  }
}

/** The admin has two-factor sign-in already (an owner resets it to enrol again). */
export class AlreadyEnrolledError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("Two-factor sign-in is already set up for this account");
  }
}

/** A confirmation without an enrolment begun (or after another one replaced it). */
export class NoEnrolmentError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("No two-factor set-up is in progress for this account (or another one replaced it); start again");
  }
}

/** An owner reset the two-factor sign-in of an admin that has none. */
export class NoTwoFactorError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("This admin has no two-factor sign-in to reset");
  }
}

/** The stored secret does not open under this APP_SECRET (it was changed): an owner must reset it. */
export class SecretUnreadableError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super(
      "This account's two-factor secret cannot be read (was APP_SECRET changed?); ask an owner to reset it",
    );
  }
}

/** A current code from the app was asked for (to change the admin's own two-factor), and this is not one. */
export class WrongCurrentCodeError extends AuthError {
  override readonly kind = "invalid";
  constructor() {
    super(
      "The code is not valid: type the current 6-digit code from your authenticator app (each code works once)",
      [
        { path: "code", message: "not the current code" },
      ],
    );
  }
}

/** The admin has no two-factor sign-in set up to change. */
export class NotEnrolledError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("Two-factor sign-in is not set up for this account");
  }
}

/** Two-factor sign-in cannot be turned off while an owner requires it for everyone. */
export class TwoFactorRequiredError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("The museum requires two-factor sign-in for every account: it cannot be turned off");
  }
}
