/** issueReceipt: who issues, which series, what is printed, once per transaction. */
import assert from "node:assert/strict";
import type { ReceiptSettings } from "./config.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { cardLast4, issueReceipt, NotReceiptableError, ReceiptsNotConfiguredError } from "./issue.ts";

const MUSEUM = {
  legalName: "The Museum (R.A.)",
  address: "1 Museum Road, Jerusalem",
  nonprofitNumber: "580000000",
  section46Approval: "4567",
  section46ValidUntil: "2026-12-31",
};
const FRIENDS = {
  legalName: "American Friends of the Museum",
  address: "1 Broadway, New York",
  ein: "12-3456789",
};

let n = 0;
/** A successful one-time gift of 180.00 in `currency` (1 = NIS, 2 = USD). */
export function giftFixture(overrides: Partial<Transaction> = {}): Transaction {
  n++;
  return {
    id: `tx_issue_${n}_${crypto.randomUUID().slice(0, 8)}`,
    kind: "success",
    statusCode: "000",
    isMonthly: false,
    createdAt: "2026-03-01T10:00:00.000Z",
    donorId: `donor_${n}`,
    user: { firstName: "Ada", lastName: "Lovelace", email: "Ada@Example.com" },
    amount: 18_000,
    currency: 1,
    resultData: {
      CreditCardNumber: "458045******4580",
      CreditType: "1",
      DebitTotal: "18000",
      DebitCurrency: 1,
    },
    errorMessage: null,
    provider: "sandbox",
    providerTransactionId: `ptx_${n}`,
    ...overrides,
  };
}

const withStore = async (fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<void>) => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    await fn(store);
  } finally {
    await store.close();
  }
};

const now = new Date("2026-05-10T08:00:00.000Z");

Deno.test("issueReceipt: an ILS gift gets the museum's Israeli receipt, numbered IL-year, once", () =>
  withStore(async (store) => {
    const settings: ReceiptSettings = { museum: MUSEUM, friends: FRIENDS };
    const tx = giftFixture();
    const r = await issueReceipt(store, settings, {
      transaction: tx,
      donorName: " Ada Lovelace ",
      donorTaxId: "000000018",
      now,
    });
    assert.equal(r.number, "IL-2026-000001");
    assert.equal(r.issuer.organization, "museum");
    assert.equal(r.issuer.nonprofitNumber, "580000000");
    assert.equal(r.issuer.section46Approval, "4567");
    assert.equal(r.donorName, "Ada Lovelace");
    assert.equal(r.donorTaxId, "000000018");
    assert.equal(r.currency, "ILS");
    assert.equal(r.amount, 18_000);
    assert.equal(r.cardLast4, "4580");
    assert.equal(r.email, "ada@example.com");
    assert.equal(r.giftDate, tx.createdAt);
    // Again, even with other settings: the same receipt, no new number.
    const again = await issueReceipt(store, { museum: null, friends: null }, {
      transaction: tx,
      donorName: "X",
      donorTaxId: null,
    });
    assert.deepEqual(again, r);
    const next = await issueReceipt(store, settings, {
      transaction: giftFixture(),
      donorName: "B",
      donorTaxId: null,
      now,
    });
    assert.equal(next.number, "IL-2026-000002");
  }));

Deno.test("issueReceipt: USD gifts go to the Friends organisation (no Israeli ID), else to the museum", () =>
  withStore(async (store) => {
    const usd = giftFixture({ currency: 2 });
    const us = await issueReceipt(store, { museum: MUSEUM, friends: FRIENDS }, {
      transaction: usd,
      donorName: "Ada",
      donorTaxId: "000000018",
      now,
    });
    assert.equal(us.number, "US-2026-000001");
    assert.equal(us.currency, "USD");
    assert.equal(us.issuer.organization, "friends");
    assert.equal(us.issuer.ein, "12-3456789");
    assert.equal(us.donorTaxId, null);
    const il = await issueReceipt(store, { museum: MUSEUM, friends: null }, {
      transaction: giftFixture({ currency: 2 }),
      donorName: "Ada",
      donorTaxId: null,
      now,
    });
    assert.equal(il.number, "IL-2026-000001");
    assert.equal(il.currency, "USD");
  }));

Deno.test("issueReceipt: the year is the issuer's: 23:30 on 31 December UTC is already next year in Israel", () =>
  withStore(async (store) => {
    const late = new Date("2026-12-31T23:30:00.000Z");
    const r = await issueReceipt(store, { museum: MUSEUM, friends: FRIENDS }, {
      transaction: giftFixture(),
      donorName: "A",
      donorTaxId: null,
      now: late,
    });
    assert.equal(r.series, "IL-2027");
    const us = await issueReceipt(store, { museum: MUSEUM, friends: FRIENDS }, {
      transaction: giftFixture({ currency: 2 }),
      donorName: "A",
      donorTaxId: null,
      now: late,
    });
    assert.equal(us.series, "US-2026");
  }));

Deno.test("issueReceipt: a failed payment or missing settings are refused with a domain error, taking no number", () =>
  withStore(async (store) => {
    const settings: ReceiptSettings = { museum: MUSEUM, friends: null };
    const failed = giftFixture({
      kind: "error",
      statusCode: "033",
      amount: null,
      currency: null,
      resultData: null,
    });
    await assert.rejects(
      () => issueReceipt(store, settings, { transaction: failed, donorName: "A", donorTaxId: null }),
      NotReceiptableError,
    );
    await assert.rejects(
      () =>
        issueReceipt(store, { museum: null, friends: null }, {
          transaction: giftFixture(),
          donorName: "A",
          donorTaxId: null,
        }),
      ReceiptsNotConfiguredError,
    );
    const first = await issueReceipt(store, settings, {
      transaction: giftFixture(),
      donorName: "A",
      donorTaxId: null,
      now,
    });
    assert.equal(first.sequence, 1);
  }));

Deno.test("cardLast4: the last four digits of a masked number, or null", () => {
  assert.equal(cardLast4("458045******4580"), "4580");
  assert.equal(cardLast4("************1234"), "1234");
  assert.equal(cardLast4(""), null);
  assert.equal(cardLast4(undefined), null);
});
