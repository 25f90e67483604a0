/**
 * The storage contract for subscription charges (`store.charges`): one claim per subscription,
 * period and attempt (also under a race), `finish()`, and `listStale()` of the charges started
 * but never finished.
 *
 * @module
 */

import assert from "node:assert/strict";
import { at, chargeFixture, DAY, HOUR, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** The contract of `store.charges`; `listStale()` has fresh data of its own. */
export async function chargesContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "charges: claim() once per (subscription, period, attempt); get(); finish(); unknown is null",
    () =>
      withStore(open, async (store) => {
        const charge = chargeFixture({ startedAt: "2025-03-31T10:00:00Z" });
        assert.deepEqual(await store.charges.claim(charge), true);
        const stored = { ...charge, startedAt: at(30 * DAY) };
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), stored);
        // The same period written another way is the same charge.
        assert.deepEqual(
          await store.charges.get(charge.subscriptionId, "2025-03-31T12:00:00+02:00", 0),
          stored,
        );
        assert.deepEqual(await store.charges.claim({ ...charge, startedAt: at(31 * DAY) }), false);
        assert.deepEqual(await store.charges.claim({ ...charge, period: "2025-03-31T10:00:00Z" }), false);
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), stored);
        // The next attempt, and another period, are other charges.
        const retry = chargeFixture({ subscriptionId: charge.subscriptionId, attempt: 1 });
        assert.deepEqual(await store.charges.claim(retry), true);
        assert.deepEqual(
          await store.charges.claim(
            chargeFixture({ subscriptionId: charge.subscriptionId, period: at(60 * DAY) }),
          ),
          true,
        );

        await store.charges.finish(charge.subscriptionId, charge.period, 0, {
          status: "succeeded",
          finishedAt: "2025-03-31T10:00:05Z",
          transactionId: "tx-1",
        });
        const finished = {
          ...stored,
          status: "succeeded" as const,
          finishedAt: at(30 * DAY + 5000),
          transactionId: "tx-1",
        };
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), finished);
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 1), retry);
        await store.charges.finish(charge.subscriptionId, charge.period, 1, {
          status: "failed",
          finishedAt: at(30 * DAY + 1),
          transactionId: null,
        });
        assert.deepEqual(
          await store.charges.get(charge.subscriptionId, charge.period, 1),
          { ...retry, status: "failed", finishedAt: at(30 * DAY + 1) },
        );
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 2), null);
        assert.deepEqual(await store.charges.get(uid("sub"), charge.period, 0), null);
        // Finishing an unknown charge stores nothing.
        const ghost = uid("sub");
        await store.charges.finish(ghost, charge.period, 0, {
          status: "failed",
          finishedAt: at(0),
          transactionId: null,
        });
        assert.deepEqual(await store.charges.get(ghost, charge.period, 0), null);
      }),
  );

  await t.step(
    "charges: claim() keeps the card token the charge is sent with; finish() keeps it",
    () =>
      withStore(open, async (store) => {
        // Issue 23: a charge a dead pass left behind is recorded with the token it was sent with,
        // not the gift's token of the moment (a card update may have replaced it meanwhile).
        const charge = chargeFixture({ token: "tok_sent_with" });
        assert.equal(await store.charges.claim(charge), true);
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), charge);
        assert.deepEqual(
          await store.charges.listStale(at(31 * DAY), 1_000).then((l) =>
            l.find((c) => c.subscriptionId === charge.subscriptionId)
          ),
          charge,
        );
        await store.charges.finish(charge.subscriptionId, charge.period, 0, {
          status: "succeeded",
          finishedAt: at(30 * DAY + 5),
          transactionId: "tx-token",
        });
        assert.equal(
          (await store.charges.get(charge.subscriptionId, charge.period, 0))?.token,
          "tok_sent_with",
        );
        // One claimed before tokens were kept has none.
        const old = chargeFixture();
        await store.charges.claim(old);
        assert.equal("token" in (await store.charges.get(old.subscriptionId, old.period, 0))!, false);
      }),
  );

  await t.step(
    "charges: 10 concurrent claims of one charge (two instances): exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const charge = chargeFixture();
        const results = await race(a, b, 10, (store, i) =>
          store.charges.claim({ ...charge, startedAt: at(30 * DAY + i) }));
        assert.deepEqual(results.filter(Boolean).length, 1);
        const winner = results.indexOf(true);
        assert.deepEqual(
          await b.charges.get(charge.subscriptionId, charge.period, 0),
          { ...charge, startedAt: at(30 * DAY + winner) },
        );
      }),
  );

  await t.step(
    "charges: listStale() answers the started charges begun before `before`, oldest first, at most limit",
    () =>
      withStore(fresh(), async (store) => {
        const started = (ms: number, subscriptionId = uid("sub")) =>
          chargeFixture({ subscriptionId, startedAt: at(ms), period: at(-DAY) });
        const c1 = started(-3 * HOUR);
        const c2 = started(-2 * HOUR, "sub_a");
        const c3 = started(-2 * HOUR, "sub_b");
        const c4 = started(-HOUR);
        const recent = started(0);
        const done = started(-4 * HOUR);
        for (const c of [c4, recent, c3, done, c2, c1]) assert.ok(await store.charges.claim(c));
        await store.charges.finish(done.subscriptionId, done.period, 0, {
          status: "failed",
          finishedAt: at(-4 * HOUR + 1),
          transactionId: null,
        });
        assert.deepEqual(await store.charges.listStale(at(0), 100), [c1, c2, c3, c4]);
        assert.deepEqual(await store.charges.listStale(at(0), 2), [c1, c2]);
        assert.deepEqual(await store.charges.listStale(at(-2 * HOUR), 100), [c1]);
        assert.deepEqual(await store.charges.listStale(at(-3 * HOUR), 100), []);
        await store.charges.finish(c2.subscriptionId, c2.period, 0, {
          status: "succeeded",
          finishedAt: at(0),
          transactionId: "tx",
        });
        assert.deepEqual(await store.charges.listStale(at(1), 100), [c1, c3, c4, recent]);
      }),
  );
}
