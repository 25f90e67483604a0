/**
 * The museum's settings: a fresh install's defaults (the spec's prices, real names and benefits in
 * every language, translated), and an owner's change: owners only, every field at fault listed, new
 * levels numbered past every id ever given, audited with what changed in the same write, nothing
 * written for no change, and a change made from an old version refused.
 */
import assert from "node:assert/strict";
import { RoleRefusedError } from "@/lib/staff/errors.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Admin, MuseumSettings } from "@/lib/storage/types.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { changeMuseumSettings } from "./change.ts";
import { defaultMuseumSettings } from "./defaults.ts";
import { InvalidMuseumSettingsError, MuseumSettingsChangedMeanwhileError } from "./errors.ts";
import { type MuseumSettingsChange, MuseumSettingsChangeSchema } from "./schemas.ts";
import { readMuseumSettings } from "./settings.ts";

const admin = (role: Admin["role"]): Admin => ({
  id: `adm_${role}_0123456789abcdef`,
  email: `${role}@museum.org`,
  name: String(role),
  passwordHash: "x",
  status: "approved",
  role,
  createdAt: "2026-11-01T00:00:00.000Z",
  decidedBy: null,
  decidedAt: null,
});
const owner = { admin: admin("owner"), address: "203.0.113.1" };
const limits = { maxAmount: 100_000 };

/** The change that keeps `settings` as they are. */
const asChange = (settings: MuseumSettings): MuseumSettingsChange =>
  MuseumSettingsChangeSchema.parse({
    version: settings.version,
    identity: settings.identity,
    levels: settings.levels,
  });

Deno.test("defaults: the spec's four tiers at its prices, named and described in every language", () => {
  const settings = defaultMuseumSettings();
  assert.equal(settings.version, 0);
  assert.deepEqual(settings.levels.map((l) => [l.id, l.price.dollars, l.price.nis]), [
    [1, 500, 2_000],
    [2, 2_500, 10_000],
    [3, 5_000, 20_000],
    [4, 10_000, 40_000],
  ]);
  assert.equal(settings.lastLevelId, 4);
  assert.deepEqual(settings.levels.map((l) => l.name.en), ["Friend", "Supporter", "Family", "Patron"]);
  assert.equal(settings.identity.name.en, "The Museum");
  for (const level of settings.levels) {
    assert.equal(level.termMonths, 12);
    assert.equal(level.monthly, true);
    for (const lang of LANGUAGES) {
      assert.ok(
        level.name[lang] && !/Membership|\{\{/.test(level.name[lang]),
        `${lang}: ${level.name[lang]}`,
      );
      assert.ok(level.benefits[lang].length >= 3, `${lang}: benefits of ${level.id}`);
    }
    // Translated, not English copied (Hebrew and Russian share no word with it).
    assert.notEqual(level.name.he, level.name.en);
    assert.notEqual(level.benefits.ru[0], level.benefits.en[0]);
    assert.match(level.benefits.he[0], /[\u0590-\u05ff]/);
  }
  // Each caller its own copy.
  settings.levels[0].price.nis = 1;
  assert.equal(defaultMuseumSettings().levels[0].price.nis, 2_000);
});

Deno.test("changeMuseumSettings: owners only; saved, audited with what changed; no change writes nothing", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const at = new Date("2026-11-24T10:00:00.000Z");
    const defaults = await readMuseumSettings(store);
    const change = asChange(defaults);
    change.identity.name.he = "מוזיאון העיר";
    change.levels[1].price.nis = 12_000;
    change.levels[1].benefits.en = ["  Free entry for two  ", "", "Openings"];
    change.levels.push({
      ...change.levels[0],
      id: undefined,
      name: { ...change.levels[0].name, en: "Student" },
    });
    change.levels.splice(0, 1); // level 1 removed
    await assert.rejects(
      changeMuseumSettings(store, { admin: admin("admin"), address: "x" }, change, limits, at),
      RoleRefusedError,
    );
    const saved = await changeMuseumSettings(store, owner, change, limits, at);
    assert.equal(saved.version, 1);
    assert.deepEqual(saved.levels.map((l) => l.id), [2, 3, 4, 5]);
    assert.equal(saved.lastLevelId, 5);
    assert.deepEqual(saved.levels[0].benefits.en, ["Free entry for two", "Openings"]);
    assert.equal(saved.updatedBy, "owner@museum.org");
    assert.deepEqual(await readMuseumSettings(store), saved);
    const log = await store.audit.list({ action: "museum-settings-changed" }, 10);
    assert.equal(log.length, 1);
    assert.deepEqual(log[0].changes, {
      version: { from: 0, to: 1 },
      changed: [
        "identity.name.he",
        "levels.2.benefits.en",
        "levels.2.price.nis",
        "levels.5 added",
        "levels.1 removed",
      ],
    });
    assert.equal(log[0].actorId, owner.admin.id);
    // The same settings again: nothing written, no entry.
    assert.deepEqual(await changeMuseumSettings(store, owner, asChange(saved), limits, at), saved);
    assert.equal((await store.audit.list({ action: "museum-settings-changed" }, 10)).length, 1);
    // Removed for good: a later new level is 6, never 1 again; and 1 cannot be named.
    const again = asChange(saved);
    again.levels.push({ ...again.levels[0], id: 1 });
    await assert.rejects(
      changeMuseumSettings(store, owner, again, limits, at),
      (e) => e instanceof InvalidMuseumSettingsError && e.errors?.[0].path === "levels.4.id",
    );
    again.levels[4].id = null;
    assert.deepEqual((await changeMuseumSettings(store, owner, again, limits, at)).levels.map((l) => l.id), [
      2,
      3,
      4,
      5,
      6,
    ]);
  } finally {
    await store.close();
  }
});

