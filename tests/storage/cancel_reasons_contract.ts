/**
 * The storage contract for the back office's count of why donors cancelled
 * (`store.subscriptions.countCancelReasons`): every subscription stored with a `cancelReason` is
 * counted once under it, whichever write stored it (a donor's cancel over the version it read, a
 * create, a conditional update), never twice for a repeated or lost write, also when two instances
 * race; a cancel without a reason counts nothing. On fresh data of its own (the counts are global).
 *
 * @module
 */

import assert from "node:assert/strict";
import { subscriptionFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** The contract of `subscriptions.countCancelReasons`. */
export async function cancelReasonsContract(
  t: Deno.TestContext,
  { fresh, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "subscriptions: countCancelReasons() counts each stored reason once, whatever write stored it",
    () =>
      withStore(fresh(), async (store) => {
        const subs = store.subscriptions;
        assert.deepEqual(await subs.countCancelReasons(), {});

        const cancel = async (reason: string | null) => {
          const sub = await subs.create(subscriptionFixture());
          const done = await subs.updateIfVersion(sub.id, sub.version, {
            status: "cancelled",
            cancelledAt: sub.nextPaymentDate,
            cancelReason: reason,
          });
          assert.ok(done, "cancelled");
          return done;
        };
        const expensive = await cancel("too-expensive");
        await cancel("too-expensive");
        await cancel("moved-away");
        await cancel(null);
        assert.deepEqual(await subs.countCancelReasons(), { "too-expensive": 2, "moved-away": 1 });

        // Writes that store nothing count nothing: an ended gift, a stale version, a repeated create.
        assert.equal(
          await subs.updateIfVersion(expensive.id, expensive.version, { cancelReason: "other" }),
          null,
        );
        assert.equal(await subs.updateIfActive(expensive.id, { cancelReason: "other" }), null);
        const active = await subs.create(subscriptionFixture());
        await subs.updateIfActive(active.id, { amount: 3_000 });
        assert.equal(
          await subs.updateIfVersion(active.id, active.version, {
            status: "cancelled",
            cancelReason: "other",
          }),
          null,
        );
        await subs.create({ ...expensive, cancelReason: "unhappy" });
        // cancelForDonor gives no reason.
        assert.equal(await subs.cancelForDonor(active.donorId, expensive.nextPaymentDate), 1);
        assert.deepEqual(await subs.countCancelReasons(), { "too-expensive": 2, "moved-away": 1 });

        // A subscription created with a reason (a copy, an import) counts; a changed reason moves;
        // a count back at zero is not listed.
        const imported = await subs.create(subscriptionFixture({ cancelReason: "unhappy" }));
        const moved = await subs.updateIfActive(imported.id, { cancelReason: "prefer-one-time" });
        assert.equal(moved?.cancelReason, "prefer-one-time");
        assert.deepEqual(await subs.countCancelReasons(), {
          "too-expensive": 2,
          "moved-away": 1,
          "prefer-one-time": 1,
        });
        await subs.updateIfActive(imported.id, { cancelReason: null });
        assert.deepEqual(await subs.countCancelReasons(), { "too-expensive": 2, "moved-away": 1 });
      }),
  );

  await t.step(
    "subscriptions: countCancelReasons() counts a cancel raced by two instances once",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const created = await Promise.all(
          // An odd count: each gift's four attempts alternate between the two instances.
          Array.from({ length: 5 }, () =>
            a.subscriptions.create(subscriptionFixture({ donorId: uid("donor") }))),
        );
        // Each gift is cancelled four times at once over the same version, two per instance: one wins.
        const answers = await race(a, b, created.length * 4, (store, i) => {
          const sub = created[i % created.length];
          return store.subscriptions.updateIfVersion(sub.id, sub.version, {
            status: "cancelled",
            cancelledAt: sub.nextPaymentDate,
            cancelReason: Math.floor(i / created.length) % 2 === 0 ? "financial-change" : "other",
          });
        });
        assert.equal(
          answers.filter((x) =>
            x !== null
          ).length,
          created.length,
        );
        const counts = await b.subscriptions.countCancelReasons();
        assert.equal(Object.values(counts).reduce((sum, n) => sum + n, 0), created.length);
        const stored = await Promise.all(created.map((s) => a.subscriptions.get(s.id)));
        for (const reason of ["financial-change", "other"]) {
          const n = stored.filter((s) => s?.cancelReason === reason).length;
          assert.equal(counts[reason] ?? 0, n, reason);
        }
      }),
  );
}
