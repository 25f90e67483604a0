/**
 * The storage contract for card-update attempts (`store.cardUpdates`): attempts stored canonical, a
 * provider reference recorded once and found again by provider, an attempt finished exactly once
 * (also under a race across two instances), and subscriptions' `token` and `cardMasked` changed by
 * `updateIfVersion` (what applying a verified new card writes).
 *
 * @module
 */

import type { CardUpdate } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, subscriptionFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

const attempt = (o: Partial<CardUpdate> = {}): CardUpdate => ({
  id: uid("cu"),
  subscriptionId: uid("sub"),
  donorIds: [uid("donor"), uid("donor")],
  provider: "sandbox",
  providerRef: null,
  userKey: uid("key"),
  confirmationKey: null,
  language: "he",
  status: "open",
  statusCode: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...o,
});

/** The contract of `store.cardUpdates`. */
export async function cardUpdatesContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step("cardUpdates: create() then get(); malformed and repeated ids refused", async () => {
    await withStore(open, async (store) => {
      const a = attempt({ createdAt: "2025-03-01T12:00:00+02:00", updatedAt: "2025-03-01T10:00:00Z" });
      await store.cardUpdates.create(a);
      const stored = await store.cardUpdates.get(a.id);
      assert.deepEqual(stored, { ...a, createdAt: "2025-03-01T10:00:00.000Z", updatedAt: at(0) });
      assert.equal(await store.cardUpdates.get(uid("missing")), null);
      await assert.rejects(() => store.cardUpdates.create(a));
      await assert.rejects(() => store.cardUpdates.create(attempt({ id: "no spaces allowed" })), RangeError);
      await assert.rejects(() => store.cardUpdates.create(attempt({ donorIds: [] })), RangeError);
      await assert.rejects(() => store.cardUpdates.create(attempt({ status: "applied" })), RangeError);
      await assert.rejects(() => store.cardUpdates.create(attempt({ providerRef: "x" })), RangeError);
      await assert.rejects(() => store.cardUpdates.create(attempt({ createdAt: "yesterday" })), RangeError);
    });
  });

  await t.step("cardUpdates: setProviderRef() once; getByProviderRef() by provider", async () => {
    await withStore(open, async (store) => {
      const a = attempt();
      await store.cardUpdates.create(a);
      const ref = uid("ref");
      const set = await store.cardUpdates.setProviderRef(a.id, ref, "abc123", at(1000));
      assert.deepEqual(set, { ...a, providerRef: ref, confirmationKey: "abc123", updatedAt: at(1000) });
      assert.deepEqual(await store.cardUpdates.getByProviderRef("sandbox", ref), set);
      assert.equal(await store.cardUpdates.getByProviderRef("pelecard", ref), null);
      assert.equal(await store.cardUpdates.getByProviderRef("sandbox", uid("other")), null);
      // Set already: nothing written.
      assert.equal(await store.cardUpdates.setProviderRef(a.id, uid("ref"), null, at(2000)), null);
      assert.deepEqual(await store.cardUpdates.get(a.id), set);
      assert.equal(await store.cardUpdates.setProviderRef(uid("missing"), uid("ref"), null, at(0)), null);
      // A finished attempt takes no reference.
      const b = attempt();
      await store.cardUpdates.create(b);
      await store.cardUpdates.finish(b.id, "failed", null, at(10));
      assert.equal(await store.cardUpdates.setProviderRef(b.id, uid("ref"), null, at(20)), null);
    });
  });

  await t.step("cardUpdates: finish() moves an open attempt once; the rest answer it as stored", async () => {
    await withStore(open, async (store) => {
      const a = attempt();
      await store.cardUpdates.create(a);
      const first = await store.cardUpdates.finish(a.id, "applied", "000", at(5000));
      assert.deepEqual(first, {
        moved: true,
        update: { ...a, status: "applied", statusCode: "000", updatedAt: at(5000) },
      });
      const again = await store.cardUpdates.finish(a.id, "declined", "033", at(6000));
      assert.deepEqual(again, { moved: false, update: first!.update });
      assert.equal(await store.cardUpdates.finish(uid("missing"), "applied", "000", at(0)), null);
      await assert.rejects(
        () => store.cardUpdates.finish(a.id, "open" as "applied", null, at(0)),
        RangeError,
      );
    });
  });

  await t.step("cardUpdates: of racing finish() calls across instances exactly one moves", async () => {
    await withTwo(open, sharedData, async (a, b) => {
      const u = attempt();
      await a.cardUpdates.create(u);
      const results = await race(
        a,
        b,
        10,
        (store, i) => store.cardUpdates.finish(u.id, i % 3 === 0 ? "declined" : "applied", "000", at(i)),
      );
      assert.equal(results.filter((r) => r?.moved).length, 1);
      const winner = results.find((r) => r?.moved)!.update;
      assert.deepEqual(await b.cardUpdates.get(u.id), winner);
    });
  });

  await t.step(
    "cardUpdates: listOpen() answers the open attempts created before a time, oldest first",
    async () => {
      await withStore(fresh(), async (store) => {
        const made = [
          attempt({ createdAt: at(3_000) }),
          attempt({ createdAt: at(1_000) }),
          attempt({ createdAt: at(2_000) }),
        ];
        for (const u of made) await store.cardUpdates.create(u);
        const late = attempt({ createdAt: at(9_000) });
        await store.cardUpdates.create(late);
        const ids = async (before: number, limit = 100) =>
          (await store.cardUpdates.listOpen(at(before), limit)).map((u) => u.id);
        assert.deepEqual(await ids(5_000), [made[1].id, made[2].id, made[0].id]);
        assert.deepEqual(await ids(5_000, 2), [made[1].id, made[2].id]);
        assert.deepEqual(await ids(2_000), [made[1].id], "created before, not at");
        // A finished attempt is no longer open; one given a provider reference still is.
        await store.cardUpdates.finish(made[1].id, "declined", "033", at(4_000));
        await store.cardUpdates.setProviderRef(made[2].id, uid("ref"), null, at(4_000));
        const open = await store.cardUpdates.listOpen(at(5_000), 100);
        assert.deepEqual(open.map((u) => u.id), [made[2].id, made[0].id]);
        assert.notEqual(open[0].providerRef, null, "answered as stored");
        assert.deepEqual(await ids(10_000), [made[2].id, made[0].id, late.id]);
        await assert.rejects(() => store.cardUpdates.listOpen("soon", 10), RangeError);
        await assert.rejects(() => store.cardUpdates.listOpen(at(0), 0), RangeError);
      });
    },
  );

  await t.step(
    "cardUpdates: listBySubscription() answers a gift's attempts, oldest first, whatever their state",
    async () => {
      await withStore(fresh(), async (store) => {
        // Issue 23: a gift's card-update history tells whether its card was ever replaced.
        const gift = uid("sub");
        const made = [
          attempt({ subscriptionId: gift, createdAt: at(3_000) }),
          attempt({ subscriptionId: gift, createdAt: at(1_000) }),
          attempt({ subscriptionId: gift, createdAt: at(2_000) }),
        ];
        for (const u of made) await store.cardUpdates.create(u);
        await store.cardUpdates.create(attempt({ createdAt: at(1_500) })); // another gift's
        await store.cardUpdates.finish(made[1].id, "applied", "000", at(4_000));
        const list = await store.cardUpdates.listBySubscription(gift, 100);
        assert.deepEqual(list.map((u) => u.id), [made[1].id, made[2].id, made[0].id]);
        assert.deepEqual(list.map((u) => u.status), ["applied", "open", "open"], "answered as stored");
        assert.deepEqual(
          (await store.cardUpdates.listBySubscription(gift, 2)).map((u) => u.id),
          [made[1].id, made[2].id],
        );
        assert.deepEqual(await store.cardUpdates.listBySubscription(uid("sub"), 10), []);
        await assert.rejects(() => store.cardUpdates.listBySubscription(gift, 0), RangeError);
        await assert.rejects(() => store.cardUpdates.listBySubscription(gift, 1_001), RangeError);
      });
    },
  );

  await t.step("subscriptions: updateIfVersion() replaces token and cardMasked (a new card)", async () => {
    await withStore(open, async (store) => {
      const sub = await store.subscriptions.create(subscriptionFixture({ token: "tok_old" }));
      const updated = await store.subscriptions.updateIfVersion(sub.id, sub.version, {
        token: "tok_new",
        cardMasked: "411111******1111",
      });
      assert.equal(updated?.token, "tok_new");
      assert.equal(updated?.cardMasked, "411111******1111");
      assert.equal(updated?.version, sub.version + 1);
      assert.deepEqual(await store.subscriptions.get(sub.id), updated);
      // Over a stale version: nothing written.
      assert.equal(await store.subscriptions.updateIfVersion(sub.id, sub.version, { token: "tok_x" }), null);
      await assert.rejects(
        () => store.subscriptions.updateIfVersion(sub.id, sub.version + 1, { token: "" }),
        RangeError,
      );
    });
  });
}
