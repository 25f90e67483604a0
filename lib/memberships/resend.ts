/**
 * Staff resending a member's cards (issue 27): the `member-card` email, queued with its audit entry
 * (`member-card-resent`) in one write. Keyed by the membership and the 10 seconds it was asked in,
 * so a double click (or two staff at once) queues one email and says so (`repeated`).
 *
 * @module
 */
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import { FALLBACK_LANG } from "@/lib/shared/languages.ts";
import type { Store } from "@/lib/storage/types.ts";
import { NoSuchMembershipError } from "./errors.ts";
import { memberCardMessage } from "./messages.ts";

/** Within how long a second resend is the same one. */
export const CARD_RESEND_REPEAT_MS = 10_000;

/**
 * Queues the cards of membership `number` again, to the member's address on file, in the language
 * of its latest membership email (English when there is none). Throws {@link NoSuchMembershipError}.
 *
 * @example
 * ```ts
 * await resendMemberCard(store, "KYEF-EP8M", new Date(), actor); // { key, repeated: false }
 * ```
 */
export async function resendMemberCard(
  store: Pick<Store, "memberships" | "outbox">,
  number: string,
  now: Date,
  actor: Actor,
): Promise<{ key: string; repeated: boolean }> {
  const membership = await store.memberships.getByNumber(number);
  if (!membership) throw new NoSuchMembershipError("No membership with this number");
  const latest = membership.terms.at(-1);
  const sent = latest ? await store.outbox.get(`membership:${latest.transactionId}`) : null;
  const window = String(Math.floor(now.getTime() / CARD_RESEND_REPEAT_MS));
  const message = memberCardMessage(membership, sent?.language ?? FALLBACK_LANG, window);
  const created = await store.outbox.enqueue([message], now.toISOString(), {
    audit: [actorEntry(actor, "member-card-resent", membership.number, { message: message.key })],
  });
  return { key: message.key, repeated: created === 0 };
}
