/**
 * Retention of the donor portal's sign-in links and sessions (`lib/retention/retention.ts`): a day past
 * their expiry they go; live ones stay.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { runRetentionSweep, TOKEN_GRACE_MS } from "@/lib/retention/retention.ts";
import { openStore } from "@/lib/storage/mod.ts";

const hash = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

Deno.test("retention: donor sign-in links and sessions go a day after they expire", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const now = Date.parse("2026-03-01T12:00:00Z");
    const iso = (ms: number) => new Date(ms).toISOString();
    const old = { hash: hash(), email: "a@example.org", createdAt: iso(now - 3 * 86_400_000), usedAt: null };
    await store.donorSessions.createSignIn({ ...old, expiresAt: iso(now - TOKEN_GRACE_MS - 1) });
    const liveLink = { ...old, hash: hash(), expiresAt: iso(now - TOKEN_GRACE_MS + 60_000) };
    await store.donorSessions.createSignIn(liveLink);
    const oldSession = {
      hash: hash(),
      email: "a@example.org",
      createdAt: iso(now - 3 * 86_400_000),
      expiresAt: iso(now - TOKEN_GRACE_MS - 1),
      revokedAt: null,
      scope: "full" as const,
      donorId: null,
    };
    await store.donorSessions.createSession(oldSession);
    const report = await runRetentionSweep({ store, log: createLogger(() => {}), now: new Date(now) });
    assert.equal(report.donorSessions, 2);
    assert.equal(await store.donorSessions.getSignIn(old.hash), null);
    assert.equal(await store.donorSessions.getSession(oldSession.hash), null);
    assert.deepEqual(await store.donorSessions.getSignIn(liveLink.hash), liveLink);
  } finally {
    await store.close();
  }
});
