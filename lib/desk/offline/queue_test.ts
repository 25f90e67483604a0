/**
 * The desk's queue of check-ins, on an in-memory IndexedDB (`fake-indexeddb`): kept in order, sent
 * exactly once each when the network returns, a 2xx or a repeat removes, a 4xx stays as failed with
 * its reason, a network failure leaves it (and those behind it) waiting.
 */
import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import { CheckInQueue, keepSending, type SendResult } from "./queue.ts";

type Request = { id: string; number: string };

let dbs = 0;
const freshQueue = () => new CheckInQueue<Request>(`desk-test-${++dbs}`);
const request = (number: string): Request => ({ id: crypto.randomUUID(), number });

/** A server that records each id once, and a network that can be cut. */
function fakeServer() {
  const recorded = new Map<string, Request>();
  const calls: string[] = [];
  let online = false;
  const refuse = new Set<string>();
  const send = async (r: Request): Promise<SendResult> => {
    await Promise.resolve();
    if (!online) throw new TypeError("Failed to fetch");
    calls.push(r.id);
    if (refuse.has(r.number)) return { sent: false, reason: "This membership has lapsed" };
    // The same id again is the server's "already recorded": a 2xx, nothing added.
    recorded.set(r.id, r);
    return { sent: true };
  };
  return { recorded, calls, refuse, send, setOnline: (on: boolean) => online = on };
}

Deno.test("check-ins made offline wait in order, then are sent once each, in order, when the network returns", async () => {
  const queue = freshQueue();
  const server = fakeServer();
  const made = [request("A"), request("B"), request("C")];
  for (const r of made) {
    await queue.add(r);
    await queue.flush(server.send); // offline: stays
  }
  assert.deepEqual((await queue.list()).map((e) => [e.request.number, e.state]), [
    ["A", "waiting"],
    ["B", "waiting"],
    ["C", "waiting"],
  ]);
  server.setOnline(true);
  // Two triggers at once (the online event and the timer): one flush, each sent once.
  await Promise.all([queue.flush(server.send), queue.flush(server.send)]);
  assert.deepEqual(server.calls, made.map((r) => r.id));
  assert.deepEqual([...server.recorded.keys()], made.map((r) => r.id));
  assert.deepEqual(await queue.list(), []);
  await queue.flush(server.send);
  assert.equal(server.calls.length, 3);
});

Deno.test("a check-in whose answer was lost is resent with its id and removed by the server's repeat", async () => {
  const queue = freshQueue();
  const server = fakeServer();
  server.setOnline(true);
  const r = request("A");
  await queue.add(r);
  // The server recorded it but the answer never came back.
  let first = true;
  const lossy = async (x: Request) => {
    const result = await server.send(x);
    if (first) {
      first = false;
      throw new TypeError("network changed");
    }
    return result;
  };
  await queue.flush(lossy);
  assert.equal((await queue.list()).length, 1);
  await queue.flush(lossy);
  assert.deepEqual(await queue.list(), []);
  assert.deepEqual(server.calls, [r.id, r.id]);
  assert.equal(server.recorded.size, 1);
});

Deno.test("a refused check-in stays visible as failed with the server's reason; the rest go on", async () => {
  const queue = freshQueue();
  const server = fakeServer();
  server.refuse.add("B");
  for (const n of ["A", "B", "C"]) await queue.add(request(n));
  server.setOnline(true);
  await queue.flush(server.send);
  const left = await queue.list();
  assert.deepEqual(left.map((e) => [e.request.number, e.state, e.reason]), [
    ["B", "failed", "This membership has lapsed"],
  ]);
  assert.deepEqual([...server.recorded.values()].map((r) => r.number), ["A", "C"]);
  // Not resent by later flushes; gone once dismissed.
  await queue.flush(server.send);
  assert.equal(server.calls.length, 3);
  await queue.remove(left[0].seq);
  assert.deepEqual(await queue.list(), []);
});

Deno.test("a network failure midway leaves that check-in and those behind it queued, in order", async () => {
  const queue = freshQueue();
  const server = fakeServer();
  for (const n of ["A", "B", "C"]) await queue.add(request(n));
  server.setOnline(true);
  let calls = 0;
  await queue.flush(async (r) => {
    if (++calls === 2) throw new TypeError("Failed to fetch");
    return await server.send(r);
  });
  assert.deepEqual((await queue.list()).map((e) => [e.request.number, e.state]), [
    ["B", "waiting"],
    ["C", "waiting"],
  ]);
});

Deno.test("keepSending sends at once, on the online event and on its timer", async () => {
  const queue = freshQueue();
  const server = fakeServer();
  await queue.add(request("A"));
  const changes: number[] = [];
  queue.subscribe(async () => changes.push((await queue.list()).length));
  const stop = keepSending(queue, server.send, 20);
  try {
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(server.recorded.size, 0); // offline: tried, kept
    server.setOnline(true);
    dispatchEvent(new Event("online"));
    for (let i = 0; i < 50 && server.recorded.size === 0; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(server.recorded.size, 1);
    await queue.add(request("B"));
    for (let i = 0; i < 50 && server.recorded.size < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(server.recorded.size, 2); // the timer sent it
    assert.deepEqual(await queue.list(), []);
  } finally {
    stop();
  }
});
