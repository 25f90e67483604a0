/**
 * The storage contract of the donor portal's privacy (issue 15): `donors.erase` (the donor record
 * and the donor fields copied into its transactions, every list and search included; idempotent;
 * a transaction recorded later erased by a repeat) and `outbox.listByDonors` (a donor's messages,
 * newest first, nobody else's).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { ERASED_USER } from "@/lib/storage/records.ts";
import type { NewReceipt, Store, Transaction } from "@/lib/storage/types.ts";
import { at, donorFixture, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, everyList, withStore } from "./support.ts";

/** Every transaction with this id across every list page, and in the search for `term`. */
async function seenInLists(store: Store, term: string) {
  const lists = await everyList(store);
  const ids = new Set(Object.values(lists).flatMap((list) => list.ids));
  const searched = [
    ...(await store.transactions.listSuccess({ page: 1, limit: 100, search: term })).data,
    ...(await store.transactions.listErrors({ page: 1, limit: 100, search: term })).data,
  ];
  const scanned = (await store.transactions.scan({ kind: "success", search: term, limit: 100 })).data;
  return { ids, searched, scanned };
}

/** The copies of transaction `id` the success and error lists hold (first page of 1,000 each). */
async function copiesOf(store: Store, id: string) {
  const copies = [];
  for (const isMonthly of [undefined, true, false]) {
    for (const list of [store.transactions.listSuccess, store.transactions.listErrors]) {
      const { data } = await list({ page: 1, limit: 1_000, isMonthly });
      copies.push(...data.filter((tx) => tx.id === id));
    }
  }
  return copies;
}

/** A receipt to issue for `tx`, filed under `email`. */
const receiptInput = (tx: Transaction, email: string): NewReceipt => ({
  id: uid("receipt"),
  series: "PRIVACY-2025",
  transactionId: tx.id,
  donorId: tx.donorId,
  email,
  issuedAt: tx.createdAt,
  giftDate: tx.createdAt,
  donorName: `${tx.user.firstName} ${tx.user.lastName}`,
  donorTaxId: "123456782",
  amount: tx.amount ?? 1,
  currency: "ILS",
  isMonthly: tx.isMonthly,
  paymentMethod: "card",
  cardLast4: "4580",
  issuer: {
    organization: "museum",
    legalName: "Example Museum",
    address: "1 Museum Road",
    nonprofitNumber: null,
    section46Approval: null,
    section46ValidUntil: null,
    ein: null,
  },
});

