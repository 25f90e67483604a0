/**
 * The storage contract for the outbox (`store.outbox`) and the messages causes enqueue with them:
 * enqueue idempotent by key; a cause's messages written in its own atomic step, and only when the
 * cause happened (a new transaction, something cancelled, an admin stored pending); claims with a
 * lease, each message to one claimer across instances, again once the lease ran out; settling
 * only under the latest claim (but `sent` from whoever delivered it); newest-first pages.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { MessageInput, OutboxMessage, Store } from "@/lib/storage/types.ts";
import { adminFixture, at, subscriptionFixture, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

const MINUTE = 60_000;

/** A receipt message for `transactionId` to `donorId`, in Hebrew. */
const receipt = (transactionId: string, donorId = uid("donor")): MessageInput<"receipt"> => ({
  key: `receipt:${transactionId}`,
  kind: "receipt",
  to: { donorId },
  language: "he",
  data: { transactionId },
});

/** Every message still queued and due at `now`, claimed and settled as sent (empties the queue). */
async function drain(store: Store, now: string): Promise<string[]> {
  const keys: string[] = [];
  for (;;) {
    const batch = await store.outbox.claim("drain", now, MINUTE, 100);
    if (batch.length === 0) return keys;
    for (const m of batch) {
      keys.push(m.key);
      assert.equal(await store.outbox.settle(m, { state: "sent", at: now }), true);
    }
  }
}

