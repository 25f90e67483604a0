/**
 * Receipts on PostgreSQL (issue 14): issued once per transaction, numbered gaplessly per series.
 *
 * Tables (migration 18): `receipts`, one row per receipt (unique by transaction, by number and by
 * `(series, sequence)`), and `receipt_counters`, the last number of each series. `issue` is one
 * transaction: it moves the series' counter with `insert ... on conflict do update ... returning`,
 * which takes the counter row's lock until commit, then inserts the receipt with `on conflict
 * (transaction_id) do nothing`. When the transaction already has a receipt (found before, or
 * committed by a racing issue while this one waited for the lock) the transaction is rolled back,
 * counter included, and the existing receipt is answered: a number is committed only with its
 * receipt, so none is skipped or taken twice. The lock is held for two statements, within one
 * connection; payments never wait on it (receipts are issued when their email is rendered).
 * Lists read the `(donor_id | email, issued_at desc, number desc)` indexes; `byTransactions` reads a
 * page's receipts in one statement on the unique transaction index.
 *
 * @module
 */

import { normalizeEmail } from "@/lib/storage/records.ts";
import {
  canonicalNewReceipt,
  checkReportNumber,
  receiptListLimit,
  receiptNumber,
  receiptTransactionIds,
} from "@/lib/storage/receipt_records.ts";
import type {
  Receipt,
  ReceiptIssuer,
  ReceiptMembership,
  ReceiptRepository,
} from "@/lib/storage/receipt_types.ts";
import type { PgContext } from "./context.ts";

/** The row shape of `receipts`. */
interface ReceiptRow {
  id: string;
  series: string;
  sequence: string | number;
  number: string;
  transaction_id: string;
  donor_id: string;
  email: string;
  issued_at: Date;
  gift_date: Date;
  donor_name: string;
  donor_tax_id: string | null;
  amount: string | number;
  currency: "ILS" | "USD";
  is_monthly: boolean;
  payment_method: "card";
  card_last4: string | null;
  issuer: ReceiptIssuer;
  report_number: string | null;
  membership: ReceiptMembership | null;
}

/** `jsonb` keeps no key order: the level copied back into its canonical shape. */
const toMembership = (m: ReceiptMembership): ReceiptMembership => ({
  levelId: m.levelId,
  levelName: { ...m.levelName },
  benefitsValue: m.benefitsValue,
  donationShare: m.donationShare,
  donation: m.donation,
});

const toReceipt = (row: ReceiptRow): Receipt => ({
  id: row.id,
  series: row.series,
  sequence: Number(row.sequence),
  number: row.number,
  transactionId: row.transaction_id,
  donorId: row.donor_id,
  email: row.email,
  issuedAt: row.issued_at.toISOString(),
  giftDate: row.gift_date.toISOString(),
  donorName: row.donor_name,
  donorTaxId: row.donor_tax_id,
  amount: Number(row.amount),
  currency: row.currency,
  isMonthly: row.is_monthly,
  paymentMethod: row.payment_method,
  cardLast4: row.card_last4,
  issuer: row.issuer,
  reportNumber: row.report_number,
  ...(row.membership ? { membership: toMembership(row.membership) } : {}),
});

/** Rolls an issue back when its transaction turned out to have a receipt. */
const EXISTS = Symbol("exists");

/**
 * The {@link ReceiptRepository} on `receipts` and `receipt_counters`.
 *
 * @example
 * ```ts
 * const { receipt } = await pgReceipts(ctx).issue(newReceipt);
 * ```
 */
export function pgReceipts({ sql, transaction }: PgContext): ReceiptRepository {
  const byTransaction = async (transactionId: string) => {
    const [row] = await sql<ReceiptRow[]>`select * from receipts where transaction_id = ${transactionId}`;
    return row ? toReceipt(row) : null;
  };

  const get = async (id: string) => {
    const [row] = await sql<ReceiptRow[]>`select * from receipts where id = ${id}`;
    return row ? toReceipt(row) : null;
  };

  return {
    async issue(input) {
      const r = canonicalNewReceipt(input);
      const existing = await byTransaction(r.transactionId);
      if (existing) return { created: false, receipt: existing };
      let row: ReceiptRow | typeof EXISTS;
      try {
        row = await transaction(async (tx) => {
          const [{ last_value }] = await tx<{ last_value: string }[]>`
            insert into receipt_counters (series, last_value) values (${r.series}, 1)
            on conflict (series) do update set last_value = receipt_counters.last_value + 1
            returning last_value
          `;
          const sequence = Number(last_value);
          const [inserted] = await tx<ReceiptRow[]>`
            insert into receipts (id, series, sequence, number, transaction_id, donor_id, email, issued_at,
              gift_date, donor_name, donor_tax_id, amount, currency, is_monthly, payment_method, card_last4,
              issuer, report_number, membership)
            values (${r.id}, ${r.series}, ${sequence}, ${
            receiptNumber(r.series, sequence)
          }, ${r.transactionId},
              ${r.donorId}, ${r.email}, ${r.issuedAt}, ${r.giftDate}, ${r.donorName}, ${r.donorTaxId},
              ${r.amount}, ${r.currency}, ${r.isMonthly}, ${r.paymentMethod}, ${r.cardLast4},
              ${tx.json({ ...r.issuer })}, null,
              ${r.membership ? tx.json({ ...r.membership }) : null})
            on conflict (transaction_id) do nothing
            returning *
          `;
          if (!inserted) throw EXISTS;
          return inserted;
        });
      } catch (error) {
        if (error !== EXISTS) throw error;
        row = EXISTS;
      }
      if (row !== EXISTS) return { created: true, receipt: toReceipt(row) };
      const found = await byTransaction(r.transactionId);
      if (!found) throw new Error(`the receipt of transaction ${r.transactionId} vanished`);
      return { created: false, receipt: found };
    },

    get,

    byTransaction,

    async byTransactions(transactionIds) {
      const ids = receiptTransactionIds(transactionIds);
      if (ids.length === 0) return new Map();
      const rows = await sql<ReceiptRow[]>`select * from receipts where transaction_id = any(${ids}::text[])`;
      return new Map(rows.map((row) => [row.transaction_id, toReceipt(row)]));
    },

    async listByDonors(donorIds, limit) {
      const max = receiptListLimit(limit);
      const ids = [...new Set(donorIds)];
      if (ids.length === 0) return [];
      const rows = await sql<ReceiptRow[]>`
        select * from receipts where donor_id = any(${ids}::text[])
        order by issued_at desc, number desc limit ${max}
      `;
      return rows.map(toReceipt);
    },

    async listByEmail(email, limit) {
      const rows = await sql<ReceiptRow[]>`
        select * from receipts where email = ${normalizeEmail(email)}
        order by issued_at desc, number desc limit ${receiptListLimit(limit)}
      `;
      return rows.map(toReceipt);
    },

    async setReportNumber(id, reportNumber) {
      checkReportNumber(reportNumber);
      const [row] = await sql<ReceiptRow[]>`
        update receipts set report_number = ${reportNumber}
        where id = ${id} and (report_number is null or report_number = ${reportNumber})
        returning *
      `;
      if (row) return toReceipt(row);
      const current = await get(id);
      if (current === null) return null;
      throw new RangeError(`receipt ${current.number} already has report number ${current.reportNumber}`);
    },
  };
}
