/**
 * The storage contract for donors' sign-in links and sessions (`store.donorSessions`): links stored
 * canonical, a link redeemed once (also under a race across two instances) and only before it
 * expires, the session made with it carrying the link's email (a full session), a manage link's
 * session bound to its donor record, revocation, at most ten sessions kept per address (issue 23),
 * and the retention sweep.
 *
 * @module
 */

import type { DonorSession, DonorSignIn } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { at, donorFixture, HOUR, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

/** A random hex SHA-256-shaped hash. */
const hash = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

const signIn = (o: Partial<DonorSignIn> = {}): DonorSignIn => ({
  hash: hash(),
  email: `${uid("donor")}@example.org`,
  createdAt: at(0),
  expiresAt: at(HOUR / 2),
  usedAt: null,
  ...o,
});

const session = (o: Partial<DonorSession> = {}) => ({
  hash: hash(),
  createdAt: at(60_000),
  expiresAt: at(24 * HOUR),
  ...o,
});

/** A full session (made by a sign-in link) as `createSession` takes it. */
const full = (o: Partial<DonorSession> = {}): DonorSession => ({
  ...session(),
  email: `${uid("donor")}@example.org`,
  revokedAt: null,
  scope: "full",
  donorId: null,
  ...o,
});

/** How many sessions an address keeps (`MAX_SESSIONS_PER_EMAIL`). */
const KEPT = 10;

/** The contract of `store.donorSessions`; the sweep deletes by time, so it uses fresh data. */
export async function donorSessionsContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "donorSessions: createSignIn() then getSignIn(); bad input and a reused hash refused",
    () =>
      withStore(open, async (store) => {
        const link = signIn({ createdAt: "2025-03-01T10:00:00Z" });
        await store.donorSessions.createSignIn(link);
        assert.deepEqual(await store.donorSessions.getSignIn(link.hash), { ...link, createdAt: at(0) });
        assert.equal(await store.donorSessions.getSignIn(hash()), null);
        await assert.rejects(() => store.donorSessions.createSignIn(signIn({ hash: link.hash })));
        await assert.rejects(() => store.donorSessions.createSignIn(signIn({ hash: "short" })), RangeError);
        await assert.rejects(
          () => store.donorSessions.createSignIn(signIn({ email: "A@B.org" })),
          RangeError,
        );
        await assert.rejects(
          () => store.donorSessions.createSignIn(signIn({ expiresAt: at(0) })),
          RangeError,
        );
      }),
  );

  await t.step(
    "donorSessions: createSignIn() writes the link and its email together; a refused link writes neither",
    () =>
      withStore(open, async (store) => {
        const link = signIn();
        const message = (key: string) => ({
          key,
          kind: "sign-in-link" as const,
          to: { donorId: uid("donor") },
          language: "en",
          data: { signInId: uid("sign-in") },
        });
        const first = uid("sign-in:");
        await store.donorSessions.createSignIn(link, { messages: [message(first)] });
        assert.equal((await store.donorSessions.getSignIn(link.hash))?.email, link.email);
        assert.equal((await store.outbox.get(first))?.kind, "sign-in-link");
        const second = uid("sign-in:");
        await assert.rejects(() =>
          store.donorSessions.createSignIn(signIn({ hash: link.hash }), { messages: [message(second)] })
        );
        assert.equal(await store.outbox.get(second), null);
      }),
  );

  await t.step(
    "donorSessions: redeemSignIn() once, before expiry; the session has the link's email",
    () =>
      withStore(open, async (store) => {
        const link = signIn();
        await store.donorSessions.createSignIn(link);
        const s = session();
        const first = await store.donorSessions.redeemSignIn(link.hash, at(60_000), s);
        const expected: DonorSession = {
          ...s,
          email: link.email,
          revokedAt: null,
          scope: "full",
          donorId: null,
        };
        assert.deepEqual(first, { ok: true, session: expected });
        assert.deepEqual(await store.donorSessions.getSession(s.hash), expected);
        assert.equal((await store.donorSessions.getSignIn(link.hash))?.usedAt, at(60_000));
        const again = session();
        assert.deepEqual(await store.donorSessions.redeemSignIn(link.hash, at(61_000), again), {
          ok: false,
          reason: "used",
        });
        assert.equal(await store.donorSessions.getSession(again.hash), null);
        assert.deepEqual(await store.donorSessions.redeemSignIn(hash(), at(1), session()), {
          ok: false,
          reason: "unknown",
        });

        const late = signIn();
        await store.donorSessions.createSignIn(late);
        // Expiring exactly at `now` is expired.
        const refused = session();
        assert.deepEqual(await store.donorSessions.redeemSignIn(late.hash, late.expiresAt, refused), {
          ok: false,
          reason: "expired",
        });
        assert.equal(await store.donorSessions.getSession(refused.hash), null);
        assert.equal((await store.donorSessions.getSignIn(late.hash))?.usedAt, null);
      }),
  );

  await t.step(
    "donorSessions: 10 concurrent redemptions on two instances, exactly one session",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const link = signIn();
        await a.donorSessions.createSignIn(link);
        const sessions = Array.from({ length: 10 }, () => session());
        const results = await Promise.all(
          sessions.map((s, i) => (i % 2 ? a : b).donorSessions.redeemSignIn(link.hash, at(1000), s)),
        );
        assert.equal(results.filter((r) => r.ok).length, 1, JSON.stringify(results));
        assert.ok(results.every((r) => r.ok || r.reason === "used"));
        const stored = await Promise.all(sessions.map((s) => b.donorSessions.getSession(s.hash)));
        assert.equal(stored.filter((s) => s !== null).length, 1);
      }),
  );

  await t.step(
    "donorSessions: createSession(), revokeSession() keeps the first time; unknown ignored",
    () =>
      withStore(open, async (store) => {
        const s: DonorSession = {
          ...session(),
          email: "donor@example.org",
          revokedAt: null,
          scope: "manage",
          donorId: uid("donor"),
        };
        await store.donorSessions.createSession(s);
        assert.deepEqual(await store.donorSessions.getSession(s.hash), s);
        await assert.rejects(() => store.donorSessions.createSession(s));
        await store.donorSessions.revokeSession(s.hash, at(2 * HOUR));
        await store.donorSessions.revokeSession(s.hash, at(3 * HOUR));
        assert.deepEqual(await store.donorSessions.getSession(s.hash), { ...s, revokedAt: at(2 * HOUR) });
        await store.donorSessions.revokeSession(hash(), at(1));
        assert.equal(await store.donorSessions.getSession(hash()), null);
      }),
  );

  await t.step(
    "donorSessions: a session's scope: full (every record of the address) or manage (one donor record)",
    () =>
      withStore(open, async (store) => {
        const donorId = uid("donor");
        const manage = full({ scope: "manage", donorId });
        await store.donorSessions.createSession(manage);
        assert.deepEqual(await store.donorSessions.getSession(manage.hash), manage);
        const everything = full();
        await store.donorSessions.createSession(everything);
        assert.deepEqual(await store.donorSessions.getSession(everything.hash), everything);
        const bad = [
          full({ scope: "manage", donorId: null }),
          full({ scope: "full", donorId }),
          full({ scope: "admin" as DonorSession["scope"] }),
          full({ scope: "manage", donorId: "x".repeat(200) }),
        ];
        for (const s of bad) {
          await assert.rejects(() => store.donorSessions.createSession(s), RangeError, JSON.stringify(s));
          assert.equal(await store.donorSessions.getSession(s.hash), null);
        }
      }),
  );

  await t.step(
    `donorSessions: an address keeps at most ${KEPT} sessions: ended ones go first, then the oldest`,
    () =>
      withStore(open, async (store) => {
        const email = `${uid("many")}@example.org`;
        const other = full();
        await store.donorSessions.createSession(other);
        const made: DonorSession[] = [];
        for (let i = 0; i < KEPT; i++) {
          const s = full({ email, createdAt: at(i * 1000), expiresAt: at(i * 1000 + 24 * HOUR) });
          await store.donorSessions.createSession(s);
          made.push(s);
        }
        // One signed out: it goes before any live one.
        await store.donorSessions.revokeSession(made[5].hash, at(20_000));
        const newer = full({ email, createdAt: at(30_000), expiresAt: at(30_000 + 24 * HOUR) });
        await store.donorSessions.createSession(newer);
        assert.equal(await store.donorSessions.getSession(made[5].hash), null, "the revoked one");
        assert.ok(await store.donorSessions.getSession(made[0].hash), "the oldest live one stays");
        // A sign-in link's session counts too: now the oldest live one goes.
        const link = signIn({ email, createdAt: at(31_000), expiresAt: at(31_000 + HOUR / 2) });
        await store.donorSessions.createSignIn(link);
        const redeemed = await store.donorSessions.redeemSignIn(
          link.hash,
          at(32_000),
          session({
            createdAt: at(32_000),
            expiresAt: at(32_000 + 24 * HOUR),
          }),
        );
        assert.ok(redeemed.ok);
        assert.equal(await store.donorSessions.getSession(made[0].hash), null, "the oldest");
        for (const s of [...made.slice(1, 5), ...made.slice(6), newer]) {
          assert.ok(await store.donorSessions.getSession(s.hash), "a newer one stays");
        }
        assert.ok(await store.donorSessions.getSession(other.hash), "another address's session");
        assert.equal(await store.donorSessions.deleteForEmail(email), KEPT + 1, "the sessions and the link");
      }),
  );

  await t.step(
    `donorSessions: 30 sessions of one address made at once on two instances: ${KEPT} stay, the newest`,
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const email = `${uid("race")}@example.org`;
        const made = Array.from({ length: 30 }, (_, i) =>
          full({ email, createdAt: at(i * 1000), expiresAt: at(i * 1000 + 24 * HOUR) }));
        // In order of creation, in small waves, so that each wave races.
        for (let i = 0; i < made.length; i += 5) {
          await Promise.all(
            made.slice(i, i + 5).map((s, j) =>
              (j % 2 ? a : b).donorSessions.createSession(s)
            ),
          );
        }
        const kept = await Promise.all(made.map((s) => a.donorSessions.getSession(s.hash)));
        assert.equal(kept.filter((s) => s !== null).length, KEPT);
        assert.ok(kept.slice(-5).every((s) => s !== null), "the last wave stays");
      }),
  );

  await t.step(
    "donorSessions: deleteExpired() deletes links and sessions expired before, a batch at a time",
    () =>
      withStore(fresh(), async (store) => {
        const oldLinks = [signIn({ expiresAt: at(1000) }), signIn({ expiresAt: at(2000) })];
        const liveLink = signIn({ expiresAt: at(5000) });
        for (const l of [...oldLinks, liveLink]) await store.donorSessions.createSignIn(l);
        const oldSession = full({ createdAt: at(0), expiresAt: at(3000), email: "a@b.org" });
        const liveSession = full({ createdAt: at(0), expiresAt: at(5000), email: "a@b.org" });
        await store.donorSessions.createSession(oldSession);
        await store.donorSessions.createSession(liveSession);
        assert.deepEqual(await store.donorSessions.deleteExpired(at(5000), 2), 2);
        assert.equal(await store.donorSessions.getSignIn(oldLinks[0].hash), null);
        assert.deepEqual(await store.donorSessions.deleteExpired(at(5000), 2), 1);
        assert.equal(await store.donorSessions.getSession(oldSession.hash), null);
        assert.deepEqual(await store.donorSessions.deleteExpired(at(5000), 2), 0);
        assert.deepEqual(await store.donorSessions.getSignIn(liveLink.hash), liveLink);
        assert.deepEqual(await store.donorSessions.getSession(liveSession.hash), liveSession);
        await assert.rejects(() => store.donorSessions.deleteExpired(at(0), 0), RangeError);
      }),
  );
}

