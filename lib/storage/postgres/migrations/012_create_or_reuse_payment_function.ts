/**
 * Migration 12, `create_or_reuse_payment_function`: the create_or_reuse_payment function.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 12, as `schema_migrations` records it. */
export const migration012 = {
  version: 12,
  name: "create_or_reuse_payment_function",
  sql: `
      -- payments.createOrReuse in one call, for the reason of migration 11: as a transaction of
      -- four statements it held one of the pool's transaction connections across five round trips
      -- to the app, and under load every payment's create waited about a second for one.
      --
      -- One decision per dedupe key at a time (an advisory lock on a hash of the key; other keys do
      -- not wait; released at commit). The payment a repeat may reuse carries the key in
      -- dedupe_key: one still pending and created less than p_window_ms before p_now_ms is answered
      -- as it is; an older or finished one gives the key up to the new payment (p_payment, its
      -- columns as JSON), which is inserted and answered. The caller tells the two apart by id.
      create function create_or_reuse_payment(
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
        -- A new statement after the lock (this function is volatile): it sees the payment of every
        -- decision committed before.
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
          updated_at, dedupe_key
        ) values (
          p.id, p.donor_id, p.amount, p.currency, p.is_monthly, p.language, p.channel, p.shop_number,
          p.provider, p.provider_ref, p.page_url, p.user_key, p.confirmation_key, p.status,
          p.transaction_id, p.created_at, p.updated_at, p_dedupe_key
        )
        returning * into created;
        return created;
      end
      $$;
    `,
};
