import assert from "node:assert/strict";
import type { DonorSession } from "@/lib/storage/types.ts";
import { sessionsBeyondLimit } from "@/lib/storage/donor_session_records.ts";
import { sessionLimit, STEP_UP_WINDOW_MS, steppedUp } from "./access.ts";
import { standing } from "./sign_in.ts";

const NOW = new Date("2026-05-10T12:00:00.000Z");
const session = (o: Partial<DonorSession> = {}): DonorSession => ({
  hash: "a".repeat(64),
  email: "ada@example.org",
  createdAt: NOW.toISOString(),
  expiresAt: new Date(NOW.getTime() + 86_400_000).toISOString(),
  revokedAt: null,
  scope: "full",
  donorId: null,
  ...o,
});
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

Deno.test("steppedUp: a full sign-in for an hour; a manage link's session never", () => {
  assert.equal(steppedUp(session(), NOW), true);
  assert.equal(steppedUp(session({ createdAt: ago(STEP_UP_WINDOW_MS - 1000) }), NOW), true);
  assert.equal(steppedUp(session({ createdAt: ago(STEP_UP_WINDOW_MS) }), NOW), false);
  assert.equal(steppedUp(session({ scope: "manage", donorId: "d1" }), NOW), false);
  assert.equal(sessionLimit(session(), NOW), null);
  assert.equal(sessionLimit(session({ createdAt: ago(2 * STEP_UP_WINDOW_MS) }), NOW), "stale");
  assert.equal(sessionLimit(session({ scope: "manage", donorId: "d1" }), NOW), "manage");
});

Deno.test("standing: covered, the same address, another, or none", () => {
  const manage = session({ scope: "manage", donorId: "d1" });
  assert.equal(standing(null, "ada@example.org", "d1"), "none");
  assert.equal(standing(session(), "eve@example.org", "d1"), "other");
  assert.equal(
    standing(session(), "ada@example.org", "d1"),
    "covered",
    "a full session reaches every record",
  );
  assert.equal(standing(manage, "ada@example.org", "d1"), "covered");
  assert.equal(standing(manage, "ada@example.org", "d2"), "same", "another record of the address");
  assert.equal(standing(session(), "ada@example.org", null), "same", "a one-time link signs in anew");
  assert.equal(standing(manage, "eve@example.org", null), "other");
});

Deno.test("sessionsBeyondLimit: ended ones first, then the oldest", () => {
  const s = (hash: string, minutesAgo: number, o: Partial<DonorSession> = {}) =>
    session({ hash: hash.repeat(64), createdAt: ago(minutesAgo * 60_000), ...o });
  const live = [s("a", 5), s("b", 4), s("c", 3)];
  const revoked = s("d", 1, { revokedAt: ago(0) });
  const expired = s("e", 2, { expiresAt: ago(0) });
  const beyond = sessionsBeyondLimit([...live, revoked, expired], 3, NOW.toISOString());
  assert.deepEqual(beyond.map((x) => x.hash[0]).sort(), ["d", "e"]);
  const fewer = sessionsBeyondLimit([...live, revoked, expired], 2, NOW.toISOString());
  assert.deepEqual(fewer.map((x) => x.hash[0]).sort(), ["a", "d", "e"]);
  assert.deepEqual(sessionsBeyondLimit(live, 3, NOW.toISOString()), []);
});
