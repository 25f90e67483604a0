/**
 * Migration 7, `transaction_search_values`: search_values and transaction_search, the search's tables.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 7, as `schema_migrations` records it. */
export const migration007 = {
  version: 7,
  name: "transaction_search_values",
  sql: `
      -- Searching 1,000,000 transactions through the trigram index on transactions.search_text
      -- costs a visit to the wide row of every match (0.7 s for a name on 2.5% of them, measured by
      -- bench/api.ts), because the total counts them all. Instead: the distinct donor fields
      -- (email, first name, last name; lower-cased by the store) are kept once each in
      -- search_values, where the trigram index finds the few that contain a term, and
      -- transaction_search lists, per part of the lists and field value, the transactions that
      -- carry it: the total is an index-only count of their entries, a page the newest entries of
      -- each value. Parts: 'm' monthly and 'o' one-time successes, 'e' errors.
      create table search_values (
        value text collate "C" primary key
      );
      create table transaction_search (
        part "char" not null constraint transaction_search_part_check check (part in ('m', 'o', 'e')),
        value text collate "C" not null,
        -- transactions.seq_all of the transaction (its position in success-all or error-all; within
        -- a part, the same order as seq_sub).
        seq_all bigint not null,
        constraint transaction_search_pkey primary key (part, value, seq_all)
      );

      insert into search_values (value)
      select distinct f.value
      from transactions t, unnest(string_to_array(t.search_text, E'\\x1f')) as f (value)
      where f.value <> '';
      insert into transaction_search (part, value, seq_all)
      select distinct
        case when t.kind = 'error' then 'e' when t.is_monthly then 'm' else 'o' end,
        f.value,
        t.seq_all
      from transactions t, unnest(string_to_array(t.search_text, E'\\x1f')) as f (value)
      where f.value <> '';

      do $$
      begin
        execute format(
          'create index search_values_trgm on search_values using gin (value %I.gin_trgm_ops)',
          (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
           where e.extname = 'pg_trgm')
        );
      end
      $$;
      -- Searches no longer read it; every insert paid for it.
      drop index transactions_search_text;
      -- Plans for the new tables from the first query on (autovacuum also sets their visibility
      -- maps, which index-only scans need, within a minute or so).
      analyze search_values;
      analyze transaction_search;
    `,
};