/** The contract of `store.outbox` and of the `messages` option of the causes. */
export async function outboxContract(
  t: Deno.TestContext,
  { open, fresh, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "outbox: enqueue() stores each key once, queued at its time; get() answers it",
    () =>
      withStore(open, async (store) => {
        const m = receipt(uid("tx"));
        assert.equal(await store.outbox.enqueue([m], at(0)), 1);
        const stored = await store.outbox.get(m.key);
        assert.deepEqual(
          stored,
          {
            ...m,
            createdAt: at(0),
            state: "queued",
            attempts: 0,
            dueAt: at(0),
            claimedBy: null,
            lastError: null,
            settledAt: null,
          } satisfies OutboxMessage,
        );
        // The same key again, even with other content: nothing changes.
        const again = { ...m, language: "en" };
        assert.equal(await store.outbox.enqueue([again, receipt(uid("tx"))], at(5)), 1);
        assert.deepEqual(await store.outbox.get(m.key), stored);
        assert.equal(await store.outbox.get(uid("none")), null);
        // Bad input is refused before anything is written.
        const bad = { ...receipt(uid("tx")), kind: "nonsense" } as unknown as MessageInput;
        await assert.rejects(() => store.outbox.enqueue([bad], at(0)), RangeError);
        const noRecipient = { ...receipt(uid("tx")), to: {} } as unknown as MessageInput;
        await assert.rejects(() => store.outbox.enqueue([noRecipient], at(0)), RangeError);
        const twice = receipt(uid("tx"));
        await assert.rejects(() => store.outbox.enqueue([twice, twice], at(0)), RangeError);
        assert.equal(await store.outbox.get(twice.key), null);
      }),
  );

  await t.step(
    "outbox: transactions.record() writes its messages only when it records the transaction",
    () =>
      withStore(fresh(), async (store) => {
        const tx = txFixture({ createdAt: at(MINUTE) });
        const messages = [
          receipt(tx.id, tx.donorId),
          {
            key: `welcome:sub_${tx.id}`,
            kind: "monthly-welcome",
            to: { donorId: tx.donorId },
            language: "he",
            data: { subscriptionId: `sub_${tx.id}` },
          } satisfies MessageInput<"monthly-welcome">,
        ];
        const first = await store.transactions.record(tx, { messages });
        assert.equal(first.created, true);
        for (const m of messages) {
          const stored = await store.outbox.get(m.key);
          assert.deepEqual(stored && { ...stored, attempts: stored.attempts }, {
            ...m,
            createdAt: tx.createdAt,
            state: "queued",
            attempts: 0,
            dueAt: tx.createdAt,
            claimedBy: null,
            lastError: null,
            settledAt: null,
          });
        }
        // A repeat of the same provider payment records nothing, so it enqueues nothing.
        const repeat = { ...tx, id: uid("tx") };
        const second = await store.transactions.record(repeat, { messages: [receipt(repeat.id)] });
        assert.equal(second.created, false);
        assert.equal(await store.outbox.get(`receipt:${repeat.id}`), null);
        // Without messages: none.
        const plain = txFixture();
        await store.transactions.record(plain);
        assert.deepEqual(
          (await store.outbox.listRecent(10)).map((m) => m.key).sort(),
          messages.map((m) => m.key).sort(),
        );
        // A refused message refuses the transaction with it: nothing half-written.
        const bad = txFixture();
        await assert.rejects(
          () => store.transactions.record(bad, { messages: [{ ...receipt(bad.id), language: "english" }] }),
          RangeError,
        );
        assert.equal(await store.transactions.get(bad.id), null);
      }),
  );

  await t.step(
    "outbox: subscriptions.cancelForDonor() writes its messages only when it cancels something",
    () =>
      withStore(fresh(), async (store) => {
        const donorId = uid("donor");
        const message = (key: string): MessageInput<"monthly-cancelled"> => ({
          key,
          kind: "monthly-cancelled",
          to: { donorId },
          language: "en",
          data: { at: at(HOUR_MS) },
        });
        assert.equal(
          await store.subscriptions.cancelForDonor(donorId, at(HOUR_MS), { messages: [message("c0")] }),
          0,
        );
        assert.equal(await store.outbox.get("c0"), null);
        await store.subscriptions.create(subscriptionFixture({ donorId }));
        await store.subscriptions.create(subscriptionFixture({ donorId }));
        assert.equal(
          await store.subscriptions.cancelForDonor(donorId, at(HOUR_MS), { messages: [message("c1")] }),
          2,
        );
        assert.equal((await store.outbox.get("c1"))?.createdAt, at(HOUR_MS));
        assert.equal(
          await store.subscriptions.cancelForDonor(donorId, at(HOUR_MS), { messages: [message("c2")] }),
          0,
        );
        assert.equal(await store.outbox.get("c2"), null);
      }),
  );

  await t.step(
    "outbox: admins.create() writes its messages only for an admin stored pending",
    () =>
      withStore(fresh(), async (store) => {
        const pending = (adminId: string): MessageInput<"admin-pending"> => ({
          key: `admin-pending:${adminId}`,
          kind: "admin-pending",
          to: { admins: true },
          language: "en",
          data: { adminId },
        });
        const first = adminFixture();
        const stored = await store.admins.create(first, {
          approveIfFirst: true,
          messages: [pending(first.id)],
        });
        assert.equal(stored.status, "approved");
        assert.equal(await store.outbox.get(`admin-pending:${first.id}`), null);
        const second = adminFixture();
        await store.admins.create(second, { approveIfFirst: true, messages: [pending(second.id)] });
        assert.deepEqual((await store.outbox.get(`admin-pending:${second.id}`))?.to, { admins: true });
        // An email taken: the admin is refused and so is its message.
        const taken = adminFixture({ email: second.email });
        await assert.rejects(() => store.admins.create(taken, { messages: [pending(taken.id)] }));
        assert.equal(await store.outbox.get(`admin-pending:${taken.id}`), null);
      }),
  );

  await t.step(
    "outbox: claim() takes due messages for a lease; settle() follows the latest claim",
    () =>
      withStore(fresh(), async (store) => {
        const [a, b, later] = [receipt("a"), receipt("b"), receipt("later")];
        await store.outbox.enqueue([b], at(1));
        await store.outbox.enqueue([a], at(0));
        await store.outbox.enqueue([later], at(10 * MINUTE));
        assert.deepEqual(await store.outbox.claim("h1", at(-1), MINUTE, 10), [], "nothing due yet");
        const claimed = await store.outbox.claim("h1", at(2), MINUTE, 10);
        assert.deepEqual(claimed.map((m) => m.key), [a.key, b.key]);
        assert.deepEqual(claimed.map((m) => [m.attempts, m.claimedBy, m.dueAt]), [
          [1, "h1", at(2 + MINUTE)],
          [1, "h1", at(2 + MINUTE)],
        ]);
        assert.deepEqual(await store.outbox.get(a.key), claimed[0]);
        // Claimed: not due again until the lease ends.
        assert.deepEqual(await store.outbox.claim("h2", at(MINUTE), MINUTE, 10), []);
        // The lease ran out: h2 takes `a` (attempt 2); h1's old claim may no longer fail or skip it.
        const [retaken] = await store.outbox.claim("h2", at(2 + MINUTE), MINUTE, 1);
        assert.deepEqual([retaken.key, retaken.attempts, retaken.claimedBy], [a.key, 2, "h2"]);
        const retry = { state: "queued", retryAt: at(5 * MINUTE), reason: "421 try later" } as const;
        assert.equal(await store.outbox.settle(claimed[0], retry), false);
        assert.equal(
          await store.outbox.settle(claimed[0], { state: "failed", at: at(3), reason: "x" }),
          false,
        );
        // h2 retries it later: due at the retry's time, the reason kept.
        assert.equal(await store.outbox.settle(retaken, retry), true);
        const waiting = await store.outbox.get(a.key);
        assert.deepEqual([waiting?.state, waiting?.dueAt, waiting?.lastError], [
          "queued",
          at(5 * MINUTE),
          "421 try later",
        ]);
        // Delivered after all by h1 (its slow send went through): recorded, whoever claimed it last.
        assert.equal(await store.outbox.settle(claimed[0], { state: "sent", at: at(4) }), true);
        const sent = await store.outbox.get(a.key);
        assert.deepEqual([sent?.state, sent?.dueAt, sent?.settledAt, sent?.lastError], [
          "sent",
          null,
          at(4),
          null,
        ]);
        assert.equal(await store.outbox.settle(retaken, { state: "sent", at: at(5) }), false, "sent once");
        assert.deepEqual(
          await store.outbox.claim("h3", at(20 * MINUTE), MINUTE, 10).then((l) => l.map((m) => m.key)),
          [
            b.key,
            later.key,
          ],
        );
        // Failed for good and skipped: settled, never claimed again.
        const [bb, ll] = [await store.outbox.get(b.key), await store.outbox.get(later.key)];
        assert.equal(
          await store.outbox.settle(bb!, { state: "failed", at: at(6), reason: "550 no such user" }),
          true,
        );
        assert.equal(
          await store.outbox.settle(ll!, { state: "skipped", at: at(6), reason: "donor erased" }),
          true,
        );
        const failed = await store.outbox.get(b.key);
        assert.deepEqual([failed?.state, failed?.dueAt, failed?.lastError, failed?.settledAt], [
          "failed",
          null,
          "550 no such user",
          at(6),
        ]);
        assert.equal((await store.outbox.get(later.key))?.state, "skipped");
        assert.deepEqual(await store.outbox.claim("h3", at(365 * 24 * 60 * MINUTE), MINUTE, 10), []);
      }),
  );

  await t.step(
    "outbox: a message's notBefore makes it due no earlier, enqueued or with its cause; not kept",
    () =>
      withStore(fresh(), async (store) => {
        const later = { ...receipt(uid("tx")), notBefore: at(60 * MINUTE) };
        const earlier = { ...receipt(uid("tx")), notBefore: at(-MINUTE) };
        assert.equal(await store.outbox.enqueue([later, earlier], at(0)), 2);
        const stored = (await store.outbox.get(later.key))!;
        assert.equal(stored.dueAt, at(60 * MINUTE));
        assert.equal(stored.createdAt, at(0));
        assert.equal("notBefore" in stored, false, "dueAt says it");
        assert.equal((await store.outbox.get(earlier.key))?.dueAt, at(0), "a past notBefore: due at once");
        const tx = txFixture({ createdAt: at(0) });
        await store.transactions.record(tx, {
          messages: [{ ...receipt(tx.id), notBefore: at(30 * MINUTE) }],
        });
        assert.equal((await store.outbox.get(`receipt:${tx.id}`))?.dueAt, at(30 * MINUTE));
        assert.deepEqual(await drain(store, at(29 * MINUTE)), [earlier.key]);
        assert.deepEqual(
          (await drain(store, at(60 * MINUTE))).sort(),
          [later.key, `receipt:${tx.id}`].sort(),
        );
        const bad = { ...receipt(uid("tx")), notBefore: "soon" };
        await assert.rejects(() => store.outbox.enqueue([bad], at(0)), RangeError);
      }),
  );

  await t.step("outbox: 20 concurrent claims on two instances: each of 30 messages claimed once", () => {
    const openFresh = fresh();
    return withTwo(openFresh, sharedData, async (s1, s2) => {
      const messages = Array.from({ length: 30 }, (_, i) => receipt(`race${i}`));
      await s1.outbox.enqueue(messages, at(0));
      const claims = await race(s1, s2, 20, (store, i) => store.outbox.claim(`holder${i}`, at(1), MINUTE, 3));
      const keys = claims.flat().map((m) => m.key);
      assert.equal(new Set(keys).size, keys.length, "a message was claimed twice");
      // Whatever the race left is claimed by the next claim; then the queue is empty.
      const rest = await drain(s1, at(2));
      assert.deepEqual([...keys, ...rest].sort(), messages.map((m) => m.key).sort());
    });
  });

  await t.step("outbox: listRecent() pages newest first", () =>
    withStore(fresh(), async (store) => {
      const messages = Array.from({ length: 7 }, (_, i) => receipt(`r${i}`));
      for (const [i, m] of messages.entries()) await store.outbox.enqueue([m], at(Math.floor(i / 2) * 1000));
      const seen: string[] = [];
      let before: OutboxMessage | null = null;
      for (let page = 0; page < 5; page++) {
        const batch: OutboxMessage[] = await store.outbox.listRecent(3, before);
        if (batch.length === 0) break;
        seen.push(...batch.map((m) => m.key));
        before = batch.at(-1)!;
      }
      // Newest first; the same instant by key, descending.
      assert.deepEqual(seen, [6, 5, 4, 3, 2, 1, 0].map((i) => `receipt:r${i}`));
      await assert.rejects(() => store.outbox.listRecent(0), RangeError);
    }));

  await t.step(
    "outbox: listFailing() pages the messages failed or retrying since a time, newest first",
    () =>
      withStore(fresh(), async (store) => {
        const messages = Array.from({ length: 8 }, (_, i) => receipt(`f${i}`));
        for (const [i, m] of messages.entries()) await store.outbox.enqueue([m], at(i * MINUTE));
        const claimed = await store.outbox.claim("h", at(20 * MINUTE), MINUTE, 100);
        assert.equal(claimed.length, 8);
        const byKey = new Map(claimed.map((m) => [m.key, m]));
        const settle = (i: number, outcome: Parameters<Store["outbox"]["settle"]>[1]) =>
          store.outbox.settle(byKey.get(`receipt:f${i}`)!, outcome);
        const retry = (reason: string) => ({ state: "queued", retryAt: at(HOUR_MS), reason }) as const;
        // 0 failed, 1 sent, 2 retrying, 3 skipped, 4 failed, 5 left claimed, 6 retrying, 7 sent.
        await settle(0, { state: "failed", at: at(21 * MINUTE), reason: "550 no such user" });
        await settle(1, { state: "sent", at: at(21 * MINUTE) });
        await settle(2, retry("421 try later"));
        await settle(3, { state: "skipped", at: at(21 * MINUTE), reason: "donor erased" });
        await settle(4, { state: "failed", at: at(21 * MINUTE), reason: "550 no such user" });
        await settle(6, retry("421 try later"));
        await settle(7, { state: "sent", at: at(21 * MINUTE) });
        const keys = (list: OutboxMessage[]) => list.map((m) => m.key.replace("receipt:", ""));

        const all = await store.outbox.listFailing(at(0), 10);
        assert.deepEqual(keys(all), ["f6", "f4", "f2", "f0"]);
        assert.deepEqual(all[0], await store.outbox.get("receipt:f6"));
        assert.deepEqual(keys(await store.outbox.listFailing(at(2 * MINUTE), 10)), ["f6", "f4", "f2"]);
        assert.deepEqual(keys(await store.outbox.listFailing(at(7 * MINUTE), 10)), []);
        // Paged: after the last of the previous page.
        const first = await store.outbox.listFailing(at(0), 3);
        assert.deepEqual(keys(first), ["f6", "f4", "f2"]);
        assert.deepEqual(keys(await store.outbox.listFailing(at(0), 3, first.at(-1))), ["f0"]);
        // A retried message sent in the end leaves the list.
        const again = (await store.outbox.claim("h", at(HOUR_MS), MINUTE, 10)).find((m) =>
          m.key === "receipt:f2"
        )!;
        await store.outbox.settle(again, { state: "sent", at: at(HOUR_MS) });
        assert.deepEqual(keys(await store.outbox.listFailing(at(0), 10)), ["f6", "f4", "f0"]);
        await assert.rejects(() => store.outbox.listFailing(at(0), 0), RangeError);
        await assert.rejects(() => store.outbox.listFailing(at(0), 501), RangeError);
        await assert.rejects(() => store.outbox.listFailing("today", 10), RangeError);
      }),
  );
}

const HOUR_MS = 60 * MINUTE;
