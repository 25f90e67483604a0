/**
 * Migration 21: RESERVED for the sign-in links of issue 15 (built on another branch at the same
 * time). This placeholder only keeps the numbering contiguous on the billing branch, so migration
 * 22 can run here; the integrator deletes this file when merging the branch that brings the real
 * migration 21 (a database that ran this placeholder is a throwaway test database).
 *
 * @module
 */

/** Migration 21 placeholder, as `schema_migrations` records it. */
export const migration021 = {
  version: 21,
  name: "reserved",
  sql: `select 1;`,
};