Deno.test("changeMuseumSettings: every field at fault listed; an old version refused, nothing written", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const change = asChange(await readMuseumSettings(store));
    change.levels[0].price.dollars = 50; // under the minimum of one dollar
    change.levels[1].price.nis = 100_000_01; // over the ceiling
    change.levels[2].benefitsValue.nis = 30_000; // more than its price
    change.levels[3].id = 2; // given twice
    await assert.rejects(changeMuseumSettings(store, owner, change, limits), (e) => {
      assert.ok(e instanceof InvalidMuseumSettingsError);
      assert.deepEqual(e.errors?.map((x) => x.path), [
        "levels.0.price.dollars",
        "levels.1.price.nis",
        "levels.2.benefitsValue.nis",
        "levels.3.id",
      ]);
      assert.match(e.message, /levels\.0\.price\.dollars: the price must be from 100 to 10000000/);
      return true;
    });
    // The schema refuses what is not the settings at all, with the field named.
    const parsed = MuseumSettingsChangeSchema.safeParse({
      ...asChange(defaultMuseumSettings()),
      identity: { name: { en: "x" } },
    });
    assert.equal(parsed.success, false);
    assert.match(JSON.stringify(parsed.error?.issues.map((i) => i.path)), /identity/);
    const first = await changeMuseumSettings(store, owner, asChange(await readMuseumSettings(store)), limits);
    assert.equal(first.version, 0, "no change, nothing saved");
    const one = asChange(first);
    one.identity.name.en = "City Museum";
    const saved = await changeMuseumSettings(store, owner, one, limits);
    const stale = { ...one, identity: { name: { ...one.identity.name, en: "Other" } } };
    await assert.rejects(
      changeMuseumSettings(store, owner, stale, limits),
      (e) => e instanceof MuseumSettingsChangedMeanwhileError && /version 1/.test(e.message),
    );
    assert.deepEqual(await readMuseumSettings(store), saved);
  } finally {
    await store.close();
  }
});

Deno.test("changeMuseumSettings: a level's donation share (Israeli receipts) is 100 unless set, 0..100, kept", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const change = asChange(await readMuseumSettings(store));
    assert.deepEqual(change.levels.map((l) => l.donationShare), [100, 100, 100, 100]);
    change.levels[2].donationShare = 60;
    await changeMuseumSettings(store, owner, change, limits);
    const saved = await readMuseumSettings(store);
    assert.deepEqual(saved.levels.map((l) => l.donationShare), [100, 100, 60, 100]);
    for (const bad of [101, -1, 12.5, "60"]) {
      const parsed = MuseumSettingsChangeSchema.safeParse({
        ...asChange(saved),
        levels: saved.levels.map((l, i) => i === 0 ? { ...l, donationShare: bad } : l),
      });
      assert.equal(parsed.success, false, `donationShare ${bad}`);
      assert.ok(parsed.error!.issues.some((i) => i.path.join(".") === "levels.0.donationShare"));
    }
  } finally {
    await store.close();
  }
});
