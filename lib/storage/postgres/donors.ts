/**
 * Donors on PostgreSQL.
 *
 * Table `donors` (migration 2): one row per donor, keyed by the donor's id (144 random bits, the
 * cancel link's capability), with the contract's fields as columns and instants as
 * `timestamptz`. Read by id (the primary key) and by email (`idsByEmail`, paged after a cursor in
 * byte order: index `donors_email_c` on `(email, id collate "C")`, migration 32, which replaced
 * migration 21's `donors_email`). `update` sets only the columns it is given, in one statement.
 * `deleteUnused` (issue 23) is one statement whose `not exists` each read an index by donor
 * (`payments_donor_id` of migration 32, and the transactions', subscriptions', receipts' and
 * outbox's). `erased_at` (migration 24) marks a
 * donor erased at their request; `erase` is in `donor_erasure.ts` (it rewrites transactions too). `israeli_id` (migration 19)
 * holds the donor's Israeli ID number for Section 46 receipts, nine digits or null, checked by the
 * table as well (a constraint), so no other writer can store a malformed one.
 *
 * @module
 */

import { batchLimit } from "@/lib/storage/queries.ts";
import { canonicalDonor, isoInstant, isoInstantOrNull, normalizeEmail } from "@/lib/storage/records.ts";
import type postgres from "postgres";
import type { Donor, DonorRepository, Refusal } from "@/lib/storage/types.ts";
import { iso, type PgContext } from "./context.ts";
import { admissionAnswer, admissionArgs } from "./rate_limits.ts";
import { erasePgDonor } from "./donor_erasure.ts";

/** The row shape of `donors`. */
interface DonorRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  country: string;
  created_at: Date;
  payment_date: Date | null;
  next_payment_date: Date | null;
  monthly_payment_available: boolean;
  israeli_id: string | null;
  erased_at?: Date | null;
}

/** A donor's columns, as `jsonb_populate_record` reads them into a `donors` row. */
const donorColumns = (d: Donor) => ({
  id: d.id,
  first_name: d.firstName,
  last_name: d.lastName,
  email: d.email,
  country: d.country,
  created_at: d.createdAt,
  payment_date: d.paymentDate,
  next_payment_date: d.nextPaymentDate,
  monthly_payment_available: d.monthlyPaymentAvailable,
  israeli_id: d.israeliId,
  ...(d.erasedAt ? { erased_at: d.erasedAt } : {}),
});

const toDonor = (row: DonorRow): Donor => ({
  id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  country: row.country,
  createdAt: row.created_at.toISOString(),
  paymentDate: iso(row.payment_date),
  nextPaymentDate: iso(row.next_payment_date),
  monthlyPaymentAvailable: row.monthly_payment_available,
  israeliId: row.israeli_id,
  ...(row.erased_at ? { erasedAt: row.erased_at.toISOString() } : {}),
});

/**
 * The {@link DonorRepository} on `donors`.
 *
 * @example
 * ```ts
 * const donor = await pgDonors(ctx).get(id);
 * ```
 */
export function pgDonors(ctx: PgContext): DonorRepository {
  const { sql } = ctx;
  const donors: DonorRepository = {
    async create(input) {
      const d = canonicalDonor(input);
      const [row] = await sql<DonorRow[]>`insert into donors ${sql(donorColumns(d))} returning *`;
      return toDonor(row);
    },

    async createAdmitted(input, admission, now) {
      const d = canonicalDonor(input);
      const a = admissionArgs(admission, now);
      // One call, two commits (migration 20): the counts at once, then the donor, durably.
      const [row] = await sql<{ o_refused: Refusal["reason"] | null; o_retry_after_ms: string | null }[]>`
        call donor_create_admitted(
          ${sql.json(donorColumns(d) as postgres.JSONValue)},
          ${a.keys}::text[], ${a.limits}::integer[], ${a.windowMs}, ${now},
          ${a.capKeys}::text[], ${a.caps}::integer[], null, null
        )
      `;
      const answer = admissionAnswer(row.o_refused, row.o_retry_after_ms);
      return answer.admitted ? { admitted: true, donor: d } : answer;
    },

    async get(id) {
      const [row] = await sql<DonorRow[]>`select * from donors where id = ${id}`;
      return row ? toDonor(row) : null;
    },

    async idsByEmail(email, limit, after) {
      const max = batchLimit(limit);
      const rows = await sql<{ id: string }[]>`
        select id from donors
        where email = ${normalizeEmail(email)} ${
        after === undefined ? sql`` : sql`and id collate "C" > ${after}`
      }
        order by id collate "C" limit ${max}
      `;
      return rows.map((r) => r.id);
    },

    async deleteUnused(id, createdBefore) {
      const rows = await sql`
        delete from donors d
        where d.id = ${id} and d.erased_at is null and d.created_at < ${
        isoInstant(createdBefore, "createdBefore")
      }
          and not exists (select 1 from payments p where p.donor_id = d.id)
          and not exists (select 1 from transactions t where t.donor_id = d.id)
          and not exists (select 1 from subscriptions s where s.donor_id = d.id)
          and not exists (select 1 from receipts r where r.donor_id = d.id)
          and not exists (select 1 from outbox m where m.recipient->>'donorId' = d.id)
        returning d.id
      `;
      return rows.length === 1;
    },

    async update(id, changes) {
      const set: Record<string, string | boolean | null> = {};
      if (changes.paymentDate !== undefined) {
        set.payment_date = isoInstantOrNull(changes.paymentDate, "paymentDate");
      }
      if (changes.nextPaymentDate !== undefined) {
        set.next_payment_date = isoInstantOrNull(changes.nextPaymentDate, "nextPaymentDate");
      }
      if (changes.monthlyPaymentAvailable !== undefined) {
        set.monthly_payment_available = changes.monthlyPaymentAvailable;
      }
      if (Object.keys(set).length === 0) return await donors.get(id);
      const [row] = await sql<DonorRow[]>`update donors set ${sql(set)} where id = ${id} returning *`;
      return row ? toDonor(row) : null;
    },

    async erase(id, at) {
      const erased = await erasePgDonor(ctx, id, isoInstant(at, "at"));
      return erased === null ? null : await donors.get(id);
    },
  };
  return donors;
}
