/** The migration list's shape: increasing versions from 1, gaps allowed (a number handed to a change merged later). */
import assert from "node:assert/strict";
import { checkMigrations, type Migration, migrations } from "./migrations.ts";

const m = (version: number): Migration => ({ version, name: `m${version}`, sql: "" });

Deno.test("checkMigrations: the real list passes; gaps pass; a repeat, a step back or a start at 0 fails", () => {
  checkMigrations(migrations);
  assert.ok(migrations.some((x) => x.name === "kiosk_devices"));
  checkMigrations([m(1), m(2), m(4)]);
  assert.throws(() => checkMigrations([m(1), m(2), m(2)]), /increasing order: found version 2 at position 3/);
  assert.throws(() => checkMigrations([m(1), m(3), m(2)]), /found version 2 at position 3/);
  assert.throws(() => checkMigrations([m(0)]), /found version 0 at position 1/);
});
