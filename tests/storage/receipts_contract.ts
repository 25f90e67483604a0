/**
 * The storage contract for legal receipts (`store.receipts`): issued once per transaction, with the
 * next number of a gapless sequence per series (never skipped, never reused) even under 200
 * concurrent issues across two instances; read back by id, transaction (one, or a page's at once),
 * donors and email; a report number recorded once.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { NewReceipt, Receipt } from "@/lib/storage/types.ts";
import { at, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

let seriesCount = 0;

/** A series of its own (`T<n>..-2026`), so each step numbers from 1 whatever ran before. */
export const freshSeries = () =>
  `T${++seriesCount}${crypto.randomUUID().replaceAll("-", "").slice(0, 8).toUpperCase()}-2026`;

/** A new Israeli receipt of 100.00 NIS in `series`. */
export function receiptFixture(series: string, overrides: Partial<NewReceipt> = {}): NewReceipt {
  return {
    id: uid("rcpt"),
    series,
    transactionId: uid("tx"),
    donorId: uid("donor"),
    email: "Ada@Example.com ",
    issuedAt: at(0),
    giftDate: at(-1000),
    donorName: "Ada Lovelace",
    donorTaxId: "000000018",
    amount: 10_000,
    currency: "ILS",
    isMonthly: false,
    paymentMethod: "card",
    cardLast4: "4580",
    issuer: {
      organization: "museum",
      legalName: "The Museum (R.A.)",
      address: "1 Museum Road, Jerusalem",
      nonprofitNumber: "580000000",
      section46Approval: "123456",
      section46ValidUntil: "2026-12-31",
      ein: null,
    },
    ...overrides,
  };
}

