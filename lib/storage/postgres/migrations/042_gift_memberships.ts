/**
 * Migration 42, `gift_memberships`: the gift a payment carries (issue 28, item 3).
 *
 * - `payments.gift`: a gift membership's recipient (their donor record), delivery time, message,
 *   reminders choice and language, as `jsonb` (the canonical form of `records.ts`); null for any
 *   other payment. `create_or_reuse_payment` (migration 39's, which writes `auto_renew`) is replaced
 *   by the same function writing it too.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 42, as `schema_migrations` records it. */
export const migration042 = {
  version: 42,
  name: "gift_memberships",
  sql: `
      alter table payments add column gift jsonb;
      -- create_or_reuse_payment of migration 39, writing gift too.
      create or replace function create_or_reuse_payment(
        p_payment jsonb, p_dedupe_key text, p_window_ms bigint, p_now_ms bigint
      ) returns payments
      language plpgsql as $$
      declare
        p payments := jsonb_populate_record(null::payments, p_payment);
        holder payments;
        created payments;
      begin
        perform pg_advisory_xact_lock(
          hashtextextended('donations.payments.dedupe:' || current_schema() || ':' || p_dedupe_key, 0)
        );
        select * into holder from payments where dedupe_key = p_dedupe_key;
        if holder.id is not null and holder.status = 'pending'
          and p_now_ms - extract(epoch from holder.created_at) * 1000 < p_window_ms then
          return holder;
        end if;
        if holder.id is not null then
          update payments set dedupe_key = null where id = holder.id;
        end if;
        insert into payments (
          id, donor_id, amount, currency, is_monthly, language, channel, shop_number, provider,
          provider_ref, page_url, user_key, confirmation_key, status, transaction_id, created_at,
          updated_at, dedupe_key, level_id, auto_renew, gift
        ) values (
          p.id, p.donor_id, p.amount, p.currency, p.is_monthly, p.language, p.channel, p.shop_number,
          p.provider, p.provider_ref, p.page_url, p.user_key, p.confirmation_key, p.status,
          p.transaction_id, p.created_at, p.updated_at, p_dedupe_key, p.level_id,
          coalesce(p.auto_renew, false), p.gift
        )
        returning * into created;
        return created;
      end
      $$;
    `,
} as const;
