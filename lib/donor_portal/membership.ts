/**
 * The donor portal's membership page (issue 27, items 4 and 7): the membership a session reaches,
 * its cards, and the member naming the cardholders.
 *
 * Who may do what (docs/privacy.md, the security table): any session that reaches the address
 * sees the membership and downloads its cards (a card holds a name, a level, a number and a date:
 * no ID number, nothing about money), a manage link's too, while its donor record is still the
 * address's; naming the cardholders makes cards for new people, so it needs a fresh full sign-in
 * (step-up `cardholders`, `access.ts`).
 *
 * @module
 */
import { type MembershipView, readMembership } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById, type MembershipLevel } from "@/lib/shared/museum.ts";
import { MAX_CARDHOLDER_NAME, type Membership } from "@/lib/storage/membership_types.ts";
import type { DonorSession, Store } from "@/lib/storage/types.ts";
import { manageDonorIds } from "./access.ts";

/** The membership as the page shows it: the view and its level now (undefined: a removed level). */
export interface PortalMembership extends MembershipView {
  level: MembershipLevel | undefined;
}

/**
 * The membership `session` reaches at `now`, or null (none, or a manage link whose record is gone).
 *
 * @example
 * ```ts
 * const membership = await sessionMembership({ store, graceDays: 30 }, session);
 * ```
 */
export async function sessionMembership(
  ctx: { store: Store; graceDays?: number },
  session: DonorSession,
  now: Date = new Date(),
): Promise<PortalMembership | null> {
  const donorIds = await manageDonorIds(ctx.store, session);
  if (donorIds !== null && donorIds.length === 0) return null;
  const view = await readMembership(ctx, session.email, now);
  if (!view) return null;
  const { levels } = await readMuseumSettings(ctx.store);
  return { ...view, level: levelById(levels, view.levelId) };
}

/** Why the cardholders' names were refused: one too long, or with a control character. */
export class InvalidCardholdersError extends Error {
  constructor() {
    super("a cardholder's name is 1..100 printable characters");
    this.name = "InvalidCardholdersError";
  }
}

/**
 * The names a cardholders form carries (`holder1`…`holderN`, N the level's `cardholders`), trimmed,
 * empty lines left out. Throws {@link InvalidCardholdersError} for a name no card may carry.
 */
export function cardholdersOfForm(form: URLSearchParams, covers: number): string[] {
  const names: string[] = [];
  for (let i = 1; i <= covers; i++) {
    const name = (form.get(`holder${i}`) ?? "").trim();
    if (name === "") continue;
    // deno-lint-ignore no-control-regex
    if (name.length > MAX_CARDHOLDER_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
      throw new InvalidCardholdersError();
    }
    names.push(name);
  }
  return names;
}

/**
 * Stores the cardholders of the membership of `email` (none: the one card names the member again).
 * Answers the membership as stored, or null when it is gone.
 *
 * @example
 * ```ts
 * await changeCardholders(store, session.email, ["Dana Levi", "Avi Levi"]);
 * ```
 */
export async function changeCardholders(
  store: Pick<Store, "memberships">,
  email: string,
  names: string[],
  now: Date = new Date(),
): Promise<Membership | null> {
  return await store.memberships.change({
    email,
    apply: (current) =>
      current
        ? {
          number: current.number,
          donorId: current.donorId,
          subscriptionId: current.subscriptionId,
          terms: current.terms,
          cardholders: names,
        }
        : null,
  }, now.toISOString());
}
