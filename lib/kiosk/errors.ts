/**
 * What can go wrong with kiosk devices (`devices.ts`), as domain errors: each carries the message
 * the caller sees; `lib/http/domain_errors.ts` gives each its status (the pages translate them by
 * kind), so the rules stay usable without HTTP.
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { FALLBACK_LANG, type Lang } from "@/lib/shared/languages.ts";

/** Any error of kiosk devices. */
export class KioskError extends DomainError {}

/** Why a terminal sale found no device to authorise it. */
export type DeviceRefusal = "not-paired" | "revoked" | "wrong-shop";

/** The refusals' messages; `pairPath` is the pairing page in the sale's language. */
const REFUSALS: Record<DeviceRefusal, (pairPath: string) => string> = {
  "not-paired": (pairPath) =>
    "Terminal sales can only be started from a paired kiosk. This browser is not paired: an approved admin " +
    `creates a kiosk device in the back office and opens its pairing link (or enters its code at ${pairPath}) ` +
    "on this kiosk",
  "revoked": () =>
    "This kiosk's device was revoked in the back office; an admin must create and pair a new device for it " +
    "before it can take card payments again",
  "wrong-shop": () =>
    "This kiosk is paired for another shop; it can only take card payments for the shop it was paired for",
};

/**
 * A terminal sale without a paired device (or with a revoked one, or for another shop); `lang` is
 * the sale's, for the pairing page the message names.
 */
export class KioskDeviceRequiredError extends KioskError {
  override readonly kind = "forbidden";
  constructor(readonly reason: DeviceRefusal, lang: Lang = FALLBACK_LANG) {
    // The device (its cookie) is what is at fault; the reason lets a page say it in its language.
    super(REFUSALS[reason](`/${lang}/kiosk-pair`), [{ path: "kioskDevice", message: reason }]);
  }
}

/** A pairing code that is wrong, already used, expired or of a revoked device. */
export class PairingCodeError extends KioskError {
  override readonly kind = "invalid";
  constructor() {
    super("This pairing code is wrong, already used or expired; create a new one in the back office", [{
      path: "code",
      message: "no device is waiting for this code",
    }]);
  }
}

/** No kiosk device has this id. */
export class NoSuchKioskDeviceError extends KioskError {
  override readonly kind = "not_found";
  constructor() {
    super("No kiosk device with this id");
  }
}

/** A revoked device cannot be paired again: create a new one. */
export class KioskDeviceRevokedError extends KioskError {
  override readonly kind = "conflict";
  constructor() {
    super("This kiosk device was revoked; create a new device instead");
  }
}

/** A device for a shop that has no card terminal (`TERMINALS`). */
export class NoTerminalForShopError extends KioskError {
  override readonly kind = "invalid";
  constructor(shopNumber: string) {
    super(`No terminal is configured for shop ${shopNumber}`, [{
      path: "shopNumber",
      message: "configure the shop's terminal in TERMINALS first",
    }]);
  }
}
