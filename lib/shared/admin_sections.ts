/**
 * The back office's sections (issue 26): one page and one URL each, in the navigation's order, and
 * the roles that see each. The one list, read by the server (routes, the build's budgets) and by the
 * islands (the navigation, the "not for your role" notice). A section's roles are those of the API
 * calls its page makes (`tests/admin_sections_test.ts` checks them against the routes' `roles`); the
 * server refuses those calls to anyone else anyway.
 *
 * @module
 */
import { type AdminRole, ADMINS, DESK, EVERY_ROLE, FINANCE, OWNERS } from "./admin_roles.ts";

/** One section of the back office. */
export interface AdminSection {
  /** Its name in code, tests and the island's file (`islands/Admin<Id>.tsx`). */
  id: string;
  /** Its path under `/{lang}/admin` ("" for the overview). */
  path: string;
  /** Who sees it in the navigation and may open it. */
  roles: readonly AdminRole[];
  /** The locale key of its name (the navigation's link, the page's heading). */
  label: string;
}

/** Every section, in the navigation's order. */
export const ADMIN_SECTIONS = [
  { id: "overview", path: "", roles: EVERY_ROLE, label: "adminNav.sections.overview" },
  { id: "transactions", path: "transactions", roles: EVERY_ROLE, label: "adminNav.sections.transactions" },
  { id: "donors", path: "donors", roles: FINANCE, label: "adminNav.sections.donors" },
  { id: "members", path: "members", roles: FINANCE, label: "adminNav.sections.members" },
  { id: "desk", path: "desk", roles: DESK, label: "adminNav.sections.desk" },
  { id: "reports", path: "reports", roles: EVERY_ROLE, label: "adminNav.sections.reports" },
  { id: "kiosks", path: "kiosks", roles: ADMINS, label: "adminNav.sections.kiosks" },
  { id: "email", path: "email", roles: ADMINS, label: "adminNav.sections.email" },
  { id: "staff", path: "staff", roles: OWNERS, label: "adminNav.sections.staff" },
  { id: "audit", path: "audit", roles: ADMINS, label: "adminNav.sections.audit" },
  { id: "settings", path: "settings", roles: OWNERS, label: "adminNav.sections.settings" },
] as const satisfies readonly AdminSection[];

/** A section's id. */
export type SectionId = typeof ADMIN_SECTIONS[number]["id"];

/**
 * The locale keys every back-office page gives its island for the shell (`islands/admin/AdminShell.tsx`):
 * the header, the navigation, `/me`'s waiting and failure states, the role notice, the roles' names.
 */
export const ADMIN_SHELL_TEXTS = [
  "admin",
  "adminNav",
  "apiErrors",
  "staffAdmin.roles",
  "transactions.errorPrefix",
  "twoFactor.link",
] as const;

/**
 * A section's URL in `lang`.
 *
 * @example
 * ```ts
 * sectionHref("he", "kiosks"); // "/he/admin/kiosks"
 * sectionHref("en", "overview"); // "/en/admin"
 * ```
 */
export function sectionHref(lang: string, id: SectionId): string {
  const path = sectionById(id).path;
  return path ? `/${lang}/admin/${path}` : `/${lang}/admin`;
}

/**
 * The section of an id.
 *
 * @example
 * ```ts
 * sectionById("staff").roles; // ["owner"]
 * ```
 */
export function sectionById(id: SectionId): AdminSection {
  return ADMIN_SECTIONS.find((s) => s.id === id)!;
}

/**
 * Whether `role` may open the section (no role, as while pending: none).
 *
 * @example
 * ```ts
 * maySee("finance", "donors"); // true
 * maySee("viewer", "donors"); // false
 * ```
 */
export function maySee(role: AdminRole | null | undefined, id: SectionId): boolean {
  return !!role && sectionById(id).roles.includes(role);
}

/**
 * The sections `role` sees, in the navigation's order.
 *
 * @example
 * ```ts
 * sectionsFor("viewer").map((s) => s.id); // ["overview", "transactions", "reports"]
 * ```
 */
export function sectionsFor(role: AdminRole | null | undefined): AdminSection[] {
  return ADMIN_SECTIONS.filter((s) => maySee(role, s.id));
}
