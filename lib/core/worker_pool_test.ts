import assert from "node:assert/strict";
import { type AnswerMessage, type JobMessage, WORKER_IDLE_MS, WorkerPool } from "./worker_pool.ts";

/** A stand-in worker that doubles a number after `ms`; counts how many were made and terminated. */
function fakeWorkers(ms = 5) {
  const made = { count: 0, terminated: 0 };
  const createWorker = () => {
    made.count++;
    const worker = {
      onmessage: null as ((e: MessageEvent<AnswerMessage<number>>) => void) | null,
      onerror: null,
      postMessage({ id, job }: JobMessage<number>) {
        setTimeout(() => worker.onmessage?.({ data: { id, result: job * 2 } } as MessageEvent), ms);
      },
      terminate() {
        made.terminated++;
      },
    };
    return worker as unknown as Worker;
  };
  return { made, createWorker };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pool of fake workers, each answering after `jobMs`, retired after `idleMs` without a job. */
function testPool(workers: number, idleMs: number, jobMs?: number) {
  const { made, createWorker } = fakeWorkers(jobMs);
  const pool = new WorkerPool<number, number>({
    workers,
    maxQueue: 4,
    name: "test",
    firstGuessMs: 5,
    createWorker,
    busy: () => new Error("busy"),
    idleMs,
  });
  return { made, pool };
}

Deno.test("WorkerPool: a worker idle for idleMs is terminated, and a later job starts a new one", async () => {
  const { made, pool } = testPool(2, 60);
  try {
    assert.equal(await pool.run(21), 42);
    assert.equal(pool.stats.workers, 1);
    // Kept while jobs keep coming within idleMs.
    for (let i = 0; i < 4; i++) {
      await sleep(20);
      assert.equal(await pool.run(i), i * 2);
    }
    assert.deepEqual([pool.stats.workers, made.count, made.terminated], [1, 1, 0]);
    await sleep(150);
    assert.deepEqual([pool.stats.workers, made.terminated], [0, 1], "the idle worker is gone");
    assert.equal(await pool.run(5), 10);
    assert.deepEqual([pool.stats.workers, made.count], [1, 2], "a new worker for the next job");
  } finally {
    await pool.close();
  }
});

Deno.test("WorkerPool: a running worker is never retired, and workers are kept a minute by default", async () => {
  assert.equal(WORKER_IDLE_MS, 60_000);
  const { made, pool } = testPool(1, 30, 120);
  try {
    // Two jobs back to back, each longer than idleMs: one worker does both.
    assert.deepEqual(await Promise.all([pool.run(1), pool.run(2)]), [2, 4]);
    assert.deepEqual([made.count, made.terminated], [1, 0]);
  } finally {
    await pool.close();
  }
  assert.equal(made.terminated, 1, "close terminates it");
});
