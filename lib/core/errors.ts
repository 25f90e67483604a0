/**
 * What the domain's errors share. A domain module (`lib/staff/`, `lib/donations/`) says what went
 * wrong in its own terms: a message for the caller and, for bad input, the fields at fault. It
 * never says how to answer: the HTTP layer (`lib/http/domain_errors.ts`) turns each kind of error
 * into a status, so the domain stays usable from a background job or a test without HTTP.
 *
 * @module
 */

/** One field's problem: the field's path in the input, and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * What kind of failure an error is, in the domain's words: `invalid` (the input breaks a rule),
 * `unauthorized` (no or bad credentials), `forbidden` (known, but not allowed), `not_found`, `conflict`
 * (the state forbids it now), `too_large`, `rate_limited` and `unavailable` (try again later).
 */
export type ErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "rate_limited"
  | "unavailable";

/**
 * An error of the domain, with a message meant for the caller (the API answers it as is) and,
 * when the input was at fault, the fields at fault.
 *
 * @example
 * ```ts
 * class UnknownDonorError extends DomainError {}
 * throw new UnknownDonorError("No donor with this userId");
 * ```
 */
export class DomainError extends Error {
  /** What kind of failure this is (`lib/http/` answers each kind with one status); none: not the caller's. */
  declare readonly kind?: ErrorKind;

  constructor(message: string, readonly errors?: FieldError[]) {
    super(message);
    this.name = new.target.name;
  }
}
