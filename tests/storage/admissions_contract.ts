/**
 * The storage contract for admitted creations (`donors.createAdmitted`,
 * `payments.createOrReuseAdmitted`): the rate limiter's count, caps and origin in the same storage
 * call as the creation; admitted, the record is stored as `create`/`createOrReuse` store it;
 * refused, nothing is created and no origin is kept; racing calls from two stores never admit more
 * than the limit.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Admission } from "@/lib/storage/types.ts";
import { donorFixture, paymentFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

const W = 60_000;

/** Hits on an address key then a global one, and a cap key. */
function admission(limit: number, keys: { addr: string; all: string; cap: string }, capAt = 3): Admission {
  return {
    hits: [{ key: keys.addr, limit }, { key: keys.all, limit: 100 }],
    windowMs: W,
    caps: [{ key: keys.cap, cap: capAt }],
    origin: null,
  };
}

const keys = () => ({ addr: uid("addr"), all: uid("all"), cap: uid("cap") });

/** The contract of admitted creations. */
export async function admissionsContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "donors.createAdmitted: stored as create stores it while admitted; refused, not stored",
    () =>
      withStore(open, async (store) => {
        const k = keys();
        const now = Date.now();
        const first = donorFixture({ email: " Ada@Example.org " });
        const answer = await store.donors.createAdmitted(first, admission(1, k), now);
        assert.ok(answer.admitted);
        assert.equal(answer.donor.email, "ada@example.org", "answered as stored");
        assert.deepEqual(await store.donors.get(first.id), answer.donor);
        assert.equal((await store.rateLimits.peek(k.addr, now)).count, 1);
        const second = donorFixture();
        assert.deepEqual(await store.donors.createAdmitted(second, admission(1, k), now + 1), {
          admitted: false,
          reason: "requests",
          retryAfterMs: W - 1,
        });
        assert.equal(await store.donors.get(second.id), null);
        assert.equal(
          (await store.rateLimits.peek(k.all, now)).count,
          1,
          "refused by its address: not counted globally",
        );
      }),
  );

  await t.step(
    "payments.createOrReuseAdmitted: created and its origin kept; a repeat reuses; refused: nothing",
    () =>
      withStore(open, async (store) => {
        const k = keys();
        const now = Date.now();
        const withOrigin = (paymentId: string, limit = 2): Admission => ({
          ...admission(limit, k),
          origin: { paymentId, origin: "203.0.113.7", ttlMs: W },
        });
        const dedupe = uid("dedupe");
        const p1 = paymentFixture({
          createdAt: new Date(now).toISOString(),
          updatedAt: new Date(now).toISOString(),
        });
        const created = await store.payments.createOrReuseAdmitted(p1, dedupe, W, now, withOrigin(p1.id));
        assert.ok(created.admitted);
        assert.equal(created.created, true);
        assert.deepEqual(created.payment, await store.payments.get(p1.id));
        assert.equal(await store.rateLimits.originOf(p1.id, now), "203.0.113.7");
        // The same request again: counted, and the pending payment answered.
        const p2 = paymentFixture({
          createdAt: new Date(now).toISOString(),
          updatedAt: new Date(now).toISOString(),
        });
        const reused = await store.payments.createOrReuseAdmitted(p2, dedupe, W, now + 1, withOrigin(p2.id));
        assert.ok(reused.admitted);
        assert.equal(reused.created, false);
        assert.equal(reused.payment.id, p1.id);
        // Over the limit: nothing stored, no origin.
        const p3 = paymentFixture();
        const refused = await store.payments.createOrReuseAdmitted(
          p3,
          uid("dedupe"),
          W,
          now + 2,
          withOrigin(p3.id),
        );
        assert.deepEqual(refused, { admitted: false, reason: "requests", retryAfterMs: W - 2 });
        assert.equal(await store.payments.get(p3.id), null);
        assert.equal(await store.rateLimits.originOf(p3.id, now + 2), null);
        // A cap reached refuses for declines, whatever the limits.
        const c = keys();
        for (let i = 0; i < 3; i++) await store.rateLimits.hit(c.cap, 100, 3_600_000, now);
        const p4 = paymentFixture();
        const capped = await store.payments.createOrReuseAdmitted(p4, uid("dedupe"), W, now + 3, {
          ...admission(5, c),
          origin: { paymentId: p4.id, origin: "203.0.113.8", ttlMs: W },
        });
        assert.equal(capped.admitted ? "admitted" : capped.reason, "declines");
        assert.equal(await store.payments.get(p4.id), null);
      }),
  );

  await t.step(
    "createAdmitted racing from two stores: exactly the limit's donors are stored",
    () =>
      withTwo(open, sharedData, async (x, y) => {
        const k = keys();
        const now = Date.now();
        const donors = Array.from({ length: 30 }, () => donorFixture());
        const answers = await Promise.all(
          donors.map((d, i) => (i % 2 ? x : y).donors.createAdmitted(d, admission(10, k), now)),
        );
        assert.equal(answers.filter((a) => a.admitted).length, 10);
        const stored = await Promise.all(donors.map((d) => x.donors.get(d.id)));
        assert.equal(stored.filter((d) => d !== null).length, 10);
      }),
  );
}
