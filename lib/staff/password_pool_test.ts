import assert from "node:assert/strict";
import { PasswordsBusyError } from "./errors.ts";
import { defaultPasswordWorkers, IN_THREAD, PasswordPool } from "./password_pool.ts";
import { DUMMY_HASH, hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.ts";

Deno.test("the pool hashes in workers what the calling thread would, and verifies it", async () => {
  const pool = new PasswordPool({ workers: 2, maxQueue: 8 });
  try {
    const phc = await hashPassword("violet-harbor-lantern", pool);
    assert.equal(await verifyPassword("violet-harbor-lantern", phc, pool), true);
    assert.equal(await verifyPassword("violet-harbor-lantern", phc, IN_THREAD), true, "same hash in-thread");
    assert.equal(await verifyPassword("violet-harbor-lanterN", phc, pool), false);
    assert.equal(await verifyAgainstDummy("anything", pool), false);
    assert.equal(await verifyPassword("x", DUMMY_HASH.replace("m=19456", "m=1"), pool), false);
    assert.equal(pool.stats.accepted, 4, "a hash not even well-formed is not sent to a worker");
    assert.ok(pool.stats.workers >= 1 && pool.stats.workers <= 2);
  } finally {
    await pool.close();
  }
});

Deno.test("workers start on the first job, not before", async () => {
  const pool = new PasswordPool({ workers: 3, maxQueue: 8 });
  try {
    assert.equal(pool.stats.workers, 0);
    await hashPassword("violet-harbor-lantern", pool);
    assert.equal(pool.stats.workers, 1, "one job needs one worker");
  } finally {
    await pool.close();
  }
});

Deno.test("beyond the queue bound a job is refused at once, with a time to retry", async () => {
  const pool = new PasswordPool({ workers: 1, maxQueue: 2 });
  try {
    const jobs = Array.from({ length: 5 }, (_, i) => hashPassword(`password-number-${i}`, pool));
    const settled = await Promise.allSettled(jobs);
    const refused = settled.filter((r) => r.status === "rejected");
    assert.equal(settled.filter((r) => r.status === "fulfilled").length, 3, "one running and two queued");
    assert.equal(refused.length, 2);
    for (const r of refused) {
      const reason = (r as PromiseRejectedResult).reason;
      assert.ok(reason instanceof PasswordsBusyError, String(reason));
      assert.ok(Number.isInteger(reason.retryAfterSeconds) && reason.retryAfterSeconds >= 1);
    }
    assert.deepEqual({ ...pool.stats, workers: 0 }, {
      accepted: 3,
      refused: 2,
      running: 0,
      queued: 0,
      workers: 0,
    });
    // The queue drained: new work is accepted again.
    assert.match(await hashPassword("after-the-burst", pool), /^\$argon2id\$/);
  } finally {
    await pool.close();
  }
});

Deno.test("a refused verification is an error, never a wrong password", async () => {
  const pool = new PasswordPool({ workers: 1, maxQueue: 0 });
  try {
    const first = verifyAgainstDummy("one", pool);
    await assert.rejects(() => verifyPassword("two", DUMMY_HASH, pool), PasswordsBusyError);
    assert.equal(await first, false);
  } finally {
    await pool.close();
  }
});

Deno.test("close fails waiting jobs and refuses new ones; closing twice is fine", async () => {
  const pool = new PasswordPool({ workers: 1, maxQueue: 4 });
  const running = hashPassword("first-in-line", pool);
  const waiting = hashPassword("second-in-line", pool);
  await pool.close();
  await assert.rejects(() => running, /closed/);
  await assert.rejects(() => waiting, /closed/);
  await assert.rejects(() => hashPassword("too-late", pool), /closed/);
  await pool.close();
  assert.equal(pool.stats.workers, 0);
});

Deno.test("the default size leaves a core to the event loop, and is at least one", () => {
  assert.equal(defaultPasswordWorkers(), Math.max(1, navigator.hardwareConcurrency - 1));
  assert.throws(() => new PasswordPool({ workers: 0, maxQueue: 1 }), RangeError);
  assert.throws(() => new PasswordPool({ workers: 1, maxQueue: -1 }), RangeError);
});

Deno.test("where workers cannot start, the pool hashes on the calling thread within the same bounds", async () => {
  const warnings: string[] = [];
  const pool = new PasswordPool({
    workers: 1,
    maxQueue: 1,
    createWorker: () => {
      throw new Error("no workers here");
    },
    // The app's log: one JSON line, the reason in its fields.
    log: { warn: (msg, fields) => warnings.push(`${msg}: ${fields?.error}`) },
  });
  try {
    const jobs = [hashPassword("first-one", pool), hashPassword("second-one", pool)];
    await assert.rejects(() => hashPassword("third-one", pool), PasswordsBusyError);
    const [a] = await Promise.all(jobs);
    assert.equal(await verifyPassword("first-one", a, pool), true);
    assert.equal(warnings.length, 1, "said once");
    assert.match(warnings[0], /no workers here/);
  } finally {
    await pool.close();
  }
});
