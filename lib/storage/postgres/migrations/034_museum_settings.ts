/**
 * Migration 34, `museum_settings`: the museum's identity and membership levels (issue 27), and the
 * level a payment was started at.
 *
 * - `museum_settings`: one row (`id` is always 1) holding the settings as `jsonb` (the record of
 *   `museum_records.ts`) and its `version`; a save is one conditional `update` (or the first
 *   `insert`) with its audit entry in the same statement;
 * - `payments.level_id`: the membership level the donor picked, null for any other gift; the
 *   payment's completion makes or renews the donor's membership from it. `create_or_reuse_payment`
 *   (migration 12) is replaced by the same function writing it too.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 34, as `schema_migrations` records it. */
export const migration034 = {
  version: 34,
  name: "museum_settings",
  sql: `
      create table museum_settings (
        id smallint primary key check (id = 1),
        version integer not null check (version > 0),
        settings jsonb not null,
        updated_at timestamptz not null
      );
      alter table payments add column level_id integer;
      -- create_or_reuse_payment of migration 12, writing level_id too.
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
          updated_at, dedupe_key, level_id
        ) values (
          p.id, p.donor_id, p.amount, p.currency, p.is_monthly, p.language, p.channel, p.shop_number,
          p.provider, p.provider_ref, p.page_url, p.user_key, p.confirmation_key, p.status,
          p.transaction_id, p.created_at, p.updated_at, p_dedupe_key, p.level_id
        )
        returning * into created;
        return created;
      end
      $$;
    `,
} as const;
