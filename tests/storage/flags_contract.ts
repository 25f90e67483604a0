/**
 * The storage contract for feature flags (`store.flags`): set, get and list sorted by name, seeds
 * that never overwrite (also when several instances seed at once), and `updatedAt`. It runs first,
 * while the backend's data is new, so the first step can check that a new store lists nothing.
 *
 * @module
 */

import type { FeatureFlag } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { assertIsoInstant, type ContractOptions, sleep, under, withStore } from "./support.ts";

/** The contract of `store.flags`; each step keeps to flag names of its own (a prefix). */
export async function flagsContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step("list() of a new store is empty", () =>
    withStore(open, async (store) => {
      assert.deepEqual(await store.flags.list(), []);
    }));

  await t.step(
    "set() answers the flag as stored; get() and list() agree, sorted by name",
    () =>
      withStore(open, async (store) => {
        // Case, punctuation and a non-ASCII letter: a locale collation would order these differently.
        const names = ["sort.b", "sort.B", "sort.a_b", "sort.ab", "sort.a.b", "sort.Z", "sort.é", "sort.A"];
        const stored: FeatureFlag[] = [];
        for (const [i, name] of names.entries()) {
          const flag = await store.flags.set(name, i % 2 === 0);
          assert.deepEqual(flag.flag, name);
          assert.deepEqual(flag.enabled, i % 2 === 0);
          assertIsoInstant(flag.updatedAt, "updatedAt");
          assert.deepEqual(
            await store.flags.get(name),
            flag,
            `get(${name}) differs from what set() answered`,
          );
          stored.push(flag);
        }
        const expected = [...stored].sort((a, b) => (a.flag < b.flag ? -1 : 1));
        const all = await store.flags.list();
        assert.deepEqual(under(all, "sort."), expected);
        const allNames = all.map((f) => f.flag);
        assert.deepEqual(allNames, [...allNames].sort(), "list() is not sorted by name");
      }),
  );

  await t.step("get() of an unknown flag answers null", () =>
    withStore(open, async (store) => {
      assert.deepEqual(await store.flags.get("unknown.NEVER_SET"), null);
    }));

  await t.step("set() changes an existing flag in place", () =>
    withStore(open, async (store) => {
      await store.flags.set("change.X", true);
      const changed = await store.flags.set("change.X", false);
      assert.deepEqual(changed.enabled, false);
      assert.deepEqual(await store.flags.get("change.X"), changed);
      assert.deepEqual(under(await store.flags.list(), "change."), [changed]);
    }));

  await t.step(
    "seed() inserts missing flags only and never overwrites",
    () =>
      withStore(open, async (store) => {
        const kept = await store.flags.set("seed.KEPT", false);
        await store.flags.seed({ "seed.KEPT": true, "seed.NEW_ON": true, "seed.NEW_OFF": false });
        assert.deepEqual(await store.flags.get("seed.KEPT"), kept, "seed() overwrote an existing flag");
        const on = await store.flags.get("seed.NEW_ON");
        const off = await store.flags.get("seed.NEW_OFF");
        assert.deepEqual(on?.enabled, true);
        assert.deepEqual(off?.enabled, false);
        assertIsoInstant(on!.updatedAt, "seeded updatedAt");

        // An operator turns a seeded flag off; the next start seeds again and must leave it off.
        const changed = await store.flags.set("seed.NEW_ON", false);
        await store.flags.seed({ "seed.KEPT": true, "seed.NEW_ON": true, "seed.NEW_OFF": false });
        assert.deepEqual(await store.flags.get("seed.NEW_ON"), changed);
        assert.deepEqual(await store.flags.get("seed.NEW_OFF"), off, "re-seeding touched an unchanged flag");
        await store.flags.seed({});
        assert.deepEqual(under(await store.flags.list(), "seed.").length, 3);
      }),
  );

  await t.step(
    sharedData
      ? "concurrent seeds from two stores leave one flag each, with the seeded value"
      : "concurrent seeds on one store leave one flag each, with the seeded value",
    async () => {
      const a = await open();
      const b = sharedData ? await open() : a;
      try {
        for (let round = 0; round < 3; round++) {
          const prefix = `race${round}.`;
          // An operator already turned one of them off: no racing seed may turn it back on.
          await a.flags.set(`${prefix}OPERATOR`, false);
          const defaults: Record<string, boolean> = { [`${prefix}OPERATOR`]: true };
          for (let i = 0; i < 40; i++) defaults[`${prefix}${String(i).padStart(2, "0")}`] = i % 3 !== 0;
          // The same flags in the opposite order, as another version of the app might list them.
          const reversed = Object.fromEntries(Object.entries(defaults).reverse());
          await Promise.all([
            a.flags.seed(defaults),
            b.flags.seed(reversed),
            a.flags.seed(reversed),
            b.flags.seed(defaults),
          ]);

          const flags = under(await b.flags.list(), prefix);
          assert.deepEqual(flags.length, Object.keys(defaults).length);
          assert.deepEqual(new Set(flags.map((f) => f.flag)).size, flags.length, "a flag appears twice");
          for (const flag of flags) {
            const expected = flag.flag === `${prefix}OPERATOR` ? false : defaults[flag.flag];
            assert.deepEqual(flag.enabled, expected, `${flag.flag} has the wrong value`);
          }
        }
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  await t.step(
    "updatedAt is an ISO 8601 instant that moves forward on set()",
    () =>
      withStore(open, async (store) => {
        const first = await store.flags.set("time.T", true);
        assertIsoInstant(first.updatedAt, "updatedAt");
        // Generous: the database's clock may be another machine's.
        const skew = Math.abs(Date.parse(first.updatedAt) - Date.now());
        assert.ok(skew < 60_000, `updatedAt ${first.updatedAt} is ${skew} ms away from now`);

        await sleep(20);
        const second = await store.flags.set("time.T", true);
        assertIsoInstant(second.updatedAt, "updatedAt");
        assert.ok(
          Date.parse(second.updatedAt) > Date.parse(first.updatedAt),
          `updatedAt did not move: ${first.updatedAt} then ${second.updatedAt}`,
        );
        assert.deepEqual(await store.flags.get("time.T"), second);
      }),
  );
}
