/**
 * Migration 17, `outbox`: the messages to people, stored with the event that causes them and
 * worked by the sender (issue 14, `../outbox.ts`).
 *
 * History: once released it is never edited (see `../migrations.ts`).
 *
 * @module
 */

/** Migration 17, as `schema_migrations` records it. */
export const migration017 = {
  version: 17,
  name: "outbox",
  sql: `
      -- One row per message, keyed by its idempotency key (byte order, as Deno KV orders keys).
      -- due_at is set exactly while the message is queued: when it may next be claimed.
      create table outbox (
        key text collate "C" primary key,
        kind text not null,
        recipient jsonb not null,
        language text not null,
        data jsonb not null,
        created_at timestamptz not null,
        state text not null default 'queued' check (state in ('queued', 'sent', 'skipped', 'failed')),
        attempts integer not null default 0,
        due_at timestamptz,
        claimed_by text,
        last_error text,
        settled_at timestamptz,
        check ((state = 'queued') = (due_at is not null))
      );
      -- claim(now): one range of the queued messages by due time, however many were sent.
      create index outbox_due on outbox (due_at, key) where state = 'queued';
      -- listRecent: newest first, a page at a time.
      create index outbox_recent on outbox (created_at desc, key desc);
    `,
};
