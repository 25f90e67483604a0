/**
 * Opening a donor email's manage link (`/{lang}/account?token=…`, `lib/donor_portal/manage_link.ts`) in the
 * donor portal (issue 23), and the rule both kinds of link follow when the browser is signed in
 * already.
 *
 * The link's GET signs nobody in: a page on another site could otherwise sign a visitor in to the
 * page of a gift the attacker made (login CSRF) and have them put their card on it. It shows a
 * button; the button's POST (same-origin only, `routes/[lang]/_middleware.ts`) makes a `manage`
 * session bound to the link's donor record (`lib/donor_portal/access.ts` says what it may do). A mail
 * scanner that opens the link makes nothing either.
 *
 * A session the browser already holds is never replaced silently: when it belongs to another
 * address, the page asks (keep it, or switch), and only a POST that says `switch` replaces it; a
 * session of the same address is replaced by the button itself (it is the same donor), the old one
 * revoked; one that already reaches the link's record (a full session of the address, or a manage
 * session of that record) is kept, and the link only opens the page.
 *
 * Token sign-ins are counted before anything is read: at most {@link TOKEN_SIGN_INS_PER_TOKEN} per
 * link and {@link TOKEN_SIGN_INS_PER_ADDRESS} per client address (its bucket) an hour, in storage
 * (`store.rateLimits`), so a forwarded link cannot mint sessions at will. An address keeps at most
 * `MAX_SESSIONS_PER_EMAIL` sessions in any case (`store.donorSessions`).
 *
 * @module
 */
import { hashRefreshToken } from "@/lib/staff/mod.ts";
import { type ManageLinkKey, readManageToken } from "./manage_link.ts";
import { addressBucket } from "@/lib/rate_limits/mod.ts";
import type { Donor, DonorSession, Store } from "@/lib/storage/types.ts";
import { newSession, standing } from "./sign_in.ts";

/** Sign-ins by one manage link per {@link TOKEN_SIGN_IN_WINDOW_MS}. */
export const TOKEN_SIGN_INS_PER_TOKEN = 10;
/** Sign-ins by manage links from one client address bucket per {@link TOKEN_SIGN_IN_WINDOW_MS}. */
export const TOKEN_SIGN_INS_PER_ADDRESS = 30;
/** The token sign-in limits' window: an hour. */
export const TOKEN_SIGN_IN_WINDOW_MS = 3_600_000;

/** What the manage link's page shows (its GET). */
export type ManageLinkView =
  /** Not ours, expired, or its donor record gone or erased: the sign-in form, saying so. */
  | { kind: "refused"; reason: "invalid" | "expired" | "unknown" }
  /** The browser's session already reaches the record: the account page. */
  | { kind: "covered" }
  /** The button that opens the page of `email`'s gift. */
  | { kind: "confirm"; email: string }
  /** The browser is signed in as `current`: keep it, or switch to `email`. */
  | { kind: "choose"; email: string; current: string };

/** What {@link openManageLink} did. */
export type ManageLinkOpening =
  | Exclude<ManageLinkView, { kind: "confirm" }>
  | { kind: "signed-in"; token: string; session: DonorSession }
  | { kind: "rate-limited"; retryAfterMs: number };

/** What reading a manage link needs. */
export interface ManageLinkDeps {
  store: Pick<Store, "donors" | "donorSessions" | "rateLimits">;
  manageKey: ManageLinkKey;
}

/** The link's donor record, or why none. */
async function linkDonor(
  deps: ManageLinkDeps,
  token: string,
  now: Date,
): Promise<{ donor: Donor } | { refused: "invalid" | "expired" | "unknown" }> {
  const read = await readManageToken(deps.manageKey, token, now);
  if (read.kind !== "valid") return { refused: read.kind };
  const donor = await deps.store.donors.get(read.donorId);
  return donor && donor.erasedAt === undefined && donor.email !== "" ? { donor } : { refused: "unknown" };
}

/** The view of a link for the browser's session, once its donor is known. */
function viewFor(current: DonorSession | null, donor: { id: string; email: string }): ManageLinkView {
  const stand = standing(current, donor.email, donor.id);
  if (stand === "covered") return { kind: "covered" };
  if (stand === "other") return { kind: "choose", email: donor.email, current: current!.email };
  return { kind: "confirm", email: donor.email };
}

/**
 * What the manage link's page shows to a browser holding `current` (or none). Reads only.
 *
 * @example
 * ```ts
 * const view = await viewManageLink({ store, manageKey }, token, session);
 * ```
 */
export async function viewManageLink(
  deps: ManageLinkDeps,
  token: string,
  current: DonorSession | null,
  now: Date = new Date(),
): Promise<ManageLinkView> {
  const found = await linkDonor(deps, token, now);
  return "refused" in found ? { kind: "refused", reason: found.refused } : viewFor(current, found.donor);
}

/**
 * The manage link page's button: counted (per client address, then per link), then a `manage`
 * session for the link's donor record, unless the browser's session covers it, or belongs to
 * another address and `switchTo` is not set (the choice again). A replaced session is revoked.
 *
 * @example
 * ```ts
 * const opened = await openManageLink(deps, { token, address: ip, current, switchTo: false });
 * if (opened.kind === "signed-in") headers.set("set-cookie", sessionCookie(opened.token, …));
 * ```
 */
export async function openManageLink(
  deps: ManageLinkDeps,
  request: { token: string; address: string; current: DonorSession | null; switchTo: boolean },
  now: Date = new Date(),
): Promise<ManageLinkOpening> {
  const hits = await deps.store.rateLimits.hitInOrder(
    [
      { key: `token-sign-in:addr:${addressBucket(request.address)}`, limit: TOKEN_SIGN_INS_PER_ADDRESS },
      {
        key: `token-sign-in:token:${await hashRefreshToken(request.token)}`,
        limit: TOKEN_SIGN_INS_PER_TOKEN,
      },
    ],
    TOKEN_SIGN_IN_WINDOW_MS,
    now.getTime(),
  );
  const refused = hits.find((hit) => !hit.allowed);
  if (refused) return { kind: "rate-limited", retryAfterMs: refused.retryAfterMs };
  const found = await linkDonor(deps, request.token, now);
  if ("refused" in found) return { kind: "refused", reason: found.refused };
  const { donor } = found;
  const view = viewFor(request.current, donor);
  if (view.kind === "covered" || (view.kind === "choose" && !request.switchTo)) return view;
  const { token, record } = await newSession(now);
  const session: DonorSession = {
    ...record,
    email: donor.email,
    revokedAt: null,
    scope: "manage",
    donorId: donor.id,
  };
  try {
    await deps.store.donorSessions.createSession(session);
  } catch (e) {
    // A record whose address storage would not keep as a session's (an old import): no session.
    if (e instanceof RangeError) return { kind: "refused", reason: "unknown" };
    throw e;
  }
  if (request.current) await deps.store.donorSessions.revokeSession(request.current.hash, now.toISOString());
  return { kind: "signed-in", token, session };
}
