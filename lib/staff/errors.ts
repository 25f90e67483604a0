/**
 * What can go wrong with admin accounts and sessions (`accounts.ts`), as domain errors: each
 * carries the message the caller sees (and the fields at fault), never a status;
 * `lib/http/domain_errors.ts` answers each kind with its status.
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { REFRESH_FAMILY_MAX_DAYS } from "./tokens.ts";

/** Any error of admin accounts and sessions. */
export class AuthError extends DomainError {}

/**
 * A wrong email or password. An unknown email gets the same error, so that a caller cannot tell
 * which emails have accounts.
 */
export class InvalidCredentialsError extends AuthError {
  override readonly kind = "unauthorized";
  constructor() {
    super("Invalid credentials");
  }
}

/** A rejected admin tried to sign in. */
export class AccountRejectedError extends AuthError {
  override readonly kind = "forbidden";
  constructor() {
    super("This account was not approved by an administrator");
  }
}

/**
 * Too many failed sign-ins for this email or client address; the next try is allowed after
 * `retryAfterSeconds`.
 */
export class LoginThrottledError extends AuthError {
  override readonly kind = "rate_limited";
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-in attempts; try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s)`);
  }
}

/**
 * Too many passwords are being hashed at once: the password pool's queue is full
 * (`password_pool.ts`). Nothing was tried; the caller may try again after `retryAfterSeconds`.
 */
export class PasswordsBusyError extends AuthError {
  override readonly kind = "unavailable";
  constructor(readonly retryAfterSeconds: number) {
    super(`The server is busy checking other passwords; try again in ${retryAfterSeconds} second(s)`);
  }
}

/** Registration is closed by policy (`ADMIN_REGISTRATION=closed`). */
export class RegistrationClosedError extends AuthError {
  override readonly kind = "forbidden";
  constructor() {
    super("Registration is closed; ask an administrator for an account");
  }
}

/** An account with this email already exists. */
export class EmailRegisteredError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("An account with this email already exists", [{ path: "email", message: "already registered" }]);
  }
}

/** The password is too weak (too short, too common…); the message says why. */
export class WeakPasswordError extends AuthError {
  override readonly kind = "invalid";
  constructor(problem: string) {
    super(problem, [{ path: "password", message: problem }]);
  }
}

/**
 * Why a refresh token was refused: unknown, its session revoked, expired, already used, or its
 * session older than its absolute lifetime.
 */
export type RefreshRefusal = "unknown" | "revoked" | "expired" | "reused" | "sessionTooOld";

const REFRESH_MESSAGES: Record<RefreshRefusal, string> = {
  unknown: "The refresh token is not valid; sign in again",
  revoked: "The session has ended; sign in again",
  expired: "The refresh token has expired; sign in again",
  reused: "The refresh token was already used; the session is revoked, sign in again",
  sessionTooOld: `The session has reached its ${REFRESH_FAMILY_MAX_DAYS}-day limit; sign in again`,
};

/** A refresh token that cannot be exchanged; `reason` says why. */
export class RefreshTokenError extends AuthError {
  override readonly kind = "unauthorized";
  constructor(readonly reason: RefreshRefusal) {
    super(REFRESH_MESSAGES[reason]);
  }
}

/** A request to an admin call without an `Authorization: Bearer …` header. */
export class SignInRequiredError extends AuthError {
  override readonly kind = "unauthorized";
  constructor() {
    super("Sign in required: send Authorization: Bearer <accessToken>");
  }
}

/** An access token that is expired or not valid (bad signature, wrong type, malformed…). */
export class AccessTokenError extends AuthError {
  override readonly kind = "unauthorized";
  constructor(readonly reason: "expired" | "invalid") {
    super(reason === "expired" ? "The access token has expired" : "The access token is not valid");
  }
}

/** The session's admin was rejected or no longer exists. */
export class AccountInactiveError extends AuthError {
  override readonly kind = "unauthorized";
  constructor() {
    super("The account is no longer active");
  }
}

/** A pending admin asked for what only approved admins may do. */
export class NotApprovedError extends AuthError {
  override readonly kind = "forbidden";
  constructor() {
    super("Your account is waiting for approval by an administrator");
  }
}

/** No admin has this id. */
export class NoSuchAdminError extends AuthError {
  override readonly kind = "not_found";
  constructor() {
    super("No admin with this id");
  }
}

/** An admin tried to approve or reject themselves. */
export class OwnDecisionError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("You cannot change your own approval");
  }
}

/** The admin to decide on is not pending any more. */
export class AlreadyDecidedError extends AuthError {
  override readonly kind = "conflict";
  constructor(readonly status: "approved" | "rejected" | "deactivated") {
    super(`This admin is already ${status}`);
  }
}

/** The signed-in admin's role does not allow this call (`roles.ts`). */
export class RoleRefusedError extends AuthError {
  override readonly kind = "forbidden";
  constructor(readonly role: string | null) {
    super(`Your role (${role ?? "none"}) does not allow this`);
  }
}

/** An owner tried to change their own role or deactivate themselves. */
export class OwnRoleError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("You cannot change your own role or deactivate yourself; ask another owner");
  }
}

/** The change would leave the museum without an active owner. */
export class LastOwnerRefusedError extends AuthError {
  override readonly kind = "conflict";
  constructor() {
    super("The museum must keep at least one active owner");
  }
}

/** The admin to change is not approved (pending, rejected or already deactivated). */
export class NotActiveAdminError extends AuthError {
  override readonly kind = "conflict";
  constructor(readonly status: string) {
    super(`This admin is ${status}, not active`);
  }
}
