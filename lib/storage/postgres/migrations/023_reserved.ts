/**
 * Migration 23: RESERVED for the card updates of issue 15 (built on another branch at the same
 * time). This placeholder only keeps the numbering contiguous on the privacy branch, so migration
 * 24 can run here; the integrator deletes this file when merging the branch that brings the real
 * migration 23 (a database that ran this placeholder is a throwaway test database).
 *
 * @module
 */

/** Migration 23 placeholder, as `schema_migrations` records it. */
export const migration023 = {
  version: 23,
  name: "reserved",
  sql: `select 1;`,
};
