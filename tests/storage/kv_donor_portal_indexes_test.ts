/**
 * Deno KV's `donor-portal-indexes` data migration: donors and transactions stored before the
 * portal's indexes existed are found by `donors.idsByEmail` and `transactions.listByDonors` once
 * the store is opened; and `outbox-donor-index`: messages stored before it are listed by
 * `outbox.listByDonors`.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { OutboxMessage } from "@/lib/storage/types.ts";
import { openKvStore } from "./backends.ts";
import { donorFixture, paymentFixture, txFixture } from "./fixtures.ts";

Deno.test("kv: donors and transactions written before the portal's indexes are indexed when the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const old = [
      donorFixture({ id: "old_a", email: "old@example.org" }),
      donorFixture({ id: "old_b", email: "old@example.org" }),
    ];
    const kv = await Deno.openKv(path);
    for (const d of old) await kv.set(["donors", d.id], d); // as an older version wrote them: no index
    const gift = txFixture({ donorId: "old_a" });
    await kv.set(["transactions", gift.id], gift);
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.deepEqual(await store.donors.idsByEmail("old@example.org", 10), ["old_a", "old_b"]);
      assert.deepEqual((await store.transactions.listByDonors(["old_a", "old_b"], 10)).map((t) => t.id), [
        gift.id,
      ]);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: messages to donors written before the outbox's donor index are listed once the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const kv = await Deno.openKv(path);
    const stored = (key: string, to: OutboxMessage["to"], createdAt: string): OutboxMessage => ({
      key,
      kind: "manage-link",
      to,
      language: "en",
      data: {},
      createdAt,
      state: "sent",
      attempts: 1,
      dueAt: null,
      claimedBy: "old",
      lastError: null,
      settledAt: createdAt,
    });
    // As an older version wrote them: the record and its recent-list key, no donor index.
    const old = [
      stored("manage-link:old_a:1", { donorId: "old_a" }, "2025-01-01T00:00:00.000Z"),
      stored("manage-link:old_a:2", { donorId: "old_a" }, "2025-02-01T00:00:00.000Z"),
      stored("admin-pending:x", { admins: true }, "2025-03-01T00:00:00.000Z"),
    ];
    for (const m of old) {
      await kv.set(["outbox", m.key], m);
      await kv.set(["outbox_recent", m.createdAt, m.key], m.key);
    }
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.deepEqual(
        (await store.outbox.listByDonors(["old_a"], 10)).map((m) => m.key),
        ["manage-link:old_a:2", "manage-link:old_a:1"],
      );
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: payments written before the payments' donor index keep their donor from being recycled once the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const donor = donorFixture({ id: "old_payer", email: "old@example.org" });
    const kv = await Deno.openKv(path);
    await kv.set(["donors", donor.id], donor);
    await kv.set(["donors_by_email", donor.email, donor.id], donor.id);
    // As an older version wrote it: the payment, no index by donor.
    const payment = paymentFixture({ donorId: donor.id, status: "failed" });
    await kv.set(["payments", payment.id], payment);
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.equal(await store.donors.deleteUnused(donor.id, "2099-01-01T00:00:00.000Z"), false);
      assert.ok(await store.donors.get(donor.id), "kept: a payment names it");
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: sign-in links and sessions stored before scopes: links indexed by email, sessions deleted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const kv = await Deno.openKv(path);
    const hash = (c: string) => c.repeat(64);
    const email = "old@example.org";
    const link = {
      hash: hash("a"),
      email,
      createdAt: "2099-01-01T00:00:00.000Z",
      expiresAt: "2099-01-01T00:30:00.000Z",
      usedAt: null,
    };
    // As an older version wrote them: the records and their expiry keys, no scope, no email index.
    const sessions = ["b", "c"].map((c) => ({
      hash: hash(c),
      email,
      createdAt: "2099-01-01T00:00:00.000Z",
      expiresAt: "2099-01-02T00:00:00.000Z",
      revokedAt: null,
    }));
    await kv.set(["donor_sign_ins", link.hash], link);
    await kv.set(["donor_sign_ins_by_expiry", link.expiresAt, link.hash], link.hash);
    for (const s of sessions) {
      await kv.set(["donor_sessions", s.hash], s);
      await kv.set(["donor_sessions_by_expiry", s.expiresAt, s.hash], s.hash);
    }
    kv.close();
    const store = await openKvStore(path);
    try {
      for (const s of sessions) assert.equal(await store.donorSessions.getSession(s.hash), null);
      assert.deepEqual(await store.donorSessions.getSignIn(link.hash), link);
      // Found by the email index: the erasure deletes the link.
      assert.equal(await store.donorSessions.deleteForEmail(email), 1);
      assert.equal(await store.donorSessions.getSignIn(link.hash), null);
    } finally {
      await store.close();
    }
    const after = await Deno.openKv(path);
    try {
      const left: unknown[] = [];
      for (const prefix of ["donor_sessions", "donor_sessions_by_expiry", "donor_sign_ins_by_email"]) {
        for await (const e of after.list({ prefix: [prefix] })) left.push(e.key);
      }
      assert.deepEqual(left, [], "no key of the old sessions or of the erased link is left");
    } finally {
      after.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: retention deletes an expired link's and session's email index keys with them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/store.kv`;
    const store = await openKvStore(path);
    const email = "gone@example.org";
    try {
      const base = { email, createdAt: "2025-01-01T00:00:00.000Z", expiresAt: "2025-01-01T00:30:00.000Z" };
      await store.donorSessions.createSignIn({ ...base, hash: "d".repeat(64), usedAt: null });
      await store.donorSessions.createSession({
        ...base,
        hash: "e".repeat(64),
        revokedAt: null,
        scope: "manage",
        donorId: "donor_1",
      });
      assert.equal(await store.donorSessions.deleteExpired("2025-02-01T00:00:00.000Z", 10), 2);
    } finally {
      await store.close();
    }
    const kv = await Deno.openKv(path);
    try {
      const left: unknown[] = [];
      for (const prefix of ["donor_sessions_by_email", "donor_sign_ins_by_email"]) {
        for await (const e of kv.list({ prefix: [prefix] })) left.push(e.key);
      }
      assert.deepEqual(left, []);
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
