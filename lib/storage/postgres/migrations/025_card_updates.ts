/**
 * Migration 25, `card_updates`: the donor portal's attempts to replace a monthly gift's card through
 * the provider's hosted page in tokenization mode (issue 15). One row per attempt, keyed by its
 * random id, with the gift, the donor ids allowed to act, the provider's page reference (unique per
 * provider, so the provider's notification finds exactly one attempt), the attempt's validation keys,
 * and its status (`open` until verified with the provider, then final once). A partial index of the
 * open attempts, oldest first, is what reconciliation reads (`cardUpdates.listOpen`).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 25, as `schema_migrations` records it. */
export const migration025 = {
  version: 25,
  name: "card_updates",
  sql: `
      create table card_updates (
        id text collate "C" primary key,
        subscription_id text not null,
        donor_ids text[] not null,
        provider text not null,
        provider_ref text,
        user_key text not null,
        confirmation_key text,
        language text not null,
        status text not null
          constraint card_updates_status_check check (status in ('open', 'applied', 'declined', 'failed')),
        status_code text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create unique index card_updates_provider_ref on card_updates (provider, provider_ref)
        where provider_ref is not null;
      create index card_updates_open on card_updates (created_at, id) where status = 'open';
    `,
};
