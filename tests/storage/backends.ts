/**
 * The storage backends the suite opens, from one place: every file of `tests/storage/` imports them
 * from here, so the suite names each backend's entry point once.
 *
 * @module
 */

export { openKvStore } from "@/lib/storage/kv/mod.ts";
export { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
export { migrations } from "@/lib/storage/postgres/migrations.ts";
