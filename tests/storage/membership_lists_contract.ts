/**
 * The storage contract of the back office's member lists (issue 27, item 8): memberships by the
 * level of their last term (then by end and email, a level or end change moving one, erasure
 * removing it) and by an email's first characters (exact or prefix, in address order).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Membership, MembershipChange, MembershipTerm } from "@/lib/storage/types.ts";
import { at, DAY, uid } from "./fixtures.ts";
import type { ContractOptions } from "./support.ts";
import { withStore } from "./support.ts";

const term = (levelId: number, fromDays: number, days: number): MembershipTerm => ({
  levelId,
  start: at(fromDays * DAY),
  end: at((fromDays + days) * DAY),
  kind: "join",
  transactionId: uid("tx"),
  subscriptionId: null,
  amount: 10_000,
  currency: 1,
  charges: 1,
});

/** Makes `email`'s membership at `levelId` for `days`, or adds a term at `levelId` after its end. */
const at_level = (email: string, levelId: number, days: number): MembershipChange => ({
  email,
  apply: (current: Membership | null) => {
    if (current === null) {
      const n = uid("M").replace(/[^0-9A-Za-z]/g, "").toUpperCase().slice(-12);
      return { number: n, donorId: "donor_1", subscriptionId: null, terms: [term(levelId, 0, days)] };
    }
    const from = (Date.parse(current.end) - Date.parse(at(0))) / DAY;
    return { ...current, terms: [...current.terms, { ...term(levelId, from, days), kind: "upgrade" }] };
  },
});

const byEnd = (x: Membership, y: Membership) =>
  x.end < y.end ? -1 : x.end > y.end ? 1 : x.email < y.email ? -1 : x.email > y.email ? 1 : 0;

/** The contract of `memberships.listByLevel` and `memberships.listByEmailPrefix`. */
export async function membershipListsContract(
  t: Deno.TestContext,
  { fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "memberships: listByLevel pages a level's memberships by end; a change moves one",
    () =>
      withStore(fresh(), async (store) => {
        const made: Membership[] = [];
        for (const [level, days] of [[2, 40], [1, 10], [2, 30], [2, 10], [3, 20], [2, 400]]) {
          made.push(
            (await store.memberships.change(at_level(`${uid("m")}@museum.example`, level, days), at(0)))!,
          );
        }
        const range = { from: at(0), to: at(100 * DAY) };
        const level2 = [made[0], made[2], made[3]].sort(byEnd);
        assert.deepEqual(await store.memberships.listByLevel(2, range, 100), level2);
        const page1 = await store.memberships.listByLevel(2, range, 2);
        const page2 = await store.memberships.listByLevel(2, range, 2, page1.at(-1));
        assert.deepEqual([...page1, ...page2], level2);
        // The last term's level counts: the level 1 member moves to 2, one at 2 moves to 3.
        const up = (await store.memberships.change(at_level(made[1].email, 2, 15), at(1)))!;
        const moved = (await store.memberships.change(at_level(made[3].email, 3, 5), at(1)))!;
        assert.deepEqual(
          await store.memberships.listByLevel(2, range, 100),
          [made[0], made[2], up].sort(byEnd),
        );
        assert.deepEqual(await store.memberships.listByLevel(1, range, 100), []);
        assert.deepEqual(await store.memberships.listByLevel(3, range, 100), [made[4], moved].sort(byEnd));
        assert.equal(await store.memberships.erase(made[0].email), true);
        assert.deepEqual(await store.memberships.listByLevel(2, range, 100), [made[2], up].sort(byEnd));
        await assert.rejects(() => store.memberships.listByLevel(0, range, 10), RangeError);
        await assert.rejects(() => store.memberships.listByLevel(2, range, 0), RangeError);
      }),
  );

  await t.step(
    "memberships: listByEmailPrefix finds an address exactly or by its start, in order",
    () =>
      withStore(fresh(), async (store) => {
        const emails = [
          "dana@a.example",
          "dan@b.example",
          "danny@c.example",
          "noa@d.example",
          "dan%@e.example",
        ];
        for (const e of emails) await store.memberships.change(at_level(e, 1, 30), at(0));
        const found = async (prefix: string, limit = 100, after?: string) =>
          (await store.memberships.listByEmailPrefix(prefix, limit, after)).map((m) => m.email);
        assert.deepEqual(await found("dan"), [
          "dan%@e.example",
          "dan@b.example",
          "dana@a.example",
          "danny@c.example",
        ]);
        assert.deepEqual(await found(" DAN@B.example "), ["dan@b.example"]);
        // No wildcard: "%" and "_" are characters of an address like any other.
        assert.deepEqual(await found("dan%"), ["dan%@e.example"]);
        assert.deepEqual(await found("da_"), []);
        assert.deepEqual(await found("dan", 2), ["dan%@e.example", "dan@b.example"]);
        assert.deepEqual(await found("dan", 2, "dan@b.example"), ["dana@a.example", "danny@c.example"]);
        assert.deepEqual(await found("zz"), []);
        await assert.rejects(() => store.memberships.listByEmailPrefix("", 10), RangeError);
      }),
  );
}
