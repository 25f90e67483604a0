/**
 * What the donation page shows for a renewal link (`/{lang}/?renew=<token>`) or a level's link
 * (`/{lang}/?level=<id>`, the portal's "renew now"): the level to select and, for a valid renewal
 * token of a membership that still exists, the member's details from the donor record that names
 * the membership (first and last name, email, country). A bad, changed or expired token, or one of
 * an erased membership, prefills nothing and says so. The page renders the answer into its form,
 * so it works the same with or without JavaScript. Paying then renews by the usual rules (`terms.ts`:
 * from the current end).
 *
 * @module
 */
import type { DonorFields } from "@/lib/shared/donation.ts";
import { levelById, type MembershipLevel } from "@/lib/shared/museum.ts";
import type { Store } from "@/lib/storage/types.ts";
import { readRenewalToken, type RenewalKey } from "./renewal_link.ts";

/** The page's renewal part: the level to select, the details to fill in, and what to say. */
export interface RenewalPrefill {
  /** The level to select, or null (none, or one the museum no longer offers). */
  level: MembershipLevel | null;
  /** The member's details, for a valid renewal token only. */
  fields: DonorFields | null;
  /** `renewing`: a valid renewal link; `bad-link`: a renewal link that is not (any more); else null. */
  notice: "renewing" | "bad-link" | null;
}

/**
 * The renewal part of the donation page for its query, or null when it has none (the page as usual).
 *
 * @example
 * ```ts
 * const prefill = await renewalPrefill({ store, key }, url.searchParams, museum.levels);
 * ```
 */
export async function renewalPrefill(
  deps: { store: Pick<Store, "memberships" | "donors">; key: RenewalKey },
  query: URLSearchParams,
  levels: readonly MembershipLevel[],
  now: Date = new Date(),
): Promise<RenewalPrefill | null> {
  const token = query.get("renew");
  if (token !== null) {
    const bad: RenewalPrefill = { level: null, fields: null, notice: "bad-link" };
    const claim = await readRenewalToken(deps.key, token, now);
    const membership = claim ? await deps.store.memberships.get(claim.email) : null;
    const donor = membership ? await deps.store.donors.get(membership.donorId) : null;
    if (!claim || !donor || donor.erasedAt !== undefined) return bad;
    const { firstName, lastName, email, country } = donor;
    return {
      level: levelById(levels, claim.levelId) ?? null,
      fields: { firstName, lastName, email, country },
      notice: "renewing",
    };
  }
  const id = query.get("level");
  if (id === null || !/^\d{1,3}$/.test(id)) return null;
  const level = levelById(levels, Number(id));
  return level ? { level, fields: null, notice: null } : null;
}
