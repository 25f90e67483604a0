/**
 * PostgreSQL going away under the app, in-process, through a TCP proxy in front of the test
 * database that this test can cut (connections reset, the port closed) or freeze (nothing
 * forwarded, as in a network partition):
 * - every store call fails with StorageUnavailableError, quickly when cut and after the operation
 *   timeout when frozen, and the app answers 503 (JSON under /api, a page elsewhere), never 500;
 * - the store works again by itself within about a second of the database's return;
 * - a connection lost inside a transaction does not crash the process (postgres.js would write
 *   its ROLLBACK to the dead socket from a setImmediate callback; see `transaction`).
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { openPostgresStore, transactionRunner } from "@/lib/storage/postgres/mod.ts";
import { StorageUnavailableError } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { IN_CI, PG_URL, postgresProblem } from "@/tests/helpers/stores.ts";

const problem = await postgresProblem();
if (problem && !IN_CI) {
  console.log(`storage availability tests skipped: ${PG_URL} is unreachable (${problem})`);
}

/** A TCP forwarder to PostgreSQL that can be cut, frozen and restored. */
function tcpProxy(target: { hostname: string; port: number }) {
  let listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const conns = new Set<Deno.Conn>();
  let frozen: { promise: Promise<void>; resolve: () => void } | null = null;
  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await from.read(buffer);
        if (n === null) break;
        while (frozen) await frozen.promise;
        let written = 0;
        while (written < n) written += await to.write(buffer.subarray(written, n));
      }
    } catch { /* closed */ }
    for (const c of [from, to]) {
      try {
        c.close();
      } catch { /* already */ }
      conns.delete(c);
    }
  };
  const accept = async (l: Deno.Listener) => {
    try {
      for await (const client of l) {
        const server = await Deno.connect(target);
        conns.add(client).add(server);
        pipe(client, server);
        pipe(server, client);
      }
    } catch { /* listener closed */ }
  };
  accept(listener);
  return {
    port,
    /** Resets every connection and closes the port (new connections are refused). */
    cut() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already */ }
      }
      conns.clear();
    },
    restore() {
      listener = Deno.listen({ hostname: "127.0.0.1", port });
      accept(listener);
    },
    freeze() {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => resolve = r);
      frozen = { promise, resolve };
    },
    thaw() {
      frozen?.resolve();
      frozen = null;
    },
    close() {
      this.thaw();
      this.cut();
    },
  };
}

const user = (url: string) =>
  fetch(`${url}/api/user`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      firstName: "Dana",
      lastName: "Levi",
      email: "dana@example.org",
      country: "Israel",
    }),
  });

