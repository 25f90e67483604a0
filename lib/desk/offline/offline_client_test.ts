/**
 * The desk's calls with their offline fallbacks: a scanned card answered from its signature when the
 * server cannot be reached, a check-in kept (with its time) and sent later, a refusal kept as one.
 */
import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import { memberCardKey, signMemberCardToken } from "@/lib/memberships/card_token.ts";
import type { DeskClient, VisitDraft } from "@/lib/desk/client.ts";
import { DeskOfflineError, refusalOf, withOffline } from "./offline_client.ts";
import { CheckInQueue } from "./queue.ts";

/** The API client's error, by its shape (`islands/shared/admin_api.ts`). */
const apiError = (kind: string, status: number | null = null, message = "failed") =>
  Object.assign(new Error(message), { kind, status });

const LEVELS = [{ id: 2, name: "Family", guests: 3 }];

function world() {
  let online = false;
  const checkIns: VisitDraft[] = [];
  const client = {
    memberByCard: () => Promise.reject(online ? apiError("http", 500) : apiError("network")),
    memberByNumber: () => Promise.reject(apiError("network")),
    search: () => Promise.reject(apiError("network")),
    checkIn: (visit: VisitDraft) => {
      if (!online) return Promise.reject(apiError("network"));
      if (visit.number === "LAPSED") {
        return Promise.reject(apiError("http", 409, "This membership has lapsed"));
      }
      checkIns.push(visit);
      return Promise.resolve({ visit: { id: visit.id }, repeated: false });
    },
  } as unknown as DeskClient;
  const queue = new CheckInQueue<VisitDraft>(`desk-client-${crypto.randomUUID()}`);
  return { client, queue, checkIns, setOnline: (on: boolean) => online = on, online: () => online };
}

Deno.test("which API errors refuse a check-in for good and which keep it waiting", () => {
  assert.equal(refusalOf(apiError("http", 409, "This membership has lapsed")), "This membership has lapsed");
  assert.equal(
    refusalOf(apiError("http", 400, "A check-in needs a member number")),
    "A check-in needs a member number",
  );
  for (const error of [apiError("network"), apiError("format"), new TypeError("x"), null]) {
    assert.equal(refusalOf(error), null);
  }
  for (const status of [500, 503, 401, 403, 408, 429]) {
    assert.equal(refusalOf(apiError("http", status)), null);
  }
});

Deno.test("offline, a card is answered from its signature with the level's name and guests", async () => {
  const w = world();
  const key = await memberCardKey("test-secret-for-the-desk-offline-client-0123");
  const now = new Date("2026-11-29T10:00:00.000Z");
  const token = await signMemberCardToken(
    key,
    {
      number: "7K3M-Q9TD",
      levelId: 2,
      validUntil: "2027-11-29T10:00:00.000Z",
      holder: 1,
      name: "Noa Levi",
    },
    30,
    now,
  );
  const noKey = withOffline(w.client, { queue: w.queue, key: () => null, levels: LEVELS, online: w.online });
  await assert.rejects(
    () => noKey.memberByCard(token),
    (e) => e instanceof DeskOfflineError && e.reason === "neverSynced",
  );
  const desk = withOffline(w.client, {
    queue: w.queue,
    key: () => key.publicJwk,
    levels: LEVELS,
    online: w.online,
    now: () => now,
  });
  const member = await desk.memberByCard(token);
  assert.deepEqual(member, {
    state: "active",
    number: "7K3M-Q9TD",
    name: "Noa Levi",
    levelId: 2,
    levelName: "Family",
    validUntil: "2027-11-29",
    graceUntil: "2027-12-29T10:00:00.000Z",
    cardholders: ["", "Noa Levi"],
    holder: 1,
    guests: 3,
    offline: true,
  });
  // The server down (a 5xx) is as good as offline for a scan.
  w.setOnline(true);
  assert.equal((await desk.memberByCard(token)).offline, true);
  await assert.rejects(
    () => desk.memberByCard("not.a.card"),
    (e) => e instanceof DeskOfflineError && e.reason === "invalidCard",
  );
  w.setOnline(false);
  await assert.rejects(
    () => desk.memberByNumber("7K3M-Q9TD"),
    (e) => e instanceof DeskOfflineError && e.reason === "needsNetwork",
  );
  await assert.rejects(
    () => desk.search("Levi"),
    (e) => e instanceof DeskOfflineError && e.reason === "needsNetwork",
  );
});

Deno.test("a check-in offline is kept with its time and sent once, after those before it", async () => {
  const w = world();
  const made = new Date("2026-11-29T10:00:00.000Z");
  const desk = withOffline(w.client, {
    queue: w.queue,
    key: () => null,
    levels: LEVELS,
    online: w.online,
    now: () => made,
  });
  const visit = (number: string): VisitDraft => ({
    id: crypto.randomUUID(),
    kind: "check-in",
    number,
    holder: 0,
    guests: 1,
  });
  const first = visit("A");
  assert.deepEqual(await desk.checkIn(first), { queued: true });
  w.setOnline(true);
  // Online again, but one waits: the next goes behind it, not before.
  const second = visit("B");
  assert.deepEqual(await desk.checkIn(second), { queued: true });
  await w.queue.flush(desk.send);
  assert.deepEqual(w.checkIns.map((v) => [v.id, v.at]), [[first.id, made.toISOString()], [
    second.id,
    made.toISOString(),
  ]]);
  assert.deepEqual(await w.queue.list(), []);
  // Nothing waits: sent at once, the server's answer returned; a refusal is the caller's to show.
  const third = visit("C");
  assert.equal((await desk.checkIn(third)).queued, false);
  await assert.rejects(() => desk.checkIn(visit("LAPSED")), /lapsed/);
  assert.deepEqual(await w.queue.list(), []);
  assert.equal(w.checkIns.length, 3);
});
