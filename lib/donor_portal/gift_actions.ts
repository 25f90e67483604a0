/**
 * The donor portal's forms for a monthly gift (issue 15): what each form posts, read into one call
 * of `lib/monthly_gifts/subscription_changes.ts`, and each refusal as the translated notice the page
 * shows. The routes (`routes/[lang]/account/gifts/[id]/[action].tsx`) stay thin: they parse the
 * request, call {@link applyGiftForm} and render; the rules (limits, ownership, idempotence,
 * exactly-once against billing) are all in `subscription_changes.ts`.
 *
 * Fields, all plain form fields (the forms work without JavaScript):
 * - `amount`: `amount` = a tier's price in the gift's currency (major units) or `other`, then
 *   `otherAmount` (a comma is read as the decimal point: "12,50");
 * - `pause`: `months` = 1, 2 or 3;
 * - `skip`: `period` = the next charge's date the page showed (so a stale page skips nothing else);
 * - `resume`: nothing;
 * - `cancel`: `reason` = one of `CANCEL_REASONS`, or empty (none given).
 *
 * @module
 */
import {
  cancelGift,
  changeAmount,
  ChargeInProgressError,
  type GiftChangeContext,
  type GiftChangeResult,
  GiftEndedError,
  type GiftRef,
  InvalidGiftChangeError,
  NoSuchGiftError,
  pauseGift,
  resumeGift,
  skipNextCharge,
} from "@/lib/monthly_gifts/mod.ts";
import { MIN_AMOUNT } from "@/lib/shared/money.ts";

/** The forms a monthly gift has, as they appear in the path (`/{lang}/account/gifts/{id}/{action}`). */
export const GIFT_ACTIONS = ["amount", "pause", "skip", "resume", "cancel"] as const;
export type GiftAction = typeof GIFT_ACTIONS[number];

/** Whether a path segment names one of the forms. */
export function isGiftAction(value: string): value is GiftAction {
  return (GIFT_ACTIONS as readonly string[]).includes(value);
}

/** An other amount as a donor types it: digits, then at most one decimal point or comma. */
const AMOUNT_TEXT = /^\d{1,12}(?:[.,]\d{1,12})?$/;

/** Subscription ids as `lib/core/ids.ts` and imports make them; anything else names no gift. */
const GIFT_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The amount form's value in major units; a refusal when it is missing or not a number. */
export function amountOfForm(form: URLSearchParams): number {
  const choice = (form.get("amount") ?? "").trim();
  const other = (form.get("otherAmount") ?? "").trim();
  // Without JavaScript a donor may type an amount and forget the "other" radio: the typed one wins.
  const text = choice === "other" || (choice === "" && other !== "") ? other : choice;
  if (text === "") throw new InvalidGiftChangeError("Choose or enter an amount", "amount", "missing");
  if (!AMOUNT_TEXT.test(text)) {
    throw new InvalidGiftChangeError("The amount must be a number", "amount", "not a number");
  }
  return Number(text.replace(",", "."));
}

/**
 * Applies one form of the donor portal to the gift `ref` names, when it is a gift of the signed-in
 * address (`ref.email`; its donor record's own email, `isDonorOf`). Throws the domain's errors (`GiftChangeError`s: 400, 404, 409 in
 * `lib/http/domain_errors.ts`); {@link giftErrorNotice} says them in the donor's language.
 *
 * @example
 * ```ts
 * await applyGiftForm({ store, maxAmount: 100_000 }, { subscriptionId, email: session.email }, "pause",
 *   new URLSearchParams("months=2"));
 * ```
 */
export async function applyGiftForm(
  ctx: GiftChangeContext,
  ref: GiftRef,
  action: GiftAction,
  form: URLSearchParams,
): Promise<GiftChangeResult> {
  if (!GIFT_ID.test(ref.subscriptionId)) throw new NoSuchGiftError();
  switch (action) {
    case "amount":
      return await changeAmount(ctx, ref, amountOfForm(form));
    case "pause": {
      const text = (form.get("months") ?? "").trim();
      return await pauseGift(ctx, ref, /^\d$/.test(text) ? Number(text) : NaN);
    }
    case "skip":
      return await skipNextCharge(ctx, ref, (form.get("period") ?? "").trim().slice(0, 40));
    case "resume":
      return await resumeGift(ctx, ref);
    case "cancel": {
      const reason = (form.get("reason") ?? "").trim().slice(0, 40);
      return await cancelGift(ctx, ref, reason === "" ? null : reason);
    }
  }
}

/** What the page says after a form: done (after the redirect), or why not (the page again). */
export type GiftNotice =
  | { kind: "done"; action: GiftAction }
  | {
    kind: "error";
    action: GiftAction;
    giftId: string;
    /** The locale key of the refusal, under `portalGifts.errors`, and its values. */
    key: string;
    values?: Record<string, string | number>;
    /** The field at fault, when one is (its form is shown open, the field marked invalid). */
    field: string | null;
  };

/** The amount form's refusals, by `subscription_changes.ts`'s reason (its `errors[0].message`). */
const AMOUNT_KEYS: Record<string, string> = {
  "missing": "amountMissing",
  "not a number": "amountInvalid",
  "too small": "amountTooSmall",
  "too large": "amountTooLarge",
  "not money": "amountDecimals",
};

/**
 * The notice of a refused form, or null when `e` is not a refusal of a gift change (a bug or an
 * outage, for the app's 500 and 503 handlers).
 *
 * @example
 * ```ts
 * giftErrorNotice(new NoSuchGiftError(), "cancel", id, 100_000); // { kind: "error", key: "noSuchGift", … }
 * ```
 */
export function giftErrorNotice(
  e: unknown,
  action: GiftAction,
  giftId: string,
  maxAmount: number,
): GiftNotice | null {
  const notice = (key: string, field: string | null, values?: Record<string, string | number>) => ({
    kind: "error" as const,
    action,
    giftId,
    key,
    field,
    values,
  });
  if (e instanceof NoSuchGiftError) return notice("noSuchGift", null);
  if (e instanceof GiftEndedError) return notice("ended", null);
  if (e instanceof ChargeInProgressError) return notice("chargeInProgress", null);
  if (!(e instanceof InvalidGiftChangeError)) return null;
  const [fault] = e.errors ?? [];
  switch (fault?.path) {
    case "amount":
      return notice(AMOUNT_KEYS[fault.message] ?? "amountInvalid", "amount", {
        min: MIN_AMOUNT,
        max: maxAmount,
      });
    case "months":
      return notice("months", "months");
    case "period":
      return notice("skipNotNext", null);
    case "reason":
      return notice("reason", "reason");
    default:
      return notice("invalid", null);
  }
}

/**
 * The confirmation a redirect after a form asks for (`/{lang}/account?done=pause`), or null.
 *
 * @example
 * ```ts
 * giftDoneNotice(new URL("https://x/en/account?done=skip")); // { kind: "done", action: "skip" }
 * ```
 */
export function giftDoneNotice(url: URL): GiftNotice | null {
  const done = url.searchParams.get("done") ?? "";
  return isGiftAction(done) ? { kind: "done", action: done } : null;
}
