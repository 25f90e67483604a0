/**
 * The storage contract for monthly subscriptions (`store.subscriptions`): insert-if-absent, get and
 * list by donor, `updateIfActive()` (nothing changes once ended), `cancelForDonor()` (each counted
 * once, also under a race) and `listDue()`, kept in step with every write.
 *
 * @module
 */

import type { Subscription } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, DAY, HOUR, subscriptionFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** The contract of `store.subscriptions`; `listDue()` has fresh data of its own. */
export async function subscriptionsContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "subscriptions: create() is insert-if-absent; get() and listByDonor() (oldest first); unknown is null",
    () =>
      withStore(open, async (store) => {
        const donorId = uid("donor");
        const input = subscriptionFixture({
          donorId,
          createdAt: at(2000),
          nextPaymentDate: "2025-03-31T10:00:00Z",
        });
        const created = await store.subscriptions.create(input);
        assert.deepEqual(created, { ...input, nextPaymentDate: at(30 * DAY) });
        assert.deepEqual(await store.subscriptions.get(input.id), created);
        // The same id again: nothing is stored, the existing one is answered.
        const again = await store.subscriptions.create({ ...input, amount: 1, status: "failed" });
        assert.deepEqual(again, created);
        assert.deepEqual(await store.subscriptions.get(input.id), created);

        const older = await store.subscriptions.create(subscriptionFixture({ donorId, createdAt: at(1000) }));
        const failed = await store.subscriptions.create(
          subscriptionFixture({ donorId, createdAt: at(3000), status: "failed", retryAt: at(5000) }),
        );
        assert.deepEqual(await store.subscriptions.listByDonor(donorId), [older, created, failed]);
        assert.deepEqual(await store.subscriptions.listByDonor(uid("donor")), []);
        assert.deepEqual(await store.subscriptions.get(uid("sub")), null);
        await assert.rejects(
          () => store.subscriptions.create(subscriptionFixture({ nextPaymentDate: "soon" })),
          RangeError,
        );
      }),
  );

  await t.step(
    "subscriptions: updateIfActive() changes only the given fields, only while active; otherwise null",
    () =>
      withStore(open, async (store) => {
        const sub = await store.subscriptions.create(subscriptionFixture());
        const retrying = await store.subscriptions.updateIfActive(sub.id, {
          failedAttempts: 1,
          retryAt: "2025-04-01T10:00:00Z",
        });
        assert.deepEqual(retrying, { ...sub, failedAttempts: 1, retryAt: at(31 * DAY), version: 1 });
        // Every write bumps the version, an empty one too.
        assert.deepEqual(await store.subscriptions.updateIfActive(sub.id, {}), { ...retrying, version: 2 });
        const paid = await store.subscriptions.updateIfActive(sub.id, {
          paymentDate: at(31 * DAY),
          nextPaymentDate: at(60 * DAY),
          failedAttempts: 0,
          retryAt: null,
        });
        assert.deepEqual(paid, {
          ...sub,
          paymentDate: at(31 * DAY),
          nextPaymentDate: at(60 * DAY),
          failedAttempts: 0,
          retryAt: null,
          version: 3,
        });
        assert.deepEqual(await store.subscriptions.get(sub.id), paid);
        // The update that ends it is answered; every one after it is null and changes nothing.
        const ended = await store.subscriptions.updateIfActive(sub.id, { status: "failed" });
        assert.deepEqual(ended, { ...paid, status: "failed", version: 4 });
        assert.deepEqual(await store.subscriptions.updateIfActive(sub.id, { failedAttempts: 3 }), null);
        assert.deepEqual(await store.subscriptions.updateIfActive(sub.id, {}), null);
        assert.deepEqual(await store.subscriptions.get(sub.id), ended);
        assert.deepEqual(await store.subscriptions.updateIfActive(uid("sub"), { failedAttempts: 1 }), null);
        // A cancel wins over a later update.
        const other = await store.subscriptions.create(subscriptionFixture());
        assert.deepEqual(await store.subscriptions.cancelForDonor(other.donorId, at(DAY)), 1);
        assert.deepEqual(await store.subscriptions.updateIfActive(other.id, { failedAttempts: 1 }), null);
        assert.deepEqual((await store.subscriptions.get(other.id))?.failedAttempts, 0);
      }),
  );

  await t.step(
    "subscriptions: updateIfVersion() writes only over the version given, while active, with its messages",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const sub = await a.subscriptions.create(subscriptionFixture());
        assert.deepEqual(sub.version, 0);
        const message = (key: string) => ({
          key,
          kind: "monthly-changed" as const,
          to: { donorId: sub.donorId },
          language: "en",
          data: {
            subscriptionId: sub.id,
            change: "amount" as const,
            amount: 3_000,
            currency: 2 as const,
            nextPaymentDate: sub.nextPaymentDate,
          },
        });
        const key1 = uid("msg");
        const changed = await a.subscriptions.updateIfVersion(sub.id, 0, {
          amount: 3_000,
          pausedFrom: "2025-03-31T10:00:00Z",
        }, { messages: [message(key1)] });
        assert.deepEqual(changed, { ...sub, amount: 3_000, pausedFrom: at(30 * DAY), version: 1 });
        assert.deepEqual(await b.subscriptions.get(sub.id), changed);
        assert.deepEqual((await b.outbox.get(key1))?.kind, "monthly-changed");
        // A stale version writes nothing, messages included.
        const key2 = uid("msg");
        assert.deepEqual(
          await b.subscriptions.updateIfVersion(sub.id, 0, { amount: 9_000 }, { messages: [message(key2)] }),
          null,
        );
        assert.deepEqual(await a.outbox.get(key2), null);
        assert.deepEqual(await a.subscriptions.get(sub.id), changed);
        // A charge's step (updateIfActive) bumps the version: a change read before it loses.
        await a.subscriptions.updateIfActive(sub.id, { charging: "ref-1" });
        assert.deepEqual(await b.subscriptions.updateIfVersion(sub.id, 1, { amount: 9_000 }), null);
        assert.deepEqual((await b.subscriptions.get(sub.id))?.charging, "ref-1");
        // Racing changes over one version: exactly one wins.
        const current = (await a.subscriptions.get(sub.id))!;
        const wins = await race(
          a,
          b,
          6,
          (store) => store.subscriptions.updateIfVersion(sub.id, current.version, { amount: 4_000 }),
        );
        assert.deepEqual(wins.filter((w) => w !== null).length, 1);
        assert.deepEqual((await a.subscriptions.get(sub.id))?.version, current.version + 1);
        // Ending it: cancel fields; then nothing more is written.
        const last = (await a.subscriptions.get(sub.id))!;
        const cancelled = await a.subscriptions.updateIfVersion(sub.id, last.version, {
          status: "cancelled",
          cancelledAt: at(DAY),
          cancelReason: "moved",
        });
        assert.deepEqual(cancelled, {
          ...last,
          status: "cancelled",
          cancelledAt: at(DAY),
          cancelReason: "moved",
          version: last.version + 1,
        });
        assert.deepEqual(
          await b.subscriptions.updateIfVersion(sub.id, last.version + 1, { amount: 1 }),
          null,
        );
        assert.deepEqual(await b.subscriptions.updateIfVersion(uid("sub"), 0, { amount: 1 }), null);
        assert.deepEqual(
          await b.subscriptions.listDue(at(400 * DAY), 1000).then((d) => d.some((s) => s.id === sub.id)),
          false,
        );
        await assert.rejects(() => a.subscriptions.updateIfVersion(sub.id, 0, { amount: 0 }), RangeError);
      }),
  );

  await t.step(
    "subscriptions: cancelForDonor() cancels every active one of the donor once; answers how many",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const donorId = uid("donor");
        const active = [
          await a.subscriptions.create(subscriptionFixture({ donorId, createdAt: at(1) })),
          await a.subscriptions.create(subscriptionFixture({ donorId, createdAt: at(2) })),
        ];
        const failed = await a.subscriptions.create(
          subscriptionFixture({ donorId, createdAt: at(3), status: "failed" }),
        );
        const bystander = await a.subscriptions.create(subscriptionFixture());
        assert.deepEqual(await a.subscriptions.cancelForDonor(donorId, "2025-03-02T10:00:00Z"), 2);
        assert.deepEqual(await b.subscriptions.listByDonor(donorId), [
          ...active.map((s) => ({ ...s, status: "cancelled" as const, cancelledAt: at(DAY), version: 1 })),
          failed,
        ]);
        assert.deepEqual(await b.subscriptions.get(bystander.id), bystander);
        // Idempotent: nothing left to cancel, the first cancel's time stays.
        assert.deepEqual(await b.subscriptions.cancelForDonor(donorId, at(2 * DAY)), 0);
        assert.deepEqual((await a.subscriptions.get(active[0].id))?.cancelledAt, at(DAY));
        assert.deepEqual(await a.subscriptions.cancelForDonor(uid("donor"), at(DAY)), 0);

        // Racing cancels on two instances count each subscription once.
        const racer = uid("donor");
        for (let i = 0; i < 3; i++) await a.subscriptions.create(subscriptionFixture({ donorId: racer }));
        const counts = await race(a, b, 4, (store) => store.subscriptions.cancelForDonor(racer, at(DAY)));
        assert.deepEqual(counts.reduce((sum, n) => sum + n, 0), 3);
        for (const s of await a.subscriptions.listByDonor(racer)) assert.deepEqual(s.status, "cancelled");
      }),
  );

  await t.step(
    "subscriptions: listDue() answers the active ones due at now, earliest due first (ties by id), kept in step",
    () =>
      withStore(fresh(), async (store) => {
        // Due time: the later of nextPaymentDate and retryAt.
        const make = (name: string, overrides: Partial<Subscription>) =>
          store.subscriptions.create(subscriptionFixture({ id: `sub_${name}`, ...overrides }));
        const a = await make("a", { nextPaymentDate: at(-3 * HOUR) });
        const b = await make("b", { nextPaymentDate: at(-5 * HOUR), retryAt: at(-HOUR), failedAttempts: 1 });
        const c = await make("c", { nextPaymentDate: at(-2 * HOUR), retryAt: at(HOUR), failedAttempts: 1 });
        await make("d", { nextPaymentDate: at(HOUR) });
        // Exactly now, written with an offset: due.
        const e = await make("e", { nextPaymentDate: "2025-03-01T12:00:00+02:00" });
        const g = await make("g", { nextPaymentDate: at(-4 * HOUR) });
        const f = await make("f", { nextPaymentDate: at(-4 * HOUR) });
        await make("h", { nextPaymentDate: at(-10 * HOUR), status: "cancelled", cancelledAt: at(-DAY) });
        await make("i", { nextPaymentDate: at(-10 * HOUR), status: "failed" });
        const j = await make("j", { nextPaymentDate: at(-HOUR / 2), retryAt: at(-6 * HOUR) });
        const ids = (subs: Subscription[]) => subs.map((s) => s.id);

        const due = await store.subscriptions.listDue(at(0), 100);
        assert.deepEqual(ids(due), ["sub_f", "sub_g", "sub_a", "sub_b", "sub_j", "sub_e"]);
        assert.deepEqual(due, [f, g, a, b, j, e]);
        assert.deepEqual(ids(await store.subscriptions.listDue(at(0), 2)), ["sub_f", "sub_g"]);
        assert.deepEqual(ids(await store.subscriptions.listDue("2025-03-01T06:00:00Z", 100)), [
          "sub_f",
          "sub_g",
        ]);
        assert.deepEqual(await store.subscriptions.listDue(at(-11 * HOUR), 100), []);
        assert.deepEqual(ids(await store.subscriptions.listDue(at(HOUR), 100)), [
          "sub_f",
          "sub_g",
          "sub_a",
          "sub_b",
          "sub_j",
          "sub_e",
          "sub_c",
          "sub_d",
        ]);

        // Every write moves a subscription in or out.
        await store.subscriptions.updateIfActive(a.id, { nextPaymentDate: at(30 * DAY), paymentDate: at(0) });
        await store.subscriptions.updateIfActive(b.id, { retryAt: at(2 * HOUR) });
        const c2 = await store.subscriptions.updateIfActive(c.id, { retryAt: null });
        await store.subscriptions.updateIfActive(g.id, { status: "failed" });
        await store.subscriptions.cancelForDonor(e.donorId, at(0));
        const f2 = await store.subscriptions.updateIfActive(f.id, { failedAttempts: 2 });
        assert.deepEqual(await store.subscriptions.listDue(at(0), 100), [f2, c2, j]);
        await assert.rejects(() => store.subscriptions.listDue("now", 10), RangeError);
      }),
  );

  await t.step(
    "subscriptions: listRetrying() answers the active ones whose last charge failed, due by `until`, earliest first",
    () =>
      withStore(fresh(), async (store) => {
        const make = (name: string, overrides: Partial<Subscription>) =>
          store.subscriptions.create(subscriptionFixture({ id: `sub_${name}`, ...overrides }));
        const period = at(-2 * DAY);
        // Declined once, tried again in a day; twice, in three days; ties by id.
        const a = await make("a", { nextPaymentDate: period, failedAttempts: 1, retryAt: at(DAY) });
        const b = await make("b", { nextPaymentDate: period, failedAttempts: 2, retryAt: at(3 * DAY) });
        const c = await make("c", { nextPaymentDate: period, failedAttempts: 1, retryAt: at(DAY) });
        // A charge that never reached the provider: tried again at once (no retryAt).
        const d = await make("d", { nextPaymentDate: period, failedAttempts: 1, retryAt: null });
        // Not failing, ended, or further ahead than `until`.
        await make("e", { nextPaymentDate: at(HOUR) });
        await make("f", {
          nextPaymentDate: period,
          failedAttempts: 1,
          retryAt: at(DAY),
          status: "cancelled",
        });
        await make("g", { nextPaymentDate: period, failedAttempts: 3, status: "failed" });
        const h = await make("h", { nextPaymentDate: period, failedAttempts: 3, retryAt: at(9 * DAY) });
        const ids = (subs: Subscription[]) => subs.map((s) => s.id);

        const retrying = await store.subscriptions.listRetrying(at(8 * DAY), 100);
        assert.deepEqual(retrying, [d, a, c, b]);
        assert.deepEqual(ids(await store.subscriptions.listRetrying(at(8 * DAY), 2)), ["sub_d", "sub_a"]);
        assert.deepEqual(ids(await store.subscriptions.listRetrying(at(10 * DAY), 100)), [
          "sub_d",
          "sub_a",
          "sub_c",
          "sub_b",
          "sub_h",
        ]);
        assert.deepEqual(ids(await store.subscriptions.listRetrying(at(-3 * DAY), 100)), []);
        // Kept in step: a charge that succeeds leaves the list, one that fails joins it.
        await store.subscriptions.updateIfActive(a.id, { failedAttempts: 0, retryAt: null });
        const e2 = await store.subscriptions.updateIfActive("sub_e", {
          failedAttempts: 1,
          retryAt: at(2 * DAY),
        });
        await store.subscriptions.cancelForDonor(h.donorId, at(0));
        assert.deepEqual(await store.subscriptions.listRetrying(at(10 * DAY), 100), [d, c, e2, b]);
        await assert.rejects(() => store.subscriptions.listRetrying("soon", 10), RangeError);
        await assert.rejects(() => store.subscriptions.listRetrying(at(0), 0), RangeError);
        await assert.rejects(() => store.subscriptions.listRetrying(at(0), 1001), RangeError);
      }),
  );
}
