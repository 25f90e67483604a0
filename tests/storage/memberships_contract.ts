/**
 * The storage contract for memberships (`store.memberships`) and the membership change
 * `transactions.record` takes: written with a new transaction only (a repeat changes nothing), read
 * by email and by number, listed by end; a member number never given twice (the change is asked
 * again); two instances changing one membership at once lose no change; a change no backend may
 * store refused with its transaction; and the level a payment is at kept.
 *
 * @module
 */

import assert from "node:assert/strict";
import type {
  AuditInput,
  Membership,
  MembershipChange,
  MembershipDraft,
  MembershipTerm,
} from "@/lib/storage/types.ts";
import { at, DAY, paymentFixture, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** A term of `days` days from `fromMs` (after the fixtures' T0) at `levelId`, paid by `transactionId`. */
function term(levelId: number, fromMs: number, days: number, transactionId: string): MembershipTerm {
  return {
    levelId,
    start: at(fromMs),
    end: at(fromMs + days * DAY),
    kind: "join",
    transactionId,
    subscriptionId: null,
    amount: 10_000,
    currency: 1,
    charges: 1,
  };
}

/** A change that starts the membership of `email` with `number`, or adds a term after its end. */
function extend(email: string, number: string, transactionId: string, days = 365): MembershipChange {
  return {
    email,
    apply(current: Membership | null): MembershipDraft {
      if (current === null) {
        return { number, donorId: "donor_1", subscriptionId: null, terms: [term(1, 0, days, transactionId)] };
      }
      const from = Date.parse(current.end) - Date.parse(at(0));
      return {
        ...current,
        terms: [...current.terms, { ...term(1, from, days, transactionId), kind: "renewal" }],
      };
    },
  };
}

/** An audit entry for a change staff make. */
const audit = (target: string): AuditInput => ({
  action: "museum-settings-changed",
  actorId: "admin_1",
  actorEmail: "owner@museum.example",
  address: "203.0.113.9",
  target,
});

const number = () => uid("M").replace(/[^0-9A-Za-z]/g, "").toUpperCase().slice(-12);
const email = () => `${uid("member")}@Museum.Example`;

/** The contract of `store.memberships`. */
export async function membershipsContract(
  t: Deno.TestContext,
  { open, fresh, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "memberships: a change leaving no term ends the membership: record, number and end index gone, audited",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const n = number();
        const made = await store.memberships.change(extend(address, n, uid("tx")), at(0));
        assert.ok(made);
        const end = { from: made.end, to: new Date(Date.parse(made.end) + 1).toISOString() };
        const ended = await store.memberships.change(
          { email: address, apply: (current) => current && { ...current, terms: [] } },
          at(1000),
          { audit: [audit(address)] },
        );
        assert.equal(ended, null);
        assert.equal(await store.memberships.get(address), null);
        assert.equal(await store.memberships.getByNumber(n), null);
        assert.deepEqual((await store.memberships.listByEnd(end, 10)).map((m) => m.email), []);
        assert.deepEqual((await store.memberships.listByLevel(1, end, 10)).map((m) => m.email), []);
        // None to end: nothing written.
        assert.equal(
          await store.memberships.change({
            email: address,
            apply: () => ({ number: n, donorId: "d", subscriptionId: null, terms: [] }),
          }, at(2000)),
          null,
        );
      }),
  );

  await t.step(
    "memberships: made with a new transaction, read by email and number; a repeat changes nothing",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const n = number();
        const tx = txFixture();
        const first = await store.transactions.record(tx, { membership: extend(address, n, tx.id) });
        assert.equal(first.created, true);
        const made = await store.memberships.get(address);
        assert.deepEqual(made, {
          email: address.toLowerCase(),
          number: n,
          donorId: "donor_1",
          subscriptionId: null,
          cardholders: [],
          terms: [term(1, 0, 365, tx.id)],
          end: at(365 * DAY),
          createdAt: tx.createdAt,
          updatedAt: tx.createdAt,
          version: 1,
        });
        assert.deepEqual(await store.memberships.get(` ${address.toUpperCase()} `), made);
        assert.deepEqual(await store.memberships.getByNumber(n), made);
        assert.equal(await store.memberships.getByNumber("NOPE-0000"), null);
        // The same provider transaction recorded again (the return and the notification): no second term.
        const again = await store.transactions.record({ ...tx, id: uid("tx") }, {
          membership: extend(address, n, "tx_again"),
        });
        assert.equal(again.created, false);
        assert.deepEqual(await store.memberships.get(address), made);
        // Another payment renews it: a second term, the number kept, version 2.
        const tx2 = txFixture({ createdAt: at(DAY) });
        await store.transactions.record(tx2, { membership: extend(address, "IGNORED", tx2.id) });
        const renewed = await store.memberships.get(address);
        assert.equal(renewed?.number, n);
        assert.equal(renewed?.version, 2);
        assert.deepEqual(renewed?.terms.map((x) => [x.kind, x.end]), [["join", at(365 * DAY)], [
          "renewal",
          at(730 * DAY),
        ]]);
        assert.equal(renewed?.end, at(730 * DAY));
        assert.equal(renewed?.createdAt, tx.createdAt);
        assert.equal(renewed?.updatedAt, tx2.createdAt);
      }),
  );

  await t.step(
    "memberships: erase removes the membership of an address, its number and its end; a repeat does nothing",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const n = number();
        const kept = email();
        const tx = txFixture();
        await store.transactions.record(tx, { membership: extend(address, n, tx.id) });
        const other = txFixture();
        await store.transactions.record(other, { membership: extend(kept, number(), other.id) });
        assert.equal(await store.memberships.erase(` ${address.toUpperCase()} `), true);
        assert.equal(await store.memberships.get(address), null);
        assert.equal(await store.memberships.getByNumber(n), null);
        const ends = await store.memberships.listByEnd({ from: at(0), to: at(366 * DAY) }, 1000);
        assert.deepEqual(ends.map((m) => m.email).filter((e) => e === address.toLowerCase()), []);
        assert.notEqual(await store.memberships.get(kept), null);
        assert.equal(await store.memberships.erase(address), false);
        // The transaction that paid it keeps its amount (a financial record).
        assert.deepEqual(await store.transactions.get(tx.id), tx);
      }),
  );

  await t.step(
    "memberships: cardholders named by a change (audited), kept by a renewal, refused past the limits",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const tx = txFixture();
        await store.transactions.record(tx, { membership: extend(address, number(), tx.id) });
        const named = await store.memberships.change(
          { email: address, apply: (m) => ({ ...m!, cardholders: [" Dana Levi ", "נועה לוי"] }) },
          at(DAY),
          { audit: [audit(address)] },
        );
        assert.deepEqual(named?.cardholders, ["Dana Levi", "נועה לוי"]);
        const tx2 = txFixture({ createdAt: at(2 * DAY) });
        await store.transactions.record(tx2, { membership: extend(address, "IGNORED", tx2.id) });
        assert.deepEqual((await store.memberships.get(address))?.cardholders, ["Dana Levi", "נועה לוי"]);
        for (const bad of [[""], ["x".repeat(101)], ["a\u0000b"], Array(11).fill("Dana")]) {
          await assert.rejects(
            () =>
              store.memberships.change(
                { email: address, apply: (m) => ({ ...m!, cardholders: bad }) },
                at(3 * DAY),
              ),
            RangeError,
          );
        }
        assert.equal((await store.memberships.get(address))?.version, 3);
      }),
  );

  await t.step(
    "memberships: a change that writes nothing still records its transaction",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const tx = txFixture();
        const { created } = await store.transactions.record(tx, {
          membership: { email: address, apply: () => null },
        });
        assert.equal(created, true);
        assert.deepEqual(await store.transactions.get(tx.id), tx);
        assert.equal(await store.memberships.get(address), null);
      }),
  );

  await t.step(
    "memberships: a number another membership has is never given twice",
    () =>
      withStore(open, async (store) => {
        const taken = number();
        const a = email();
        await store.memberships.change(extend(a, taken, "tx_a"), at(0));
        const b = email();
        const offered: string[] = [];
        const change: MembershipChange = {
          email: b,
          apply(current) {
            const next = offered.length === 0 ? taken : number();
            offered.push(next);
            return extend(b, next, "tx_b").apply(current);
          },
        };
        const tx = txFixture();
        await store.transactions.record(tx, { membership: change });
        const made = await store.memberships.get(b);
        assert.ok(offered.length >= 2, `asked ${offered.length} time(s)`);
        assert.equal(made?.number, offered.at(-1));
        assert.notEqual(made?.number, taken);
        assert.equal((await store.memberships.getByNumber(taken))?.email, a.toLowerCase());
        assert.deepEqual(await store.transactions.get(tx.id), tx);
      }),
  );

  await t.step(
    "memberships: change() alone, audited in the same step; null writes nothing",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const note: AuditInput = {
          action: "museum-settings-changed",
          actorId: "admin_1",
          actorEmail: "staff@museum.example",
          address: "203.0.113.5",
          target: address,
          changes: { membership: "corrected" },
        };
        assert.equal(
          await store.memberships.change({ email: address, apply: () => null }, at(0), { audit: [note] }),
          null,
        );
        const made = await store.memberships.change(extend(address, number(), "tx_c"), at(5), {
          audit: [note],
        });
        assert.equal(made?.version, 1);
        assert.deepEqual(await store.memberships.get(address), made);
        const logged = await store.audit.list({ actorId: "admin_1" }, 100);
        assert.equal(logged.filter((e) => e.target === address).length, 1);
      }),
  );

  await t.step(
    "memberships: a record no backend may store is refused with its transaction",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const n = number();
        await store.memberships.change(extend(address, n, "tx_d"), at(0));
        const bad: MembershipChange[] = [
          { email: address, apply: (c) => ({ ...c!, number: number() }) }, // a number never changes
          { email: address, apply: (c) => ({ ...c!, terms: [...c!.terms, term(1, DAY, 10, "tx_e")] }) }, // overlap
          { email: address, apply: (c) => ({ ...c!, terms: [] }) },
          { email: address, apply: (c) => ({ ...c!, terms: [{ ...c!.terms[0], kind: "gift" as "join" }] }) },
        ];
        for (const change of bad) {
          const tx = txFixture();
          await assert.rejects(() => store.transactions.record(tx, { membership: change }), RangeError);
          assert.equal(await store.transactions.get(tx.id), null);
        }
        assert.equal((await store.memberships.get(address))?.version, 1);
      }),
  );

  await t.step(
    "memberships: two instances renewing one membership at once lose no term",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const address = email();
        await a.memberships.change(extend(address, number(), "tx_0", 30), at(0));
        await race(a, b, 6, (store) => {
          const tx = txFixture();
          return store.transactions.record(tx, { membership: extend(address, "X000", tx.id, 30) });
        });
        const m = await a.memberships.get(address);
        assert.equal(m?.terms.length, 7);
        assert.equal(m?.version, 7);
        assert.equal(m?.end, at(7 * 30 * DAY));
      }),
  );

  await t.step(
    "memberships: automatic renewal stored with the consenting payment, kept when a change leaves it out, dropped by null",
    () =>
      withStore(open, async (store) => {
        const address = email();
        const tx = txFixture();
        const renew = {
          token: "tok_kept",
          provider: "sandbox",
          last4: "9015",
          currency: 2 as const,
          transactionId: tx.id,
          since: at(0),
          failedAttempts: 0,
          retryAt: null,
        };
        const consent: MembershipChange = {
          email: address,
          apply: (current) => ({ ...extend(address, number(), tx.id).apply(current)!, autoRenew: renew }),
        };
        await store.transactions.record(tx, { membership: consent });
        assert.deepEqual((await store.memberships.get(address))?.autoRenew, renew);
        const declined = { ...renew, failedAttempts: 1, retryAt: at(DAY) };
        // A change of the terms' owner that sets `extra` beside them.
        const write = (extra: Partial<MembershipDraft>, ms: number) =>
          store.memberships.change({
            email: address,
            apply: (c) =>
              c && { number: c.number, donorId: c.donorId, subscriptionId: null, terms: c.terms, ...extra },
          }, at(ms));
        await write({ autoRenew: declined }, 1000);
        const kept = await write({ cardholders: ["Dana"] }, 2000);
        assert.deepEqual(kept?.autoRenew, declined, "a change leaving it out keeps it");
        assert.deepEqual((await store.memberships.get(address))?.autoRenew, declined);
        const off = await write({ autoRenew: null }, 3000);
        assert.equal(off?.autoRenew, undefined);
        assert.equal((await store.memberships.get(address))?.autoRenew, undefined, "its token is gone");
        await assert.rejects(
          store.memberships.change({
            email: address,
            apply: (c) => c && { ...c, autoRenew: { ...renew, last4: "12345" } },
          }, at(4000)),
          RangeError,
        );
        // A payment's consent is kept with it (a one-time gift at a level only).
        const payment = { ...paymentFixture(), levelId: 2, isMonthly: false, autoRenew: true as const };
        const { payment: stored } = await store.payments.createOrReuse(
          payment,
          uid("dedupe"),
          60_000,
          Date.parse(at(0)),
        );
        assert.equal((await store.payments.get(stored.id))?.autoRenew, true);
        const plain = { ...paymentFixture(), levelId: 2, isMonthly: false };
        const { payment: other } = await store.payments.createOrReuse(
          plain,
          uid("dedupe"),
          60_000,
          Date.parse(at(0)),
        );
        assert.equal((await store.payments.get(other.id))?.autoRenew, undefined);
      }),
  );

  await t.step("memberships: listByEnd pages by end, then email", () =>
    withStore(fresh(), async (store) => {
      const made: Membership[] = [];
      for (const days of [40, 10, 30, 10, 20, 400]) {
        made.push((await store.memberships.change(extend(email(), number(), uid("tx"), days), at(0)))!);
      }
      // Moving one's end removes it from where it was.
      const moved = await store.memberships.change(extend(made[1].email, made[1].number, "tx_m", 5), at(1));
      const expected = [...made.slice(0, 1), moved!, ...made.slice(2, 5)]
        .sort((x, y) => x.end < y.end ? -1 : x.end > y.end ? 1 : x.email < y.email ? -1 : 1);
      const range = { from: at(0), to: at(100 * DAY) };
      assert.deepEqual(await store.memberships.listByEnd(range, 100), expected);
      const page1 = await store.memberships.listByEnd(range, 2);
      const page2 = await store.memberships.listByEnd(range, 2, page1.at(-1));
      const page3 = await store.memberships.listByEnd(range, 2, page2.at(-1));
      assert.deepEqual([...page1, ...page2, ...page3], expected);
      assert.deepEqual(await store.memberships.listByEnd({ from: at(16 * DAY), to: at(21 * DAY) }, 10), [
        made[4],
      ]);
      await assert.rejects(() => store.memberships.listByEnd(range, 0), RangeError);
    }));

  await t.step(
    "payments: the level a gift is at is kept; other gifts have none",
    () =>
      withStore(open, async (store) => {
        const atLevel = paymentFixture({ levelId: 3 });
        const { payment } = await store.payments.createOrReuse(
          atLevel,
          uid("dedupe"),
          60_000,
          Date.parse(at(0)),
        );
        assert.equal(payment.levelId, 3);
        assert.deepEqual(await store.payments.get(atLevel.id), atLevel);
        const plain = paymentFixture();
        await store.payments.createOrReuse(plain, uid("dedupe"), 60_000, Date.parse(at(0)));
        assert.equal("levelId" in (await store.payments.get(plain.id))!, false);
        const updated = await store.payments.update(atLevel.id, {
          status: "succeeded",
          transactionId: "tx_1",
        });
        assert.equal(updated?.levelId, 3);
      }),
  );
}
