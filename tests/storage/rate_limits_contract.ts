/**
 * The storage contract for rate limits (`store.rateLimits`): a fixed window per key that allows
 * `limit` hits and then refuses until it ends, keys isolated, racing hits from two stores never
 * letting more than the limit through, windows that end, the origins of payments, and retention.
 *
 * @module
 */

import assert from "node:assert/strict";
import { uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

/** The contract of `store.rateLimits`. */
export async function rateLimitsContract(
  t: Deno.TestContext,
  { open, sharedData, kind }: ContractOptions,
): Promise<void> {
  await t.step(
    "rateLimits: a window allows `limit` hits, then refuses until it ends; peek counts nothing",
    () =>
      withStore(open, async (store) => {
        const key = uid("addr");
        const now = 1_700_000_000_000;
        const w = 60_000;
        assert.deepEqual(await store.rateLimits.peek(key, now), { count: 0, retryAfterMs: 0 });
        assert.deepEqual(await store.rateLimits.hit(key, 3, w, now), {
          allowed: true,
          count: 1,
          retryAfterMs: 0,
        });
        assert.deepEqual(await store.rateLimits.hit(key, 3, w, now + 10), {
          allowed: true,
          count: 2,
          retryAfterMs: 0,
        });
        assert.deepEqual(await store.rateLimits.peek(key, now + 10), { count: 2, retryAfterMs: w - 10 });
        assert.deepEqual(await store.rateLimits.hit(key, 3, w, now + 20), {
          allowed: true,
          count: 3,
          retryAfterMs: 0,
        });
        // The window started at the first hit: it ends at now + w whatever the later hits.
        assert.deepEqual(await store.rateLimits.hit(key, 3, w, now + 1_000), {
          allowed: false,
          count: 4,
          retryAfterMs: w - 1_000,
        });
        assert.deepEqual(await store.rateLimits.hit(key, 3, w, now + 2_000), {
          allowed: false,
          count: 4,
          retryAfterMs: w - 2_000,
        });
        assert.deepEqual(await store.rateLimits.peek(key, now + 2_000), {
          count: 4,
          retryAfterMs: w - 2_000,
        });
        // Exactly at its end the window is over: a new one starts with this hit.
        assert.deepEqual(await store.rateLimits.peek(key, now + w), { count: 0, retryAfterMs: 0 });
        assert.deepEqual(await store.rateLimits.hit(key, 3, w, now + w), {
          allowed: true,
          count: 1,
          retryAfterMs: 0,
        });
        assert.deepEqual(await store.rateLimits.peek(key, now + w + 5), { count: 1, retryAfterMs: w - 5 });
      }),
  );

  await t.step(
    "rateLimits: peekMany reads several keys in one call, in their order, ended and unknown ones at 0",
    () =>
      withStore(open, async (store) => {
        const [a, b, ended, unknown] = [uid("a"), uid("b"), uid("ended"), uid("unknown")];
        const now = 1_700_000_000_000;
        await store.rateLimits.hit(a, 5, 60_000, now);
        for (let i = 0; i < 2; i++) await store.rateLimits.hit(b, 5, 60_000, now + 1);
        await store.rateLimits.hit(ended, 5, 1_000, now - 5_000);
        assert.deepEqual(await store.rateLimits.peekMany([unknown, b, ended, a], now + 10), [
          { count: 0, retryAfterMs: 0 },
          { count: 2, retryAfterMs: 60_000 - 9 },
          { count: 0, retryAfterMs: 0 },
          { count: 1, retryAfterMs: 60_000 - 10 },
        ]);
        assert.deepEqual(await store.rateLimits.peekMany([], now), []);
        await assert.rejects(
          () => store.rateLimits.peekMany(Array.from({ length: 11 }, (_, i) => `k${i}`), now),
          RangeError,
        );
      }),
  );

  await t.step(
    "rateLimits: keys are isolated; a limit of 1 allows one hit",
    () =>
      withStore(open, async (store) => {
        const [a, b] = [uid("k"), uid("k")];
        const now = 1_700_000_000_000;
        assert.equal((await store.rateLimits.hit(a, 1, 1_000, now)).allowed, true);
        assert.equal((await store.rateLimits.hit(a, 1, 1_000, now)).allowed, false);
        assert.equal((await store.rateLimits.hit(b, 1, 1_000, now)).allowed, true);
        assert.equal((await store.rateLimits.peek(b, now)).count, 1);
        await assert.rejects(() => store.rateLimits.hit(a, 0, 1_000, now), RangeError);
      }),
  );

  await t.step(
    "rateLimits: racing hits from two stores never let more than the limit through",
    () =>
      withTwo(open, sharedData, async (x, y) => {
        const key = uid("race");
        const now = Date.now();
        const hits = await Promise.all(
          Array.from({ length: 40 }, (_, i) => (i % 2 ? x : y).rateLimits.hit(key, 15, 60_000, now)),
        );
        assert.equal(hits.filter((h) => h.allowed).length, 15);
        for (const refused of hits.filter((h) => !h.allowed)) {
          assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= 60_000, String(refused.retryAfterMs));
        }
        assert.equal((await x.rateLimits.peek(key, now)).count, 16);
      }),
  );

  await t.step(
    "rateLimits: hitInOrder counts keys in order and stops at the first refused",
    () =>
      withStore(open, async (store) => {
        const [own, all] = [uid("addr"), uid("all")];
        const now = 1_700_000_000_000;
        const w = 60_000;
        const both = () =>
          store.rateLimits.hitInOrder([{ key: own, limit: 2 }, { key: all, limit: 3 }], w, now);
        assert.deepEqual(await both(), [
          { allowed: true, count: 1, retryAfterMs: 0 },
          { allowed: true, count: 1, retryAfterMs: 0 },
        ]);
        assert.deepEqual((await both()).map((h) => h.allowed), [true, true]);
        // The first key refuses: the second is not counted.
        assert.deepEqual(await both(), [{ allowed: false, count: 3, retryAfterMs: w }]);
        assert.equal((await store.rateLimits.peek(all, now)).count, 2);
        // Another first key: the second allows its third hit, then refuses.
        const other = () =>
          store.rateLimits.hitInOrder([{ key: uid("addr"), limit: 2 }, { key: all, limit: 3 }], w, now);
        assert.deepEqual((await other()).map((h) => h.allowed), [true, true]);
        assert.deepEqual(await other(), [
          { allowed: true, count: 1, retryAfterMs: 0 },
          { allowed: false, count: 4, retryAfterMs: w },
        ]);
        assert.deepEqual(await store.rateLimits.hitInOrder([], w, now), []);
        await assert.rejects(() => store.rateLimits.hitInOrder([{ key: own, limit: 0 }], w, now), RangeError);
      }),
  );

  await t.step(
    "rateLimits: racing hitInOrder from two stores: per key and in all, never past the limit",
    () =>
      withTwo(open, sharedData, async (x, y) => {
        const all = uid("all");
        const addresses = [uid("a"), uid("b"), uid("c")];
        const now = Date.now();
        const answers = await Promise.all(
          Array.from({ length: 45 }, (_, i) =>
            (i % 2 ? x : y).rateLimits.hitInOrder(
              [{ key: addresses[i % 3], limit: 5 }, { key: all, limit: 12 }],
              60_000,
              now,
            )),
        );
        const through = answers.filter((hits) => hits.length === 2 && hits[1].allowed);
        assert.equal(through.length, 12);
        // Each address let 5 through its own limit (15 in all reached everyone's: 12 allowed, 3
        // refused); the 30 refused by their address never reached it.
        assert.equal(answers.filter((hits) => !hits[0].allowed).length, 30);
        assert.equal((await x.rateLimits.peek(all, now)).count, 13);
      }),
  );

  await t.step(
    "rateLimits: a payment's origin is remembered until it expires",
    () =>
      withStore(open, async (store) => {
        const payment = uid("pay");
        const now = 1_700_000_000_000;
        assert.equal(await store.rateLimits.originOf(payment, now), null);
        await store.rateLimits.rememberOrigin(payment, "2001:db8:1:2::/64", 60_000, now);
        assert.equal(await store.rateLimits.originOf(payment, now + 59_999), "2001:db8:1:2::/64");
        assert.equal(await store.rateLimits.originOf(payment, now + 60_000), null);
        await store.rateLimits.rememberOrigin(payment, "203.0.113.7", 60_000, now + 1);
        assert.equal(await store.rateLimits.originOf(payment, now + 2), "203.0.113.7");
      }),
  );

  await t.step(
    "rateLimits: admit counts in order, then reads the caps, then remembers the origin only when admitted",
    () =>
      withStore(open, async (store) => {
        const [addr, all, declines] = [uid("addr"), uid("all"), uid("declines")];
        const now = 1_700_000_000_000;
        const w = 60_000;
        const admission = (paymentId: string, cap = 2) => ({
          hits: [{ key: addr, limit: 2 }, { key: all, limit: 10 }],
          windowMs: w,
          caps: [{ key: declines, cap }],
          origin: { paymentId, origin: "203.0.113.7", ttlMs: w },
        });
        const [p1, p2, p3, p4] = [uid("pay"), uid("pay"), uid("pay"), uid("pay")];
        assert.deepEqual(await store.rateLimits.admit(admission(p1), now), { admitted: true });
        assert.equal(await store.rateLimits.originOf(p1, now), "203.0.113.7");
        // The caps: a counter at its cap refuses (counted, then refused: the hits stay counted).
        await store.rateLimits.hitInOrder([{ key: declines, limit: 100 }], 3_600_000, now - 1_000);
        await store.rateLimits.hitInOrder([{ key: declines, limit: 100 }], 3_600_000, now - 1_000);
        assert.deepEqual(await store.rateLimits.admit(admission(p2), now + 1), {
          admitted: false,
          reason: "declines",
          retryAfterMs: 3_600_000 - 1_001,
        });
        assert.equal(await store.rateLimits.originOf(p2, now + 1), null);
        assert.deepEqual(await store.rateLimits.peek(addr, now + 1), { count: 2, retryAfterMs: w - 1 });
        // Over the address's limit: refused for requests, the global counter untouched.
        assert.deepEqual(await store.rateLimits.admit(admission(p3, 5), now + 2), {
          admitted: false,
          reason: "requests",
          retryAfterMs: w - 2,
        });
        assert.equal((await store.rateLimits.peek(all, now + 2)).count, 2);
        assert.equal(await store.rateLimits.originOf(p3, now + 2), null);
        // No hits and no caps: only the origin.
        assert.deepEqual(
          await store.rateLimits.admit(
            { hits: [], windowMs: w, caps: [], origin: admission(p4).origin },
            now,
          ),
          { admitted: true },
        );
        assert.equal(await store.rateLimits.originOf(p4, now), "203.0.113.7");
      }),
  );

  await t.step(
    "rateLimits: retention deletes ended windows and origins (KV expires them itself)",
    () =>
      withStore(open, async (store) => {
        const now = Date.now();
        const [ended, open_] = [uid("ended"), uid("open")];
        await store.rateLimits.hit(ended, 5, 1_000, now - 10_000);
        await store.rateLimits.hit(open_, 5, 60_000, now);
        await store.rateLimits.rememberOrigin(uid("pay"), "203.0.113.7", 1_000, now - 10_000);
        let deleted = 0;
        for (let n; (n = await store.rateLimits.deleteBefore(now, 1_000)) > 0;) deleted += n;
        if (kind === "kv") assert.equal(deleted, 0);
        else assert.ok(deleted >= 2, `deleted ${deleted}`);
        // PostgreSQL deleted the ended window's row; KV keeps it until its expiry, read as ended.
        assert.equal((await store.rateLimits.peek(ended, now - 9_500)).count, kind === "kv" ? 1 : 0);
        assert.equal((await store.rateLimits.peek(ended, now)).count, 0);
        assert.equal((await store.rateLimits.peek(open_, now)).count, 1);
        await assert.rejects(() => store.rateLimits.deleteBefore(now, 0), RangeError);
      }),
  );
}