Deno.test({
  name: "storage availability: PostgreSQL cut or frozen: 503 in bounded time, back by itself",
  ignore: problem !== null && !IN_CI,
  async fn(t) {
    if (problem) {
      throw new Error(`CI is set, so PostgreSQL is required, but ${PG_URL} is unreachable: ${problem}`);
    }
    const target = new URL(PG_URL);
    const proxy = tcpProxy({ hostname: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(PG_URL);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const store = await openPostgresStore(url.toString(), { schema, max: 3, operationTimeoutMs: 1000 });
    const app = await startTestApp({ store });
    try {
      assert.equal((await user(app.url)).status, 201);

      await t.step("cut: StorageUnavailableError at once, the API answers 503 JSON, pages 503", async () => {
        proxy.cut();
        const started = performance.now();
        await assert.rejects(() => store.donors.get("AAAAAAAAAAAAAAAAAAAAAAAA"), StorageUnavailableError);
        assert.ok(performance.now() - started < 1000);
        const res = await user(app.url);
        assert.equal(res.status, 503);
        assert.equal(res.headers.get("retry-after"), "5");
        const body = await res.json();
        assert.deepEqual(body, {
          statusCode: 503,
          message: "The service is temporarily unavailable. Please try again in a moment.",
        });
        const page = await fetch(`${app.url}/en/success?SandboxTransactionId=AAAAAAAAAAAAAAAAAAAAAAAA`);
        assert.equal(page.status, 503);
        assert.match(await page.text(), /<html lang="en"/);
        assert.ok(!app.logs.some((l) => l.msg === "unhandled error"), "logged as unavailable, not as a bug");
        assert.ok(app.logs.some((l) => l.msg === "storage unavailable"));
      });

      await t.step("restored: the store works again within about a second", async () => {
        proxy.restore();
        const started = performance.now();
        let status = 0;
        while (performance.now() - started < 5000) {
          const res = await user(app.url);
          await res.body?.cancel();
          if ((status = res.status) === 201) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(status, 201);
        assert.ok(performance.now() - started < 2500, `back after ${performance.now() - started} ms`);
      });

      await t.step(
        "frozen: the operation timeout answers instead of a hang; thawed, it goes on",
        async () => {
          proxy.freeze();
          try {
            const started = performance.now();
            await assert.rejects(
              () => store.donors.get("AAAAAAAAAAAAAAAAAAAAAAAA"),
              /did not answer donors.get/,
            );
            const ms = performance.now() - started;
            assert.ok(ms >= 900 && ms < 3000, `gave up after ${ms} ms`);
            const res = await user(app.url);
            assert.equal(res.status, 503);
            await res.body?.cancel();
          } finally {
            proxy.thaw();
          }
          assert.equal((await user(app.url)).status, 201);
        },
      );
    } finally {
      await app.close();
      await store.close();
      proxy.close();
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop schema if exists ${schema} cascade`);
      await sql.end({ timeout: 1 });
    }
  },
});

Deno.test({
  name: "storage availability: a connection lost inside a transaction rejects it; the process lives on",
  ignore: problem !== null && !IN_CI,
  async fn() {
    if (problem) {
      throw new Error(`CI is set, so PostgreSQL is required, but ${PG_URL} is unreachable: ${problem}`);
    }
    const sql = postgres(PG_URL, { max: 2, onnotice: () => {} });
    const killer = postgres(PG_URL, { max: 1, onnotice: () => {} });
    const transaction = transactionRunner(sql, 2);
    try {
      for (let i = 0; i < 3; i++) {
        await assert.rejects(() =>
          transaction(async (tx) => {
            const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
            setTimeout(() => killer`select pg_terminate_backend(${pid})`.catch(() => {}), 50);
            await tx`select pg_sleep(2)`;
            await tx`select 1`;
          })
        );
      }
      // Plain sql.begin would have ended this process by now, from a setImmediate callback.
      await new Promise((r) => setTimeout(r, 300));
      const [{ x }] = await sql<{ x: number }[]>`select 3 as x`;
      assert.equal(x, 3);
      assert.equal(await transaction(async (tx) => (await tx<{ y: number }[]>`select 4 as y`)[0].y), 4);
    } finally {
      await sql.end({ timeout: 1 });
      await killer.end({ timeout: 1 });
    }
  },
});

Deno.test({
  name: "storage availability: concurrent transactions each get a connection of their own",
  ignore: problem !== null && !IN_CI,
  async fn() {
    if (problem) {
      throw new Error(`CI is set, so PostgreSQL is required, but ${PG_URL} is unreachable: ${problem}`);
    }
    // Ten times more transactions than connections: plain sql.begin would pipeline BEGINs onto busy
    // connections (porsager/postgres#823); the runner queues them for a connection of their own.
    const sql = postgres(PG_URL, { max: 3, onnotice: () => {} });
    const transaction = transactionRunner(sql, 3);
    try {
      const pids = await Promise.all(Array.from({ length: 30 }, () =>
        transaction(async (tx) => {
          const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
          await tx`select pg_sleep(0.02)`;
          const [again] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
          assert.equal(again.pid, pid, "one connection for the whole transaction");
          return pid;
        })));
      assert.equal(pids.length, 30);
      assert.ok(new Set(pids).size <= 3);
    } finally {
      await sql.end({ timeout: 1 });
    }
  },
});
