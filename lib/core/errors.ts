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
  constructor(message: string, readonly errors?: FieldError[]) {
    super(message);
    this.name = new.target.name;
  }
}
