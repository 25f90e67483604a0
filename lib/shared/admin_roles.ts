/**
 * The back office's roles (issue 16) and the sets of them the admin routes declare, here because the
 * browser reads them too: the back office's navigation shows each role its sections
 * (`admin_sections.ts`). The server's check is `lib/staff/roles.ts`.
 *
 * - `owner`: everything, roles and settings included;
 * - `admin`: everything but roles;
 * - `finance`: transactions, donors, refunds, receipts, exports, reports;
 * - `viewer`: read-only lists, no export, no personal data beyond names and masked emails.
 *
 * @module
 */

/** What an approved admin may do, widest first. */
export const ADMIN_ROLES = ["owner", "admin", "finance", "viewer"] as const;

/** One of {@link ADMIN_ROLES}. */
export type AdminRole = typeof ADMIN_ROLES[number];

/** Every role: the read-only lists. */
export const EVERY_ROLE: readonly AdminRole[] = ADMIN_ROLES;
/** Donor data, money and receipts: everyone but viewers. */
export const FINANCE: readonly AdminRole[] = ["owner", "admin", "finance"];
/** Running the museum's setup (kiosks, outgoing email, the audit log): owners and admins. */
export const ADMINS: readonly AdminRole[] = ["owner", "admin"];
/** People and roles, settings: owners only. */
export const OWNERS: readonly AdminRole[] = ["owner"];