/** The contract of `store.donors.idsByEmail`, the portal's way from an address to its donor records. */
export async function donorsByEmailContract(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step(
    "donors: idsByEmail() answers every record of an address, in id order, bounded",
    () =>
      withStore(open, async (store) => {
        const email = `${uid("same")}@example.org`;
        const ids = ["b", "a", "c"].map((p) => `${p}_${uid("donor")}`);
        for (const id of ids) await store.donors.create(donorFixture({ id, email }));
        await store.donors.create(donorFixture({ email: `${uid("other")}@example.org` }));
        const sorted = [...ids].sort();
        assert.deepEqual(await store.donors.idsByEmail(email, 10), sorted);
        assert.deepEqual(await store.donors.idsByEmail(` ${email.toUpperCase()} `, 10), sorted);
        assert.deepEqual(await store.donors.idsByEmail(email, 2), sorted.slice(0, 2));
        assert.deepEqual(await store.donors.idsByEmail(`${uid("nobody")}@example.org`, 10), []);
        await assert.rejects(() => store.donors.idsByEmail(email, 0), RangeError);
      }),
  );
}

/** The contract of `store.transactions.listByDonors`, the portal's history of one address. */
export async function transactionsByDonorsContract(
  t: Deno.TestContext,
  { open }: ContractOptions,
): Promise<void> {
  await t.step(
    "transactions: listByDonors() answers those donors' gifts, recorded or imported, newest first",
    () =>
      withStore(open, async (store) => {
        const [a, b, other] = [uid("donor"), uid("donor"), uid("donor")];
        const recorded = [
          txFixture({ donorId: a, createdAt: at(1000) }),
          txFixture({ donorId: b, createdAt: at(3000), kind: "error" }),
          txFixture({ donorId: a, createdAt: at(3000), isMonthly: true }),
          txFixture({ donorId: other, createdAt: at(2000) }),
        ];
        for (const tx of recorded) await store.transactions.record(tx);
        const imported = txFixture({ donorId: b, createdAt: at(500) });
        assert.equal(await store.transactions.import([imported]), 1);
        const mine = [...recorded.filter((tx) => tx.donorId !== other), imported];
        const expected = mine.sort((x, y) =>
          x.createdAt !== y.createdAt ? (x.createdAt < y.createdAt ? 1 : -1) : (x.id < y.id ? 1 : -1)
        );
        const got = await store.transactions.listByDonors([a, b, a], 10);
        assert.deepEqual(got.map((tx) => tx.id), expected.map((tx) => tx.id));
        assert.deepEqual(got[0], await store.transactions.get(expected[0].id));
        assert.deepEqual(
          (await store.transactions.listByDonors([a, b], 2)).map((tx) => tx.id),
          expected.slice(0, 2).map((tx) => tx.id),
        );
        assert.deepEqual(await store.transactions.listByDonors([uid("nobody")], 10), []);
        assert.deepEqual(await store.transactions.listByDonors([], 10), []);
        await assert.rejects(() => store.transactions.listByDonors([a], 0), RangeError);
        const many = Array.from({ length: 101 }, (_, i) => `d${i}`);
        await assert.rejects(() => store.transactions.listByDonors(many, 10), RangeError);
      }),
  );
}