/** The contract of `donors.erase`. */
export async function donorErasureContract(t: Deno.TestContext, options: ContractOptions): Promise<void> {
  const { open } = options;
  await t.step(
    "donors.erase: personal fields gone from the donor, its transactions, every list and search",
    () =>
      withStore(open, async (store) => {
        const name = `Zelda${crypto.randomUUID().slice(0, 8)}`;
        const email = `${name.toLowerCase()}@example.org`;
        const user = { firstName: name, lastName: "Privacy", email };
        const erased = await store.donors.create(
          donorFixture({ firstName: name, lastName: "Privacy", email, israeliId: "123456782" }),
        );
        const kept = await store.donors.create(donorFixture({ firstName: name, email }));
        const stranger = await store.donors.create(donorFixture());
        const gift = txFixture({ donorId: erased.id, user, createdAt: at(60_000), amount: 4_200 });
        const monthly = txFixture({ donorId: erased.id, user, isMonthly: true, createdAt: at(61_000) });
        const declined = txFixture({ donorId: erased.id, user, kind: "error", createdAt: at(62_000) });
        const keptGift = txFixture({ donorId: kept.id, user, createdAt: at(63_000) });
        for (const tx of [gift, monthly, declined, keptGift]) await store.transactions.record(tx);
        const receipt = (await store.receipts.issue(receiptInput(gift, email))).receipt;
        const keptReceipt = (await store.receipts.issue(receiptInput(keptGift, email))).receipt;

        const answer = await store.donors.erase(erased.id, at(100_000));
        assert.deepEqual(answer, {
          ...erased,
          firstName: "",
          lastName: "",
          email: "",
          israeliId: null,
          monthlyPaymentAvailable: false,
          nextPaymentDate: null,
          erasedAt: at(100_000),
        });
        assert.deepEqual(await store.donors.get(erased.id), answer);
        assert.deepEqual(
          await store.donors.idsByEmail(email, 10),
          [kept.id],
          "the erased record left the index",
        );
        assert.deepEqual(await store.donors.get(kept.id), kept, "another record of the address is untouched");
        assert.deepEqual(await store.donors.get(stranger.id), stranger);

        for (const tx of [gift, monthly, declined]) {
          const stored = await store.transactions.get(tx.id);
          assert.deepEqual(stored, { ...tx, user: ERASED_USER }, "only the donor fields are erased");
          const copies = await copiesOf(store, tx.id);
          assert.equal(copies.length, 2, `${tx.id} is in two lists`);
          for (const copy of copies) assert.deepEqual(copy, stored, "a list copy still names the donor");
        }
        assert.deepEqual(await store.transactions.get(keptGift.id), keptGift);
        const seen = await seenInLists(store, name.toLowerCase());
        for (const tx of [gift, monthly, declined, keptGift]) assert.ok(seen.ids.has(tx.id), "still listed");
        assert.deepEqual(seen.searched.map((tx) => tx.id), [keptGift.id], "the search finds the erased name");
        assert.deepEqual(seen.scanned.map((tx) => tx.id), [keptGift.id]);
        const byEmail = await store.transactions.listSuccess({ page: 1, limit: 10, search: "privacy" });
        assert.ok(!byEmail.data.some((tx) => tx.donorId === erased.id), "found by the erased last name");
        assert.deepEqual(
          (await store.transactions.listByDonors([erased.id], 10)).map((tx) => tx.id),
          [declined.id, monthly.id, gift.id],
          "the donor's history keeps its gifts",
        );
        // Receipts stay as issued, without the address they were filed under (they do not print it).
        assert.deepEqual(await store.receipts.get(receipt.id), { ...receipt, email: "" });
        assert.deepEqual(await store.receipts.listByDonors([erased.id]), [{ ...receipt, email: "" }]);
        assert.deepEqual(
          await store.receipts.listByEmail(email),
          [keptReceipt],
          "found by the erased address",
        );
        assert.equal(await store.donors.erase(uid("donor"), at(1)), null, "an unknown id");
      }),
  );

  await t.step(
    "donors.erase: idempotent, the first time kept; a transaction recorded later is erased by a repeat",
    () =>
      withStore(open, async (store) => {
        const email = `late.${crypto.randomUUID().slice(0, 8)}@example.org`;
        const donor = await store.donors.create(donorFixture({ email }));
        const first = await store.donors.erase(donor.id, at(1_000));
        assert.equal(first?.erasedAt, at(1_000));
        // A charge that was in flight records with the name it read before the erasure.
        const late = txFixture({
          donorId: donor.id,
          user: { firstName: "Ada", lastName: "Late", email },
          createdAt: at(2_000),
        });
        await store.transactions.record(late);
        const again = await store.donors.erase(donor.id, at(3_000));
        assert.deepEqual(again, first, "a repeat changed the erased donor");
        assert.deepEqual(await store.transactions.get(late.id), { ...late, user: ERASED_USER });
        for (const copy of await copiesOf(store, late.id)) assert.deepEqual(copy.user, ERASED_USER);
        assert.deepEqual(await store.donors.idsByEmail(email, 10), []);
      }),
  );
  await erasureOutOfOrder(t, options);
}

/** The contract of `donors.erase` over lists not in time order (old transactions imported late). */
async function erasureOutOfOrder(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step(
    "donors.erase: transactions imported after newer ones are erased in every list too",
    () =>
      withStore(open, async (store) => {
        const email = `old.${crypto.randomUUID().slice(0, 8)}@example.org`;
        const donor = await store.donors.create(donorFixture({ email }));
        const user = { firstName: "Ada", lastName: "Imported", email };
        await store.transactions.record(txFixture({ createdAt: at(40 * 86_400_000) }));
        const old = [
          txFixture({ donorId: donor.id, user, createdAt: at(0) }),
          txFixture({ donorId: donor.id, user, kind: "error", createdAt: at(1_000) }),
        ];
        assert.equal(await store.transactions.import(old), 2);
        await store.transactions.record(txFixture({ createdAt: at(41 * 86_400_000) }));
        await store.donors.erase(donor.id, at(50 * 86_400_000));
        for (const tx of old) {
          const copies = await copiesOf(store, tx.id);
          assert.equal(copies.length, 2);
          for (const copy of copies) assert.deepEqual(copy, { ...tx, user: ERASED_USER });
        }
      }),
  );
}

