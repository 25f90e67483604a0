/**
 * The back office's roles (issue 16) and the sets of them the admin routes declare, here because the
 * browser reads them too: the back office's navigation shows each role its sections
 * (`admin_sections.ts`). The server's check is `lib/staff/roles.ts`.
 *
 * - `owner`: everything, roles and settings included;
 * - `admin`: everything but roles;
 * - `finance`: transactions, donors, refunds, receipts, exports, reports;
 * - `viewer`: read-only lists, no export, no personal data beyond names and masked emails;
 * - `desk` (issue 28): the front desk: looks members up and checks them in, nothing else (not even
 *   the read-only lists: {@link EVERY_ROLE} leaves it out).
 *
 * @module
 */

/** What an approved admin may do, widest first. */
export const ADMIN_ROLES = ["owner", "admin", "finance", "viewer", "desk"] as const;

/** One of {@link ADMIN_ROLES}. */
export type AdminRole = typeof ADMIN_ROLES[number];

/**
 * The read-only lists (transactions, reports, the overview): every role but the front desk, which
 * sees members only through the desk's own calls.
 */
export const EVERY_ROLE: readonly AdminRole[] = ["owner", "admin", "finance", "viewer"];
/** One's own account (two-factor sign-in): every role, the front desk's included. */
export const ANY_ROLE: readonly AdminRole[] = ADMIN_ROLES;
/** The front desk (issue 28): looking members up and checking them in. */
export const DESK: readonly AdminRole[] = ["owner", "admin", "desk"];
/** Donor data, money and receipts: everyone but viewers. */
export const FINANCE: readonly AdminRole[] = ["owner", "admin", "finance"];
/** Running the museum's setup (kiosks, outgoing email, the audit log): owners and admins. */
export const ADMINS: readonly AdminRole[] = ["owner", "admin"];
/** People and roles, settings: owners only. */
export const OWNERS: readonly AdminRole[] = ["owner"];
