/**
 * The storage contract for the throttle (`store.throttle`): a sliding window of events per key,
 * oldest first, keys isolated, at most 100 events kept, concurrent records each counted; a
 * reservation checks and records in one step, so a parallel burst never takes more than the limit. Its
 * retention sweep is checked with the nonces' in `nonces_contract.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

/** The contract of `store.throttle`. */
export async function throttleContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "throttle: record() answers the sliding window, oldest first; recent() does not record",
    () =>
      withStore(open, async (store) => {
        const key = uid("login");
        const now = 1_700_000_000_000;
        const w = 10_000;
        assert.deepEqual(await store.throttle.recent(key, now, w), []);
        assert.deepEqual(await store.throttle.record(key, now, w), [now]);
        assert.deepEqual(await store.throttle.record(key, now + 1_000, w), [now, now + 1_000]);
        assert.deepEqual(await store.throttle.record(key, now + 5_000, w), [now, now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 5_000, w), [now, now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 5_000, w), [now, now + 1_000, now + 5_000]);
        // Exactly windowMs old is out of the window.
        assert.deepEqual(await store.throttle.recent(key, now + w, w), [now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 5_000, 4_500), [now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.record(key, now + 12_000, w), [now + 5_000, now + 12_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 40_000, w), []);
        // A clock that went back: the answer is still oldest first.
        assert.deepEqual(await store.throttle.record(key, now + 11_000, w), [
          now + 5_000,
          now + 11_000,
          now + 12_000,
        ]);
      }),
  );

  await t.step(
    "throttle: keys are isolated; clear() forgets one key only",
    () =>
      withStore(open, async (store) => {
        const [k1, k2] = [uid("ip"), uid("ip")];
        const now = 1_700_000_000_000;
        await store.throttle.record(k1, now, 60_000);
        await store.throttle.record(k1, now + 1, 60_000);
        assert.deepEqual(await store.throttle.record(k2, now + 2, 60_000), [now + 2]);
        assert.deepEqual(await store.throttle.recent(k1, now + 3, 60_000), [now, now + 1]);
        await store.throttle.clear(k1);
        assert.deepEqual(await store.throttle.recent(k1, now + 3, 60_000), []);
        assert.deepEqual(await store.throttle.recent(k2, now + 3, 60_000), [now + 2]);
        await store.throttle.clear(k1);
        await store.throttle.clear(uid("never"));
        assert.deepEqual(await store.throttle.record(k1, now + 4, 60_000), [now + 4]);
      }),
  );

  await t.step(
    "throttle: a key keeps its 100 most recent events; concurrent records each count",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const key = uid("flood");
        const now = 1_700_000_000_000;
        let last: number[] = [];
        for (let i = 0; i < 105; i++) last = await a.throttle.record(key, now + i, 60_000);
        const expected = Array.from({ length: 100 }, (_, i) => now + 5 + i);
        assert.deepEqual(last, expected);
        assert.deepEqual(await b.throttle.recent(key, now + 200, 60_000), expected);

        const racing = uid("race");
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).throttle.record(racing, now + i, 60_000)),
        );
        assert.deepEqual(answers.map((times) => times.length).sort((x, y) => x - y), [
          1,
          2,
          3,
          4,
          5,
          6,
          7,
          8,
          9,
          10,
        ]);
        assert.deepEqual(
          await a.throttle.recent(racing, now + 10, 60_000),
          Array.from({ length: 10 }, (_, i) => now + i),
        );
      }),
  );

  await t.step(
    "throttle: reserve() records under every key while all have room, else answers when to retry",
    () =>
      withStore(open, async (store) => {
        const [email, addr, other] = [uid("email"), uid("addr"), uid("other")];
        const now = 1_700_000_000_000;
        const w = 60_000;
        for (let i = 0; i < 3; i++) {
          assert.deepEqual(await store.throttle.reserve([email, addr], now + i, w, 3), { reserved: true });
        }
        assert.deepEqual(await store.throttle.recent(email, now + 3, w), [now, now + 1, now + 2]);
        // Full: the oldest of the last 3 events leaves the window at now + w.
        assert.deepEqual(await store.throttle.reserve([email, addr], now + 10, w, 3), {
          reserved: false,
          retryAt: now + w,
        });
        // All or nothing: a full key refuses the pair, and the other key records nothing.
        assert.deepEqual(await store.throttle.reserve([other, addr], now + 11, w, 3), {
          reserved: false,
          retryAt: now + w,
        });
        assert.deepEqual(await store.throttle.recent(other, now + 11, w), []);
        // A reservation given back makes room again; releasing what is not there is fine.
        await store.throttle.release(addr, now + 1, w);
        await store.throttle.release(addr, now + 1, w);
        await store.throttle.release(uid("never"), now, w);
        assert.deepEqual(await store.throttle.recent(addr, now + 12, w), [now, now + 2]);
        assert.deepEqual(await store.throttle.reserve([other, addr], now + 12, w, 3), { reserved: true });
        assert.deepEqual(await store.throttle.recent(addr, now + 12, w), [now, now + 2, now + 12]);
        // Out of the window, events no longer count.
        assert.deepEqual(await store.throttle.reserve([email], now + w, w, 3), { reserved: true });
        await assert.rejects(() => store.throttle.reserve([email], now, w, 0), RangeError);
        await assert.rejects(() => store.throttle.reserve([email], now, w, 101), RangeError);
        await assert.rejects(() => store.throttle.reserve([], now, w, 3), RangeError);
      }),
  );

  await t.step(
    "throttle: of 20 reservations at once, from two handles, exactly the limit are granted",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const [email, addr] = [uid("burst-email"), uid("burst-addr")];
        const now = 1_700_000_000_000;
        const answers = await Promise.all(
          Array.from(
            { length: 20 },
            (_, i) => (i % 2 ? a : b).throttle.reserve([email, addr], now + i, 60_000, 5),
          ),
        );
        assert.equal(answers.filter((r) => r.reserved).length, 5);
        for (const answer of answers) {
          if (!answer.reserved) assert.ok(answer.retryAt > now && answer.retryAt <= now + 60_000 + 20);
        }
        assert.equal((await a.throttle.recent(email, now + 20, 60_000)).length, 5);
        assert.equal((await b.throttle.recent(addr, now + 20, 60_000)).length, 5);
      }),
  );
}
