/**
 * The storage contract for the museum's settings (`store.museum`): nothing on a fresh install; a
 * save stored canonical as the next version, with its audit entry in the same step; a save over a
 * version that moved writes nothing (also when two instances save at once: one wins); a record no
 * backend may hold refused whole.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuditInput, MembershipLevel, MuseumSettingsInput } from "@/lib/storage/types.ts";
import { at } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

const every = <T>(value: (lang: string) => T) =>
  Object.fromEntries(["en", "he", "ru", "pt", "es"].map((lang) => [lang, value(lang)])) as Record<
    "en" | "he" | "ru" | "pt" | "es",
    T
  >;

/** A level with `id` and a price of `nis` agorot (a quarter of it in cents). */
export function levelFixture(
  id: number,
  nis = 2_000,
  overrides: Partial<MembershipLevel> = {},
): MembershipLevel {
  return {
    id,
    name: every((lang) => `Level ${id} ${lang}`),
    benefits: every((lang) => [`Free entry (${lang})`, "שניים"]),
    price: { nis, dollars: nis / 4 },
    termMonths: 12,
    cardholders: 1,
    benefitsValue: { nis: 0, dollars: 0 },
    monthly: true,
    ...overrides,
  };
}

/** Settings with the levels of `ids`. */
export function museumFixture(ids: number[] = [1, 2]): MuseumSettingsInput {
  return {
    identity: { name: every((lang) => `The Museum (${lang})`) },
    levels: ids.map((id) => levelFixture(id, id * 2_000)),
    lastLevelId: Math.max(0, ...ids),
  };
}

const entry = (note: string): AuditInput => ({
  action: "museum-settings-changed",
  actorId: "admin_owner",
  actorEmail: "owner@museum.example",
  address: "203.0.113.7",
  target: null,
  changes: { note },
});

/** The contract of `store.museum`. */
export async function museumContract(
  t: Deno.TestContext,
  { fresh, sharedData }: ContractOptions,
): Promise<void> {
  await t.step("museum: nothing stored on a fresh install; a save is version 1, audited", async () => {
    await withStore(fresh(), async (store) => {
      assert.equal(await store.museum.get(), null);
      const input = museumFixture();
      const saved = await store.museum.save(input, 0, at(1_000), "owner@museum.example", {
        audit: [entry("first")],
      });
      assert.deepEqual(saved, {
        version: 1,
        ...input,
        updatedAt: at(1_000),
        updatedBy: "owner@museum.example",
      });
      assert.deepEqual(await store.museum.get(), saved);
      const logged = await store.audit.list({ action: "museum-settings-changed" }, 10);
      assert.deepEqual(logged.map((e) => [e.at, e.changes]), [[at(1_000), { note: "first" }]]);
    });
  });

  await t.step("museum: a save over a version that moved writes nothing and logs nothing", async () => {
    await withStore(fresh(), async (store) => {
      const first = await store.museum.save(museumFixture([1]), 0, at(0), "a@museum.example");
      assert.equal(first?.version, 1);
      // A second "first" save (the owner saw the defaults too): refused.
      assert.equal(await store.museum.save(museumFixture([1, 2]), 0, at(1), "b@museum.example"), null);
      const second = await store.museum.save(museumFixture([1, 2, 3]), 1, at(2), "b@museum.example", {
        audit: [entry("second")],
      });
      assert.equal(second?.version, 2);
      assert.deepEqual(second?.levels.map((l) => l.id), [1, 2, 3]);
      assert.equal(
        await store.museum.save(museumFixture([4]), 1, at(3), "c@museum.example", {
          audit: [entry("stale")],
        }),
        null,
      );
      assert.deepEqual(await store.museum.get(), second);
      const notes = (await store.audit.list({ action: "museum-settings-changed" }, 10)).map((e) =>
        e.changes.note
      );
      assert.deepEqual(notes, ["second"]);
    });
  });

  await t.step("museum: two instances saving over one version at once: exactly one writes", async () => {
    const open = fresh();
    await withTwo(open, sharedData, async (a, b) => {
      await a.museum.save(museumFixture([1]), 0, at(0), "a@museum.example");
      const answers = await Promise.all(
        Array.from(
          { length: 6 },
          (_, i) =>
            (i % 2 ? a : b).museum.save(museumFixture([1, 2 + i]), 1, at(10 + i), `o${i}@museum.example`),
        ),
      );
      const won = answers.filter((s) => s !== null);
      assert.equal(won.length, 1, JSON.stringify(answers.map((s) => s?.updatedBy ?? null)));
      assert.deepEqual(await a.museum.get(), won[0]);
      assert.equal(won[0]!.version, 2);
    });
  });

  await t.step("museum: the brand colours kept as given; none stored when none given", async () => {
    await withStore(fresh(), async (store) => {
      const input = museumFixture([1]);
      input.identity = { ...input.identity, colours: { brand: "#7a1f3d", accent: "#8a3b00" } };
      const saved = await store.museum.save(input, 0, at(0), "owner@museum.example");
      assert.deepEqual(saved?.identity, input.identity);
      assert.deepEqual(await store.museum.get(), saved);
      const plain = await store.museum.save(museumFixture([1]), 1, at(1), "owner@museum.example");
      assert.equal(plain?.identity.colours, undefined);
      assert.deepEqual(await store.museum.get(), plain);
    });
  });

  await t.step("museum: a record no backend may hold is refused whole", async () => {
    await withStore(fresh(), async (store) => {
      const good = museumFixture([1, 2]);
      const { he: _, ...noHebrew } = good.identity.name;
      const bad: MuseumSettingsInput[] = [
        { ...good, identity: { name: noHebrew as typeof good.identity.name } },
        { ...good, levels: [levelFixture(1), levelFixture(1)] },
        { ...good, lastLevelId: 1 },
        { ...good, identity: { ...good.identity, colours: { brand: "red", accent: "#8a3b00" } } },
        { ...good, identity: { ...good.identity, colours: { brand: "#7a1f3d" } as never } },
        { ...good, levels: [levelFixture(1, -5)] },
        { ...good, levels: [levelFixture(1, 2_000, { termMonths: 0 })] },
        { ...good, levels: [levelFixture(1, 2_000, { price: { nis: 1.5, dollars: 1 } })] },
        {
          ...good,
          levels: Array.from({ length: 12 }, (_, i) =>
            levelFixture(i + 1, 2_000, {
              benefits: {
                en: Array(12).fill("x".repeat(200)),
                he: Array(12).fill("א".repeat(200)),
                ru: [],
                pt: [],
                es: [],
              },
            })),
          lastLevelId: 12,
        },
      ];
      for (const input of bad) {
        await assert.rejects(() => store.museum.save(input, 0, at(0), "owner@museum.example"), RangeError);
      }
      assert.equal(await store.museum.get(), null);
      assert.deepEqual(await store.audit.list({ action: "museum-settings-changed" }, 10), []);
    });
  });
}
