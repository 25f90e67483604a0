/**
 * Visits (issue 28): the front desk's look-ups of a member (by card, number or search), checking a
 * member in or letting a visitor in anyway, and the visits as the back office reads them.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { checkIn, type CheckInRequest } from "./check_in.ts";
export { DESK_WORKER_PATH, deskWorkerScript } from "./desk_worker.ts";
export { CheckInRefusedError, InvalidCardError, InvalidLookupError, VisitError } from "./errors.ts";
export { DESK_SEARCH_LIMIT, type DeskContext, memberByCard, memberByNumber, searchDesk } from "./lookup.ts";
export { REPORT_DAYS, visitReport } from "./report.ts";
export { InvalidVisitCursorError, visitsOfDay, visitsOfMember, visitViews } from "./visit_list.ts";
