/**
 * The storage contract for visits (`store.visits`, issue 28): recorded once per the desk's id (the
 * same id again, also at once from two instances, stores one visit and one audit entry and answers
 * the first), an override needs its reason, read back newest first by time and by member, a page at
 * a time. A desk admin can be stored (the `desk` role).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Visit } from "@/lib/storage/types.ts";
import { adminFixture, at, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** A visit id as a browser makes it. */
const visitId = () => crypto.randomUUID();

/** A check-in of `number` at {@link at}(`ms`). */
export function visitFixture(overrides: Partial<Visit> = {}): Visit {
  return {
    id: visitId(),
    number: "1000-0001",
    cardholder: "Dana Levi",
    guests: 1,
    levelId: 2,
    deskId: "admin_desk",
    deskEmail: "desk@museum.example",
    at: at(0),
    kind: "check-in",
    reason: null,
    ...overrides,
  };
}

const entry = (target: string) => ({
  action: "member-checked-in" as const,
  actorId: "admin_desk",
  actorEmail: "desk@museum.example",
  address: "203.0.113.9",
  target,
});

/** The contract of `store.visits`. */
export async function visitsContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "visits: the same id twice stores one visit and one audit entry, answering the first",
    () =>
      withStore(open, async (store) => {
        const number = uid("M").slice(0, 30);
        const first = visitFixture({ number, at: at(5_000) });
        const a = await store.visits.record(first, { audit: [entry(number)] });
        assert.equal(a.created, true);
        assert.deepEqual(a.visit, first);
        // The offline queue's resend (even with other guests or a later time) changes nothing.
        const b = await store.visits.record({ ...first, guests: 3, at: at(9_000) }, {
          audit: [entry(number)],
        });
        assert.equal(b.created, false);
        assert.deepEqual(b.visit, first);
        assert.deepEqual(await store.visits.get(first.id), first);
        assert.deepEqual(await store.visits.listByNumber(number, 10), [first]);
        const logged = await store.audit.list(
          { action: "member-checked-in", from: at(0), to: at(10_000) },
          100,
        );
        assert.equal(logged.filter((e) => e.target === number).length, 1);
        assert.equal(await store.visits.get(visitId()), null);
      }),
  );

  await t.step(
    "visits: an override keeps its reason; none without one; bad ids and guests refused",
    () =>
      withStore(open, async (store) => {
        const override = visitFixture({ kind: "override", reason: "  Card left at home  ", number: null });
        const { visit } = await store.visits.record(override);
        assert.equal(visit.reason, "Card left at home");
        assert.equal(visit.number, null);
        await assert.rejects(
          () => store.visits.record(visitFixture({ kind: "override", reason: null })),
          RangeError,
        );
        await assert.rejects(
          () => store.visits.record(visitFixture({ kind: "override", reason: "  " })),
          RangeError,
        );
        await assert.rejects(() => store.visits.record(visitFixture({ id: "short" })), RangeError);
        await assert.rejects(() => store.visits.record(visitFixture({ guests: -1 })), RangeError);
        // A check-in carries no reason, whatever it was sent with.
        const checkIn = await store.visits.record(visitFixture({ reason: "ignored" }));
        assert.equal(checkIn.visit.reason, null);
      }),
  );

  await t.step(
    "visits: by time and by member, newest first, a page at a time",
    () =>
      withStore(open, async (store) => {
        const number = uid("N").slice(0, 30);
        const other = uid("O").slice(0, 30);
        const base = 400 * 86_400_000 + Math.floor(Math.random() * 1_000_000) * 1_000;
        const mine = [3, 1, 2, 2].map((s, i) =>
          visitFixture({ number, at: at(base + s * 1_000), id: `visit-${i}-${crypto.randomUUID()}` })
        );
        const theirs = visitFixture({ number: other, at: at(base + 1_500) });
        for (const v of [...mine, theirs]) await store.visits.record(v);
        const newest = [...mine].sort((x, y) => (y.at + y.id).localeCompare(x.at + x.id));
        assert.deepEqual(await store.visits.listByNumber(number, 10), newest);
        const firstPage = await store.visits.listByNumber(number, 2);
        assert.deepEqual(firstPage, newest.slice(0, 2));
        assert.deepEqual(await store.visits.listByNumber(number, 10, firstPage[1]), newest.slice(2));
        const range = { from: at(base), to: at(base + 3_000) }; // the one at +3 s is outside
        const byTime = await store.visits.listByTime(range, 10);
        const expected = [...newest.slice(1), theirs].sort((x, y) =>
          (y.at + y.id).localeCompare(x.at + x.id)
        );
        assert.deepEqual(byTime, expected);
        const page1 = await store.visits.listByTime(range, 2);
        assert.deepEqual([...page1, ...await store.visits.listByTime(range, 10, page1[1])], expected);
      }),
  );

  await t.step(
    "visits: one id sent at once from two instances stores it once",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const number = uid("R").slice(0, 30);
        const visit = visitFixture({ number, at: at(20_000) });
        const answers = await race(
          a,
          b,
          6,
          (store) => store.visits.record(visit, { audit: [entry(number)] }),
        );
        assert.equal(
          answers.filter((x) => x.created).length,
          1,
        );
        for (const x of answers) assert.deepEqual(x.visit, visit);
        assert.equal((await a.visits.listByNumber(number, 10)).length, 1);
        const logged = await a.audit.list(
          { action: "member-checked-in", from: at(19_000), to: at(21_000) },
          100,
        );
        assert.equal(logged.filter((e) => e.target === number).length, 1);
      }),
  );

  await t.step("admins: the front desk's role is stored", () =>
    withStore(open, async (store) => {
      const desk = await store.admins.create(adminFixture({ status: "approved", role: "desk" }));
      assert.equal((await store.admins.get(desk.id))?.role, "desk");
    }));
}
