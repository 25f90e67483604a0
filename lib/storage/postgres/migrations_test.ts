/** The migration list's shape: consecutive versions from 1. */
import assert from "node:assert/strict";
import { checkMigrations, type Migration, migrations } from "./migrations.ts";

const m = (version: number): Migration => ({ version, name: `m${version}`, sql: "" });

Deno.test("checkMigrations: the real list passes; a gap, a repeat, a step back or a start at 0 fails", () => {
  checkMigrations(migrations);
  assert.ok(migrations.some((x) => x.name === "kiosk_devices"));
  assert.throws(() => checkMigrations([m(1), m(2), m(4)]), /found version 4 at position 3/);
  assert.throws(() => checkMigrations([m(1), m(2), m(2)]), /found version 2 at position 3/);
  assert.throws(() => checkMigrations([m(1), m(3), m(2)]), /found version 3 at position 2/);
  assert.throws(() => checkMigrations([m(0)]), /found version 0 at position 1/);
});
