/**
 * The storage contract for donors (`store.donors`): create with a normalized email, get, and
 * update of only the fields given; the Israeli ID number kept as given, and a malformed one refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import { at, donorFixture, uid } from "./fixtures.ts";
import { assertIsoInstant, type ContractOptions, withStore } from "./support.ts";

/** The contract of `store.donors`. */
export async function donorsContract(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step(
    "donors: create() answers the donor as stored; get() agrees; unknown id is null",
    () =>
      withStore(open, async (store) => {
        const input = donorFixture({ email: "  Ada.Lovelace@Example.COM ", paymentDate: at(1000) });
        const created = await store.donors.create(input);
        assert.deepEqual(created, { ...input, email: "ada.lovelace@example.com" });
        assertIsoInstant(created.createdAt, "createdAt");
        assert.deepEqual(await store.donors.get(input.id), created);
        assert.deepEqual(await store.donors.get(uid("donor")), null);
        await assert.rejects(
          () => store.donors.create(donorFixture({ id: input.id })),
          "a reused id was accepted",
        );
        assert.deepEqual(await store.donors.get(input.id), created, "a refused create changed the donor");
      }),
  );

  await t.step(
    "donors: update() changes only the given fields; unknown id answers null",
    () =>
      withStore(open, async (store) => {
        const donor = await store.donors.create(donorFixture());
        const paid = await store.donors.update(donor.id, {
          paymentDate: at(5_000),
          nextPaymentDate: at(2_592_000_000),
          monthlyPaymentAvailable: true,
        });
        assert.deepEqual(paid, {
          ...donor,
          paymentDate: at(5_000),
          nextPaymentDate: at(2_592_000_000),
          monthlyPaymentAvailable: true,
        });
        // One field only; an explicit null clears it, the others stay.
        const cancelled = await store.donors.update(donor.id, { nextPaymentDate: null });
        assert.deepEqual(cancelled, { ...paid, nextPaymentDate: null });
        const off = await store.donors.update(donor.id, { monthlyPaymentAvailable: false });
        assert.deepEqual(off, { ...cancelled, monthlyPaymentAvailable: false });
        assert.deepEqual(await store.donors.update(donor.id, {}), off, "an empty update changed something");
        assert.deepEqual(await store.donors.get(donor.id), off);
        assert.deepEqual(await store.donors.update(uid("donor"), { paymentDate: at(1) }), null);
      }),
  );

  await t.step(
    "donors: the Israeli ID number is stored, read back and kept by updates; a malformed one is refused",
    () =>
      withStore(open, async (store) => {
        const donor = await store.donors.create(donorFixture({ israeliId: "000000018" }));
        assert.equal(donor.israeliId, "000000018");
        assert.equal((await store.donors.get(donor.id))?.israeliId, "000000018");
        const paid = await store.donors.update(donor.id, { paymentDate: at(5_000) });
        assert.equal(paid?.israeliId, "000000018", "an update dropped the ID number");
        const none = await store.donors.create(donorFixture());
        assert.equal((await store.donors.get(none.id))?.israeliId, null);
        for (const bad of ["123456789", "18", "12345678a", ""]) {
          const refused = donorFixture({ israeliId: bad });
          await assert.rejects(() => store.donors.create(refused), RangeError, bad);
          assert.equal(await store.donors.get(refused.id), null, "a refused donor was stored");
        }
      }),
  );
}
