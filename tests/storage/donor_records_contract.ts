/**
 * The storage contract for every donor record of one address (issue 23): `donors.idsByEmail` pages
 * through the email index with a cursor (each record once, in id order, however many the address
 * has), and `donors.deleteUnused` deletes a record only when nothing names it (no payment, gift,
 * monthly gift, receipt or message) and it was created before the time given: what `POST /api/user`
 * recycles under an address with many records (`lib/donors/donors.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { at, donorFixture, HOUR, paymentFixture, subscriptionFixture, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore } from "./support.ts";

/** Records under one address in the paging step: more than four pages of a hundred. */
const MANY = 400;

/** The contract of `donors.idsByEmail` with a cursor and of `donors.deleteUnused`. */
export async function donorRecordsContract(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step(
    `donors: idsByEmail() pages through ${MANY} records of one address after a cursor, each once, in id order`,
    () =>
      withStore(open, async (store) => {
        const email = `${uid("many")}@example.org`;
        // Random ids, so the address's records are spread between other addresses' in the index.
        const ids = Array.from({ length: MANY }, () =>
          `d${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`);
        const others = Array.from({ length: 20 }, () =>
          `d${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`);
        for (let i = 0; i < ids.length; i += 50) {
          await Promise.all(
            ids.slice(i, i + 50).map((id) =>
              store.donors.create(donorFixture({ id, email }))
            ),
          );
        }
        for (const id of others) {
          await store.donors.create(donorFixture({ id, email: `x.${email}` }));
        }
        const sorted = [...ids].sort();
        const seen: string[] = [];
        let after: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await store.donors.idsByEmail(` ${email.toUpperCase()} `, 100, after);
          seen.push(...page);
          if (page.length < 100) {
            break;
          }
          after = page.at(-1);
        }
        assert.equal(seen.length, MANY);
        assert.deepEqual(seen, sorted, "each record once, in id order");
        assert.deepEqual(await store.donors.idsByEmail(email, 3, sorted[199]), sorted.slice(200, 203));
        assert.deepEqual(
          await store.donors.idsByEmail(email, 10, sorted.at(-1)),
          [],
          "nothing after the last",
        );
        // A cursor needs not be one of the address's ids: the ids after it.
        const between = `${sorted[41]}~`;
        assert.deepEqual(await store.donors.idsByEmail(email, 2, between), sorted.slice(42, 44));
        assert.deepEqual(
          await store.donors.idsByEmail(email, 2),
          sorted.slice(0, 2),
          "no cursor: from the start",
        );
      }),
  );

  await t.step(
    "donors: deleteUnused() deletes a record created before the time given that nothing names, and nothing else",
    () =>
      withStore(open, async (store) => {
        const email = `${uid("unused")}@example.org`;
        const record = async (over: Parameters<typeof donorFixture>[0] = {}) =>
          (await store.donors.create(donorFixture({ email, createdAt: at(0), ...over }))).id;
        const unused = await record();
        const young = await record({ createdAt: at(2 * HOUR) });
        const paid = await record();
        await store.payments.createOrReuse(
          paymentFixture({ donorId: paid }),
          uid("dedupe"),
          60_000,
          Date.now(),
        );
        const gifted = await record();
        await store.transactions.record(
          txFixture({ donorId: gifted, user: { firstName: "A", lastName: "B", email } }),
        );
        const monthly = await record();
        await store.subscriptions.create(subscriptionFixture({ donorId: monthly }));
        const messaged = await record();
        await store.outbox.enqueue([{
          key: uid("sign-in"),
          kind: "sign-in-link",
          to: { donorId: messaged },
          language: "en",
          data: { signInId: uid("link") },
        }], at(0));
        const erased = await record();
        await store.donors.erase(erased, at(10));
        const before = at(HOUR);

        for (
          const [id, what] of [
            [young, "created after the time given"],
            [paid, "a payment names it"],
            [gifted, "a gift names it"],
            [monthly, "a monthly gift names it"],
            [messaged, "a message names it"],
            [erased, "erased at the donor's request (its mark is kept)"],
            [uid("nobody"), "unknown"],
          ]
        ) {
          assert.equal(await store.donors.deleteUnused(id, before), false, what);
        }
        for (const id of [young, paid, gifted, monthly, messaged, erased]) {
          assert.ok(await store.donors.get(id), `${id} is kept`);
        }
        assert.equal(await store.donors.deleteUnused(unused, before), true);
        assert.equal(await store.donors.get(unused), null, "deleted");
        assert.ok(
          !(await store.donors.idsByEmail(email, 100)).includes(unused),
          "and gone from the email index",
        );
        assert.equal(await store.donors.deleteUnused(unused, before), false, "a repeat deletes nothing");
        assert.equal(await store.donors.deleteUnused(young, at(3 * HOUR)), true, "the time decides");
        assert.deepEqual(
          (await store.donors.idsByEmail(email, 100)).sort(),
          [paid, gifted, monthly, messaged].sort(),
        );
        await assert.rejects(() => store.donors.deleteUnused(paid, "yesterday"), RangeError);
      }),
  );
}