const sequences = (list: Receipt[]) => list.map((r) => r.sequence).sort((a, b) => a - b);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The contract of `store.receipts`. */
export async function receiptsContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "receipts: a gift at a membership level keeps the level as issued; a plain gift's has none",
    () =>
      withStore(open, async (store) => {
        const series = freshSeries();
        const membership = {
          levelId: 3,
          levelName: { en: "Patron", he: "פטרון", ru: "Меценат", pt: "Patrono", es: "Mecenas" },
          benefitsValue: 4_000,
          donationShare: 100,
          donation: 6_000,
        };
        const a = await store.receipts.issue(receiptFixture(series, { currency: "USD", membership }));
        const b = await store.receipts.issue(receiptFixture(series));
        assert.deepEqual(a.receipt.membership, membership);
        assert.deepEqual(await store.receipts.get(a.receipt.id), a.receipt);
        assert.deepEqual(await store.receipts.byTransaction(a.receipt.transactionId), a.receipt);
        assert.equal("membership" in b.receipt, false);
        assert.deepEqual(await store.receipts.get(b.receipt.id), b.receipt);
        // What no backend may keep is refused before anything is written.
        for (const bad of [{ donationShare: 101 }, { donation: 10_001 }, { benefitsValue: -1 }]) {
          await assert.rejects(
            store.receipts.issue(receiptFixture(series, { membership: { ...membership, ...bad } })),
            RangeError,
          );
        }
      }),
  );

  await t.step(
    "receipts: issue numbers 1, 2, 3 per series; canonical; get, byTransaction",
    () =>
      withStore(open, async (store) => {
        const series = freshSeries();
        const other = freshSeries();
        const a = await store.receipts.issue(receiptFixture(series));
        const b = await store.receipts.issue(receiptFixture(series));
        const c = await store.receipts.issue(receiptFixture(other));
        assert.equal(a.created, true);
        assert.deepEqual([a.receipt.sequence, b.receipt.sequence, c.receipt.sequence], [1, 2, 1]);
        assert.equal(a.receipt.number, `${series}-000001`);
        assert.equal(b.receipt.number, `${series}-000002`);
        assert.equal(a.receipt.email, "ada@example.com");
        assert.equal(a.receipt.reportNumber, null);
        assert.deepEqual(await store.receipts.get(a.receipt.id), a.receipt);
        assert.deepEqual(await store.receipts.byTransaction(b.receipt.transactionId), b.receipt);
        assert.equal(await store.receipts.get("rcpt_missing"), null);
        assert.equal(await store.receipts.byTransaction("tx_missing"), null);
        // The issuer's details and the donor's are kept as issued.
        assert.deepEqual(a.receipt.issuer, receiptFixture(series).issuer);
        assert.equal(a.receipt.donorTaxId, "000000018");
      }),
  );

  await t.step(
    "receipts: byTransactions reads a page's receipts at once, by transaction id",
    () =>
      withStore(open, async (store) => {
        const series = freshSeries();
        const a = (await store.receipts.issue(receiptFixture(series))).receipt;
        const b = (await store.receipts.issue(receiptFixture(series))).receipt;
        const found = await store.receipts.byTransactions([
          b.transactionId,
          "tx_missing",
          a.transactionId,
          b.transactionId,
        ]);
        assert.deepEqual([...found.keys()].sort(), [a.transactionId, b.transactionId].sort());
        assert.deepEqual(found.get(a.transactionId), a);
        assert.deepEqual(found.get(b.transactionId), b);
        assert.deepEqual(await store.receipts.byTransactions([]), new Map());
        assert.deepEqual(await store.receipts.byTransactions(["tx_missing"]), new Map());
        // At most 1000 distinct ids (repeats count once).
        const many = Array.from({ length: 999 }, (_, i) => `tx_none_${i}`);
        assert.equal((await store.receipts.byTransactions([...many, a.transactionId, ...many])).size, 1);
        await assert.rejects(
          () => store.receipts.byTransactions([...many, a.transactionId, "tx_one_too_many"]),
          RangeError,
        );
      }),
  );

  await t.step(
    "receipts: a transaction gets one receipt; issuing again takes no number",
    () =>
      withStore(open, async (store) => {
        const series = freshSeries();
        const first = await store.receipts.issue(receiptFixture(series));
        const again = await store.receipts.issue(
          receiptFixture(series, { transactionId: first.receipt.transactionId, amount: 99 }),
        );
        assert.equal(again.created, false);
        assert.deepEqual(again.receipt, first.receipt);
        const next = await store.receipts.issue(receiptFixture(series));
        assert.equal(next.receipt.sequence, 2, "the repeated issue must not have taken number 2");
      }),
  );

  await t.step(
    "receipts: an invalid input is refused before anything is written",
    () =>
      withStore(open, async (store) => {
        const series = freshSeries();
        const bad: Partial<NewReceipt>[] = [
          { amount: 0 },
          { currency: "EUR" as "ILS" },
          { donorTaxId: "12345" },
          { cardLast4: "45801" },
          { issuedAt: "yesterday" },
          { donorName: " " },
        ];
        for (const overrides of bad) {
          await assert.rejects(() => store.receipts.issue(receiptFixture(series, overrides)), RangeError);
        }
        await assert.rejects(() => store.receipts.issue(receiptFixture("bad series")), RangeError);
        const ok = await store.receipts.issue(receiptFixture(series));
        assert.equal(ok.receipt.sequence, 1, "a refused issue took a number");
      }),
  );

  await t.step(
    "receipts: 200 concurrent issues across two instances number 1..200, none twice",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const series = freshSeries();
        const email = `${uid("gapless")}@example.com`;
        const inputs = Array.from({ length: 200 }, () => receiptFixture(series, { email }));
        // Every transaction issued twice at once: the repeats must take no number.
        const results = await race(a, b, 400, (store, i) => store.receipts.issue(inputs[i % 200]));
        assert.equal(results.filter((r) => r.created).length, 200);
        const byTx = new Map<string, string>();
        for (const { receipt } of results) {
          const seen = byTx.get(receipt.transactionId);
          assert.ok(seen === undefined || seen === receipt.number, "one transaction got two numbers");
          byTx.set(receipt.transactionId, receipt.number);
        }
        const listed = await a.receipts.listByEmail(email, 1000);
        assert.equal(listed.length, 200);
        assert.deepEqual(sequences(listed), oneTo(200));
        assert.equal(new Set(listed.map((r) => r.number)).size, 200);
        const after = await b.receipts.issue(receiptFixture(series));
        assert.equal(after.receipt.sequence, 201);
      }),
  );

  await t.step(
    "receipts: listByDonors and listByEmail, newest first, bounded",
    () =>
      withStore(open, async (store) => {
        const series = freshSeries();
        const [d1, d2, d3] = [uid("donor"), uid("donor"), uid("donor")];
        const email = `${uid("list")}@example.com`;
        const issued: Receipt[] = [];
        for (const [i, donorId] of [d1, d2, d1, d3].entries()) {
          const mail = donorId === d3 ? `${uid("other")}@example.com` : email;
          issued.push(
            (await store.receipts.issue(receiptFixture(series, { donorId, email: mail, issuedAt: at(i) })))
              .receipt,
          );
        }
        const mine = await store.receipts.listByDonors([d1, d2, d1]);
        assert.deepEqual(mine.map((r) => r.number), [issued[2], issued[1], issued[0]].map((r) => r.number));
        assert.deepEqual((await store.receipts.listByDonors([d1, d2], 2)).map((r) => r.number), [
          issued[2].number,
          issued[1].number,
        ]);
        assert.deepEqual(await store.receipts.listByDonors([]), []);
        const byMail = await store.receipts.listByEmail(` ${email.toUpperCase()}`);
        assert.deepEqual(byMail.map((r) => r.sequence), [3, 2, 1]);
        await assert.rejects(() => store.receipts.listByEmail(email, 0), RangeError);
        await assert.rejects(() => store.receipts.listByEmail(email, 1001), RangeError);
      }),
  );

  await t.step(
    "receipts: a report number is recorded once; a different one is refused",
    () =>
      withStore(open, async (store) => {
        const { receipt } = await store.receipts.issue(receiptFixture(freshSeries()));
        const reported = await store.receipts.setReportNumber(receipt.id, "ITA-778899");
        assert.deepEqual(reported, { ...receipt, reportNumber: "ITA-778899" });
        assert.deepEqual(await store.receipts.get(receipt.id), reported);
        assert.deepEqual(await store.receipts.setReportNumber(receipt.id, "ITA-778899"), reported);
        await assert.rejects(() => store.receipts.setReportNumber(receipt.id, "ITA-000000"), RangeError);
        await assert.rejects(() => store.receipts.setReportNumber(receipt.id, ""), RangeError);
        assert.equal(await store.receipts.setReportNumber("rcpt_missing", "ITA-1"), null);
      }),
  );
}
