/**
 * What a donor's session may reach and do (issue 23): the one place the portal's routes ask.
 *
 * A session has a scope (`lib/storage/donor_session_types.ts`). A `manage` session, made by the
 * manage link every donor email carries (reusable for 60 days, and in every receipt a donor might
 * forward), reaches the one donor record the link names: it may see that record's gifts, pause,
 * skip, resume, lower or cancel a monthly gift, and download its receipts with the Israeli ID
 * number masked. A `full` session, made by a one-time link the donor asked for by typing the
 * address, reaches every record of the address. What exposes or changes more than the gift itself
 * needs a full sign-in from the last {@link STEP_UP_WINDOW_MS} (step-up): erasure, the data
 * download, a year's receipts and any receipt with the ID number, a card change, a raised amount.
 * A session that may not gets the step-up page (`/{lang}/account/confirm?for=…`), which emails a
 * one-time sign-in link to the address on file, never to one the visitor types.
 *
 * Why an hour for a full session, which itself lasts a day: a sign-in link proves the donor read
 * the mailbox just now; a day-old cookie on a shared computer proves less, and what step-up guards
 * (erasure, another card) cannot be undone by the donor.
 *
 * @module
 */
import { type DonorHistory, donorHistory } from "./history.ts";
import { isDonorOf } from "@/lib/donors/mod.ts";
import type { GiftRef } from "@/lib/monthly_gifts/mod.ts";
import type { DonorSession, Store } from "@/lib/storage/types.ts";

/** How long after a full sign-in its step-up actions stay open: an hour. */
export const STEP_UP_WINDOW_MS = 3_600_000;

/** What needs a fresh full sign-in, as the step-up page's `for` names it (`all`: the banner's button). */
export const STEP_UP_ACTIONS = [
  "data",
  "erase",
  "receipts",
  "taxId",
  "card",
  "amount",
  "cardholders",
  "all",
] as const;
export type StepUpAction = typeof STEP_UP_ACTIONS[number];

/** Whether `value` names a step-up action. */
export function isStepUpAction(value: unknown): value is StepUpAction {
  return (STEP_UP_ACTIONS as readonly unknown[]).includes(value);
}

/**
 * Whether `session` may do what needs a fresh sign-in at `now`: a full session, signed in by a
 * one-time link within {@link STEP_UP_WINDOW_MS} (its creation is that sign-in: every one-time
 * link makes a new session).
 *
 * @example
 * ```ts
 * if (!steppedUp(session)) return seeOther(stepUpPath(lang, "data"));
 * ```
 */
export function steppedUp(session: DonorSession, now: Date = new Date()): boolean {
  return session.scope === "full" && now.getTime() - Date.parse(session.createdAt) < STEP_UP_WINDOW_MS;
}

/** The step-up page's address for `action`. */
export function stepUpPath(lang: string, action: StepUpAction): string {
  return `/${lang}/account/confirm?for=${action}`;
}

/**
 * The donor records a manage session reaches: its one record, while it still exists under the
 * session's address (not erased); null for a full session, which reaches every record of the address.
 *
 * @example
 * ```ts
 * const donorIds = await manageDonorIds(store, session); // ["d1"], [] or null
 * ```
 */
export async function manageDonorIds(
  store: Pick<Store, "donors">,
  session: DonorSession,
): Promise<string[] | null> {
  if (session.scope === "full") return null;
  if (session.donorId === null) return [];
  return await isDonorOf(store, session.donorId, session.email) ? [session.donorId] : [];
}

/**
 * The gift `subscriptionId` as `session` may act on it (`lib/monthly_gifts/subscription_changes.ts`):
 * the session's address, its one record when it is a manage link's, and whether it may raise the
 * amount.
 *
 * @example
 * ```ts
 * await applyGiftForm(ctx, giftRef(session, giftId), "pause", form);
 * ```
 */
export function giftRef(session: DonorSession, subscriptionId: string, now: Date = new Date()): GiftRef {
  return {
    subscriptionId,
    email: session.email,
    ...(session.scope === "manage" ? { donorId: session.donorId ?? "" } : {}),
    mayRaise: steppedUp(session, now),
  };
}

/**
 * The account page's history for `session`: the records it reaches; the receipts' links print the
 * Israeli ID number only for a session that has {@link steppedUp}.
 *
 * @example
 * ```ts
 * const history = await sessionHistory(store, config.appSecret, session, "he");
 * ```
 */
export async function sessionHistory(
  store: Pick<Store, "donors" | "transactions" | "receipts" | "subscriptions" | "rateLimits" | "museum">,
  appSecret: string,
  session: DonorSession,
  lang: string,
  now: Date = new Date(),
): Promise<DonorHistory> {
  const donorIds = await manageDonorIds(store, session);
  return await donorHistory(store, appSecret, session.email, lang, now, {
    ...(donorIds ? { donorIds } : {}),
    maskTaxId: !steppedUp(session, now),
  });
}

/**
 * What the account page says about `session`'s limits: `manage` (a manage link's: one gift),
 * `stale` (a full sign-in older than {@link STEP_UP_WINDOW_MS}), or null (nothing is out of reach).
 */
export function sessionLimit(session: DonorSession, now: Date = new Date()): "manage" | "stale" | null {
  return session.scope === "manage" ? "manage" : steppedUp(session, now) ? null : "stale";
}
