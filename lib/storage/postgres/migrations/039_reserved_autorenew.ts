/**
 * Migration 39: reserved for the `i27-autorenew` branch of this round (R6-CONTRACT.md), which brings
 * the real one. A placeholder so that 41 (`visits`) can run on this branch: when merging, keep the
 * other branch's migration 39 and delete this file. It does nothing.
 *
 * @module
 */

/** Migration 39's placeholder (merged away). */
export const migration039 = {
  version: 39,
  name: "reserved_autorenew",
  sql: `select 1;`,
} as const;
