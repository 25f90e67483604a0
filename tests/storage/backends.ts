/**
 * The storage backends the suite opens, from one place: the backends' modules are moving (to
 * `lib/storage/kv/mod.ts`, `lib/storage/postgres/mod.ts` and `lib/storage/postgres/migrations.ts`),
 * and every file of `tests/storage/` imports them from here, so a move changes only these lines.
 *
 * @module
 */

export { openKvStore } from "@/lib/storage/kv.ts";
export { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
export { migrations } from "@/lib/storage/postgres/migrations.ts";