/** A message to `to`, enqueued at its own time. */
const message = (to: MessageInput["to"], key = uid("msg")): MessageInput => ({
  key,
  kind: "manage-link",
  to,
  language: "en",
  data: {},
});

/** The contract of `outbox.listByDonors`. */
export async function outboxByDonorsContract(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step(
    "outbox.listByDonors: the donors' messages, newest first, at most limit; nobody else's",
    () =>
      withStore(open, async (store) => {
        const [a, b, other] = [uid("donor"), uid("donor"), uid("donor")];
        await store.outbox.enqueue([message({ donorId: a }, `k-a1-${a}`)], at(1_000));
        await store.outbox.enqueue([message({ donorId: b }, `k-b1-${b}`)], at(2_000));
        await store.outbox.enqueue([message({ admins: true }), message({ donorId: other })], at(3_000));
        // A cause's messages (here a transaction's) are listed too.
        const tx = txFixture({ donorId: a, createdAt: at(4_000) });
        await store.transactions.record(tx, {
          messages: [{
            key: `receipt:${tx.id}`,
            kind: "receipt",
            to: { donorId: a },
            language: "he",
            data: { transactionId: tx.id },
          }],
        });
        const listed = await store.outbox.listByDonors([a, b], 10);
        assert.deepEqual(listed.map((m) => m.key), [`receipt:${tx.id}`, `k-b1-${b}`, `k-a1-${a}`]);
        assert.deepEqual(listed[0], await store.outbox.get(`receipt:${tx.id}`));
        assert.deepEqual(
          (await store.outbox.listByDonors([a, b], 2)).map((m) => m.key),
          [`receipt:${tx.id}`, `k-b1-${b}`],
        );
        assert.deepEqual(await store.outbox.listByDonors([uid("donor")], 10), []);
        await assert.rejects(() => store.outbox.listByDonors([a], 501), RangeError);
        await assert.rejects(() => store.outbox.listByDonors([a], 0), RangeError);
      }),
  );
}

/** A sign-in link or session record of `email`, expiring in a day. */
const record = (email: string) => ({
  hash: crypto.randomUUID().replaceAll("-", "").repeat(2),
  email,
  createdAt: at(0),
  expiresAt: at(86_400_000),
});

/** The contract of `donorSessions.deleteForEmail`. */
export async function donorSessionsForEmailContract(
  t: Deno.TestContext,
  { open }: ContractOptions,
): Promise<void> {
  await t.step(
    "donorSessions.deleteForEmail: every link and session of the address, nobody else's",
    () =>
      withStore(open, async (store) => {
        const email = `gone.${crypto.randomUUID().slice(0, 8)}@example.org`;
        const [link, usedLink, other] = [record(email), record(email), record(`x${email}`)];
        const [session, revoked, otherSession] = [record(email), record(email), record(`x${email}`)];
        for (const l of [link, usedLink, other]) {
          await store.donorSessions.createSignIn({ ...l, usedAt: null });
        }
        for (const s of [session, revoked, otherSession]) {
          await store.donorSessions.createSession({ ...s, revokedAt: null, scope: "full", donorId: null });
        }
        await store.donorSessions.revokeSession(revoked.hash, at(1_000));
        const redeemed = await store.donorSessions.redeemSignIn(usedLink.hash, at(1_000), record(email));
        assert.ok(redeemed.ok);
        // The address's records: two links, three sessions (one made by the redeemed link).
        const deleted = await store.donorSessions.deleteForEmail(` ${email.toUpperCase()} `);
        assert.equal(deleted, 5, "two links and three sessions");
        for (const l of [link, usedLink]) assert.equal(await store.donorSessions.getSignIn(l.hash), null);
        for (const s of [session, revoked]) assert.equal(await store.donorSessions.getSession(s.hash), null);
        assert.ok(await store.donorSessions.getSignIn(other.hash), "another address's link");
        assert.ok(await store.donorSessions.getSession(otherSession.hash), "another address's session");
        assert.equal(await store.donorSessions.deleteForEmail(email), 0, "again: nothing left");
      }),
  );
}
