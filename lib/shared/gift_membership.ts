/**
 * A gift membership's fields (issue 28, item 3) and their rules, shared by the donation page's
 * form (no JavaScript), its island and the API (`POST /api/payment/create`'s optional `gift…`
 * fields): the recipient's name and address, the delivery day, the giver's message, who gets the
 * renewal reminders and the recipient's language. Pure: the server checks them again whatever the
 * browser did (`lib/donations/gifts.ts`).
 *
 * The delivery day is a calendar day from today (the default) to {@link MAX_GIFT_DAYS_AHEAD} days
 * ahead (UTC, a day of slack before for a giver whose today is still yesterday in UTC): the term
 * starts at payment, so a gift months ahead would spend its term before it arrives.
 *
 * @module
 */
import type { Lang } from "./languages.ts";

/** Who gets the renewal reminders (as `lib/storage/membership_types.ts` stores it). */
export const GIFT_REMINDER_CHOICES = ["giver", "recipient", "both"] as const;
/** The furthest delivery day, in days after today. */
export const MAX_GIFT_DAYS_AHEAD = 90;
/** The longest recipient's name and giver's message (characters). */
export const MAX_GIFT_NAME = 100;
export const MAX_GIFT_MESSAGE = 500;

/** The gift's fields as the form and the API name them. */
export interface GiftFields {
  giftName: string;
  giftEmail: string;
  /** `YYYY-MM-DD`. */
  giftDate: string;
  giftMessage: string;
  giftReminders: string;
  giftLanguage: string;
}

/** The gift's field names, in form order. */
export const GIFT_FIELDS: readonly (keyof GiftFields)[] = [
  "giftName",
  "giftEmail",
  "giftDate",
  "giftMessage",
  "giftReminders",
  "giftLanguage",
];

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Control characters but the line breaks a message may have.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F]/;

/** The UTC day `days` after `now`'s, as `YYYY-MM-DD`. */
export const dayOf = (now: Date, days = 0): string =>
  new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);

/** The instant a delivery day `YYYY-MM-DD` begins (UTC), or null when it is not a calendar day. */
export function deliveryStart(day: string): string | null {
  const m = DATE.exec(day);
  if (!m) return null;
  const at = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return at.toISOString().slice(0, 10) === day ? at.toISOString() : null;
}

/** The delivery day the fields ask for: the one given, or today (UTC) when none is. */
export const deliveryDay = (fields: Pick<GiftFields, "giftDate">, now: Date): string =>
  fields.giftDate.trim() || dayOf(now);

/**
 * The locale keys of the gift's problems, by field (`{}` when it is fine), at `now`. The language,
 * a choice of the page's five, is checked by the server alone (`lib/donations/gifts.ts`): this
 * module loads in the browser, and the languages' list would weigh on the page's budget; the
 * address is checked with `isEmail` of `donation.ts`, given by the caller for the same reason (the
 * page's island has it already; imported here, it would be split into a chunk of its own).
 *
 * @example
 * ```ts
 * giftErrors({ ...fields, giftDate: "2020-01-01" }, new Date(), isEmail); // { giftDate: "giftMembership.errors.date" }
 * ```
 */
export function giftErrors(
  fields: GiftFields,
  now: Date,
  isEmail: (text: string) => boolean,
): Partial<Record<keyof GiftFields, string>> {
  const errors: Partial<Record<keyof GiftFields, string>> = {};
  const name = fields.giftName.trim();
  if (!name || name.length > MAX_GIFT_NAME || CONTROL.test(name)) {
    errors.giftName = "giftMembership.errors.name";
  }
  const email = fields.giftEmail.trim();
  if (!isEmail(email)) errors.giftEmail = "giftMembership.errors.email";
  const day = deliveryDay(fields, now);
  if (!deliveryStart(day) || day < dayOf(now, -1) || day > dayOf(now, MAX_GIFT_DAYS_AHEAD)) {
    errors.giftDate = "giftMembership.errors.date";
  }
  if (fields.giftMessage.trim().length > MAX_GIFT_MESSAGE || CONTROL.test(fields.giftMessage)) {
    errors.giftMessage = "giftMembership.errors.message";
  }
  if (!(GIFT_REMINDER_CHOICES as readonly string[]).includes(fields.giftReminders)) {
    errors.giftReminders = "giftMembership.errors.reminders";
  }
  return errors;
}

/**
 * The gift's fields from a form or a request body (absent ones empty; reminders to the recipient
 * and the page's language by default), or null when it names no gift (no gift field given).
 *
 * @example
 * ```ts
 * giftFieldsOf({ giftName: "Noa", giftEmail: "noa@example.org", giftDate: "2026-04-01" }, "he");
 * ```
 */
export function giftFieldsOf(
  input: Partial<Record<keyof GiftFields, unknown>>,
  lang: Lang,
): GiftFields | null {
  if (!GIFT_FIELDS.some((f) => input[f] !== undefined && input[f] !== "")) return null;
  const text = (f: keyof GiftFields) =>
    typeof input[f] === "string" ? (input[f] as string).slice(0, 2_000) : "";
  return {
    giftName: text("giftName"),
    giftEmail: text("giftEmail"),
    giftDate: text("giftDate"),
    giftMessage: text("giftMessage"),
    giftReminders: text("giftReminders") || "recipient",
    giftLanguage: text("giftLanguage") || lang,
  };
}
