/**
 * What can go wrong when an owner changes the museum's settings, as domain errors (a kind, never a
 * status: `lib/http/domain_errors.ts` answers each).
 *
 * @module
 */
import { DomainError, type FieldError } from "@/lib/core/errors.ts";

/** The change breaks a rule: every field at fault is listed, each with what is wrong with it. */
export class InvalidMuseumSettingsError extends DomainError {
  override readonly kind = "invalid";
  constructor(errors: FieldError[]) {
    super(`The settings were not saved: ${errors[0].path}: ${errors[0].message}`, errors);
  }
}

/** Someone saved the settings after the version this change was made from: nothing was written. */
export class MuseumSettingsChangedMeanwhileError extends DomainError {
  override readonly kind = "conflict";
  constructor(current: number, given: number) {
    super(
      `The settings were changed by someone else (version ${current}, this change was made from ${given}): ` +
        "reload them and make the change again",
      [{ path: "version", message: "changed meanwhile" }],
    );
  }
}
