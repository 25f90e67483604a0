/**
 * The front desk (issue 28) as its API answers it and the desk page and the back office read it:
 * what a look-up says of a member, a visit, a page of visits, the visits' report. Types only (and
 * the states), so an island may import them.
 *
 * @module
 */

/** What the desk shows: the membership's state now, or `unknown` (no membership found). */
export const DESK_STATES = ["active", "grace", "lapsed", "unknown"] as const;

/** One of {@link DESK_STATES}. */
export type DeskState = typeof DESK_STATES[number];

/** A member as the desk's look-up answers them (`GET /api/visits/member`, `GET /api/visits/search`). */
export interface DeskMember {
  state: DeskState;
  /** The member number (null: none found). */
  number: string | null;
  /** The member's name ("" when unknown or erased). */
  name: string;
  /** The level now, and its name in the asked language. */
  levelId: number | null;
  levelName: string;
  /** The end of its paid terms, and of its grace (ISO 8601), or null. */
  validUntil: string | null;
  graceUntil: string | null;
  /** The names its cards carry (the member's own when it names none). */
  cardholders: string[];
  /** The cardholder of the scanned card (0-based), or null when not scanned. */
  holder: number | null;
  /** How many guests its level admits on a visit. */
  guests: number;
}

/** How a visitor came in. */
export type DeskVisitKind = "check-in" | "override";

/** A visit as the back office and the desk read it. */
export interface VisitView {
  id: string;
  number: string | null;
  cardholder: string;
  guests: number;
  levelId: number | null;
  /** The level's name in the asked language ("" when none or removed). */
  levelName: string;
  deskEmail: string;
  at: string;
  kind: DeskVisitKind;
  reason: string | null;
}

/** `POST /api/visits`'s answer: the visit, and whether it had been recorded before (the same id). */
export interface CheckInAnswer {
  visit: VisitView;
  repeated: boolean;
}

/** A page of visits, newest first, and where the next starts (null: none). */
export interface VisitPage {
  data: VisitView[];
  next: string | null;
}

/** Visits per day and per level over a period (`GET /api/visits/report`). */
export interface VisitReport {
  from: string;
  to: string;
  perDay: { day: string; visits: number; guests: number; overrides: number }[];
  perLevel: { levelId: number | null; levelName: string; visits: number; guests: number }[];
  /** Whether more visits than the report reads fell in the period (its figures then stop short). */
  truncated: boolean;
}
