/**
 * Letting a visitor in at the front desk (issue 28): **check in** a member whose membership is
 * valid now (active, or in grace), with at most the guests their level admits, or **allow anyway**
 * anyone (a lapsed member, an unknown card, more guests) with a reason. Both record a visit with its
 * audit entry (`member-checked-in`, `member-check-in-override`) in one atomic step, once per the
 * desk's id: the same id sent again answers the visit stored first (`repeated`), and changes
 * nothing, so the desk's offline queue may resend until it hears back.
 *
 * @module
 */
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import type { MembershipContext } from "@/lib/memberships/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { CheckInAnswer } from "@/lib/shared/visits.ts";
import type { Visit } from "@/lib/storage/types.ts";
import { CheckInRefusedError, InvalidLookupError } from "./errors.ts";
import { memberByNumber, UNKNOWN_MEMBER } from "./lookup.ts";
import { visitViews } from "./visit_list.ts";

/** What the desk sends (`POST /api/visits`, validated by its schema). */
export interface CheckInRequest {
  /** The desk's id of this visit (the same on every resend). */
  id: string;
  kind: Visit["kind"];
  /** The member number, or null for a visitor with no membership found (an override only). */
  number: string | null;
  /** Which cardholder came (0-based), when a member. */
  holder?: number;
  /** The visitor's name when no membership names them. */
  name?: string;
  guests: number;
  /** Required for an override. */
  reason?: string;
  /** When the desk let them in (ISO), if it was not now: a queued visit sent later. */
  at?: string;
}

/** How far back a queued visit's own time is taken (older: the server's time). */
const MAX_QUEUED_MS = 7 * 86_400_000;
/** How far ahead of the server's clock a desk's may be. */
const MAX_AHEAD_MS = 5 * 60_000;

/** The visit's time: the desk's when plausible, else now. */
function visitTime(at: string | undefined, now: Date): string {
  const t = at === undefined ? NaN : Date.parse(at);
  const ok = Number.isFinite(t) && t <= now.getTime() + MAX_AHEAD_MS && t >= now.getTime() - MAX_QUEUED_MS;
  return new Date(ok ? Math.min(t, now.getTime()) : now.getTime()).toISOString();
}

/**
 * Records a visit as `actor` (the staff member at the desk) and answers it.
 *
 * @example
 * ```ts
 * const { visit, repeated } = await checkIn(ctx, { id, kind: "check-in", number: "7K3M-Q9TD", holder: 0, guests: 1 }, actor, new Date(), "en");
 * ```
 */
export async function checkIn(
  ctx: MembershipContext,
  request: CheckInRequest,
  actor: Actor,
  now: Date,
  lang: Lang,
): Promise<CheckInAnswer> {
  const earlier = await ctx.store.visits.get(request.id);
  if (earlier) return { visit: (await visitViews(ctx.store, [earlier], lang))[0], repeated: true };
  const reason = request.reason?.trim() ?? "";
  if (request.kind === "override" && reason === "") {
    throw new InvalidLookupError("reason", "Allowing a visitor in anyway needs a reason");
  }
  if (request.kind === "check-in" && request.number === null) {
    throw new InvalidLookupError("number", "A check-in needs a member number");
  }
  const member = request.number === null
    ? UNKNOWN_MEMBER
    : await memberByNumber(ctx, request.number, now, lang, request.holder ?? 0);
  if (request.kind === "check-in") {
    if (member.state === "unknown") throw new CheckInRefusedError("No membership has this number");
    if (member.state === "lapsed") throw new CheckInRefusedError("This membership has lapsed");
    if (request.guests > member.guests) {
      throw new CheckInRefusedError(`This level admits at most ${member.guests} guest(s)`);
    }
  }
  const cardholder = member.holder !== null
    ? member.cardholders[member.holder]
    : (request.name?.trim() || member.cardholders[0] || "").slice(0, 200);
  const visit: Visit = {
    id: request.id,
    number: member.number,
    cardholder,
    guests: request.guests,
    levelId: member.levelId,
    deskId: actor.admin.id,
    deskEmail: actor.admin.email,
    at: visitTime(request.at, now),
    kind: request.kind,
    reason: request.kind === "override" ? reason : null,
  };
  const action = request.kind === "override" ? "member-check-in-override" : "member-checked-in";
  const changes = {
    visit: visit.id,
    guests: visit.guests,
    state: member.state,
    ...(visit.reason === null ? {} : { reason: visit.reason.slice(0, 500) }),
  };
  const { visit: stored, created } = await ctx.store.visits.record(visit, {
    audit: [actorEntry(actor, action, member.number, changes)],
  });
  return { visit: (await visitViews(ctx.store, [stored], lang))[0], repeated: !created };
}
