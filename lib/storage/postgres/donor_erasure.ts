/**
 * Erasing a donor's personal fields on PostgreSQL (`donors.erase`, issue 15), in one transaction:
 * - `donors` (migrations 2, 19, 24): the row locked, then its names, email and `israeli_id`
 *   emptied, `erased_at` set (kept from the first erasure);
 * - `transactions` (migration 6): the donor's rows (`transactions_donor_id`) lose the name and
 *   email copied into them and their `search_text`; amounts, dates, status and result stay;
 * - `transaction_search` (migrations 7, 9): their entries are deleted, and the `search_values`
 *   they named that no entry names any more, so no search finds the erased fields (a value another
 *   donor's transactions also carry stays, theirs).
 * - `receipts` (migration 18): kept as issued (legal copies), but the email address they are
 *   filed under, which they do not print, is emptied.
 * The transactions are erased on every call (a charge recorded after the first erasure is
 * erased by a repeat), the donor row only once.
 *
 * @module
 */
import type postgres from "postgres";
import { ERASED_USER } from "@/lib/storage/records.ts";
import type { PgContext } from "./context.ts";

/** Erases the donor fields of `donorId`'s transactions and the search entries that named them. */
async function eraseTransactions(tx: postgres.TransactionSql, donorId: string): Promise<void> {
  const rows = await tx<{ values: string[] | null }[]>`
    select array_agg(distinct v) filter (where v <> '') as values
    from transactions t, unnest(string_to_array(t.search_text, E'\\x1f')) as f (v)
    where t.donor_id = ${donorId} and t.user_email <> ''
  `;
  const values = rows[0]?.values ?? [];
  await tx`
    delete from transaction_search s using transactions t
    where t.donor_id = ${donorId} and t.user_email <> '' and s.seq_all = t.seq_all
      and s.part = case when t.kind = 'error' then 'e' when t.is_monthly then 'm' else 'o' end
  `;
  await tx`
    update transactions set user_first_name = ${ERASED_USER.firstName}, user_last_name = ${ERASED_USER.lastName},
      user_email = ${ERASED_USER.email}, search_text = ''
    where donor_id = ${donorId} and user_email <> ''
  `;
  if (values.length === 0) return;
  await tx`
    delete from search_values v where v.value = any(${values}::text[])
      and not exists (
        select 1 from transaction_search s where s.part = any('{m,o,e}'::"char"[]) and s.value = v.value
      )
  `;
}

/**
 * `donors.erase` on PostgreSQL: answers the donor's id when it exists (the repository reads it
 * back as stored), or null.
 */
export async function erasePgDonor(ctx: PgContext, id: string, at: string): Promise<string | null> {
  return await ctx.transaction(async (tx) => {
    const [row] = await tx<{ id: string }[]>`select id from donors where id = ${id} for update`;
    if (!row) return null;
    await eraseTransactions(tx, id);
    await tx`update receipts set email = '' where donor_id = ${id} and email <> ''`;
    await tx`
      update donors set first_name = '', last_name = '', email = '', israeli_id = null,
        monthly_payment_available = false, next_payment_date = null,
        erased_at = coalesce(erased_at, ${at}::timestamptz)
      where id = ${id}
    `;
    return id;
  });
}
