/**
 * Migration 40: reserved for the `i27-brand` branch of this round (R6-CONTRACT.md), which brings
 * the real one. A placeholder so that 41 (`visits`) can run on this branch: when merging, keep the
 * other branch's migration 40 and delete this file. It does nothing.
 *
 * @module
 */

/** Migration 40's placeholder (merged away). */
export const migration040 = {
  version: 40,
  name: "reserved_brand",
  sql: `select 1;`,
} as const;
