/**
 * Migration 39 is i27-autorenew's (this round's contract): this stand-in, which changes nothing,
 * only keeps the list consecutive on the i27-brand branch so that its migration 40 runs. The lead
 * replaces it with the real migration 39 when merging (never merge this file).
 *
 * @module
 */

/** A stand-in for migration 39 on the i27-brand branch only. */
export const migration039 = {
  version: 39,
  name: "reserved",
  sql: `select 1;`,
} as const;
