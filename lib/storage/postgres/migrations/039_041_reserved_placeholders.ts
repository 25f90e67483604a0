/**
 * PLACEHOLDERS, branch `i28-gift` only: migrations 39, 40 and 41 belong to `i27-autorenew`,
 * `i27-brand` and `i28-desk` (round 6's contract), which this branch does not have; the list must
 * run consecutively (`checkMigrations`), so these empty ones stand in for them until the merge.
 * **Delete this file and its three entries in `../migrations.ts` when merging** (a database that ran
 * them would skip the real ones: only throwaway test schemas ever should).
 *
 * @module
 */

/** Empty stand-ins for migrations 39..41 (see the module's note). */
export const reservedPlaceholders = [39, 40, 41].map((version) => ({
  version,
  name: `reserved_${version}`,
  sql: "select 1;",
}));
