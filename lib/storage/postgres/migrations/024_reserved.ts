/**
 * Migration 24: RESERVED for the donor privacy work of issue 15 (built on another branch at the
 * same time). This placeholder only keeps the numbering contiguous on the back office branch, so
 * migration 25 can run here; the integrator deletes this file when merging the branch that brings
 * the real migration 24, or keeps it (renamed, e.g. `024_none.ts`) when that branch needed none.
 * A database that ran this placeholder is a throwaway test database.
 *
 * @module
 */

/** Migration 24 placeholder, as `schema_migrations` records it. */
export const migration024 = {
  version: 24,
  name: "reserved",
  sql: `select 1;`,
};
