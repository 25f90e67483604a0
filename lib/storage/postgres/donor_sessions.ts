/**
 * Donors' sign-in links and portal sessions on PostgreSQL.
 *
 * Tables (migration 21): `donor_sign_ins` and `donor_sessions`, each keyed by the SHA-256 of its
 * token (never the token), with the normalized email, the expiry (indexed, for retention) and
 * `used_at` / `revoked_at`; since migration 33 a session's `scope` and `donor_id`, and both tables
 * indexed by email.
 *
 * `redeemSignIn` is one statement: an `update ... where used_at is null and expires_at > now
 * returning email` feeding the session's `insert`. The row lock makes racing redemptions wait, and
 * each re-checks `used_at` after the winner commits, so exactly one uses the link and creates its
 * session; a refused redemption then reads the link once to say why. `revokeSession` writes only
 * the first revocation. Retention deletes a batch per statement with `for update skip locked`, so
 * two sweepers split the rows. `deleteForEmail` (a donor's erasure) deletes the address's rows of
 * both tables through their email indexes. After a session is made, one more statement keeps the
 * address's `MAX_SESSIONS_PER_EMAIL` first sessions in `sessionsBeyondLimit`'s order (live before
 * revoked or expired, then newest) and deletes the rest, under a transaction-scoped advisory lock
 * per address; run after the insert committed, the last of several concurrent ones sees them all.
 *
 * @module
 */

import { batchLimit } from "@/lib/storage/queries.ts";
import { isoInstant, normalizeEmail } from "@/lib/storage/records.ts";
import { canonicalDonorSession, canonicalDonorSignIn } from "@/lib/storage/donor_session_records.ts";
import { MAX_SESSIONS_PER_EMAIL } from "@/lib/storage/donor_session_types.ts";
import type { DonorSession, DonorSessionRepository, DonorSignIn } from "@/lib/storage/types.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "@/lib/storage/outbox_types.ts";
import { iso, type PgContext } from "./context.ts";
import { insertMessages } from "./outbox.ts";

interface SignInRow {
  hash: string;
  email: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

interface SessionRow {
  hash: string;
  email: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  scope: DonorSession["scope"];
  donor_id: string | null;
}

const toSignIn = (r: SignInRow): DonorSignIn => ({
  hash: r.hash,
  email: r.email,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  usedAt: iso(r.used_at),
});

const toSession = (r: SessionRow): DonorSession => ({
  hash: r.hash,
  email: r.email,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  revokedAt: iso(r.revoked_at),
  scope: r.scope,
  donorId: r.donor_id,
});

/** The {@link DonorSessionRepository} on `donor_sign_ins` and `donor_sessions`. */
export function pgDonorSessions({ sql, transaction }: PgContext): DonorSessionRepository {
  /**
   * Keeps the address's first sessions, as the module header says, at `now`. Trims of one address
   * take turns on an advisory lock: two deletes of overlapping rows, each locking them in its own
   * order, deadlocked.
   */
  const trim = async (email: string, now: string) => {
    await transaction(async (tx) => {
      await tx`
        select pg_advisory_xact_lock(hashtextextended('donations.donor_sessions:' || current_schema() || ':' || ${email}, 0))
      `;
      await tx`
        delete from donor_sessions where hash in (
          select hash from donor_sessions where email = ${email}
          order by (revoked_at is not null or expires_at <= ${now}), created_at desc, hash desc
          offset ${MAX_SESSIONS_PER_EMAIL}
        )
      `;
    });
  };

  return {
    async createSignIn(input, options = {}) {
      const s = canonicalDonorSignIn(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const insert = sql`
        insert into donor_sign_ins (hash, email, created_at, expires_at, used_at)
        values (${s.hash}, ${s.email}, ${s.createdAt}, ${s.expiresAt}, ${s.usedAt})
        returning hash
      `;
      if (messages.length === 0) {
        await sql`${insert}`;
        return;
      }
      // One statement: the link and its email, neither without the other.
      await sql`
        with link as (${insert}),
        messages as (${insertMessages(sql, messages, s.createdAt, sql`where exists (select 1 from link)`)})
        select 1
      `;
    },

    async getSignIn(hash) {
      const [row] = await sql<SignInRow[]>`select * from donor_sign_ins where hash = ${hash}`;
      return row ? toSignIn(row) : null;
    },

    async redeemSignIn(hash, now, input) {
      const at = isoInstant(now, "now");
      // Checked before the statement with a placeholder address; the stored one is the link's.
      const s = canonicalDonorSession({
        ...input,
        email: "checked@example.org",
        revokedAt: null,
        scope: "full",
        donorId: null,
      });
      const [row] = await sql<SessionRow[]>`
        with used as (
          update donor_sign_ins set used_at = ${at}
          where hash = ${hash} and used_at is null and expires_at > ${at}
          returning email
        )
        insert into donor_sessions (hash, email, created_at, expires_at, revoked_at, scope, donor_id)
        select ${s.hash}, email, ${s.createdAt}, ${s.expiresAt}, null, 'full', null from used
        returning *
      `;
      if (row) {
        await trim(row.email, s.createdAt);
        return { ok: true, session: toSession(row) };
      }
      const [link] = await sql<SignInRow[]>`select * from donor_sign_ins where hash = ${hash}`;
      return { ok: false, reason: !link ? "unknown" : link.used_at !== null ? "used" : "expired" };
    },

    async createSession(input) {
      const s = canonicalDonorSession(input);
      await sql`
        insert into donor_sessions (hash, email, created_at, expires_at, revoked_at, scope, donor_id)
        values (${s.hash}, ${s.email}, ${s.createdAt}, ${s.expiresAt}, ${s.revokedAt}, ${s.scope}, ${s.donorId})
      `;
      await trim(s.email, s.createdAt);
    },

    async getSession(hash) {
      const [row] = await sql<SessionRow[]>`select * from donor_sessions where hash = ${hash}`;
      return row ? toSession(row) : null;
    },

    async revokeSession(hash, revokedAt) {
      await sql`
        update donor_sessions set revoked_at = ${isoInstant(revokedAt, "revokedAt")}
        where hash = ${hash} and revoked_at is null
      `;
    },

    async deleteForEmail(email) {
      const wanted = normalizeEmail(email);
      const links = await sql`delete from donor_sign_ins where email = ${wanted}`;
      const sessions = await sql`delete from donor_sessions where email = ${wanted}`;
      return links.count + sessions.count;
    },

    async deleteExpired(before, limit) {
      const cutoff = isoInstant(before, "before");
      const max = batchLimit(limit);
      const links = await sql`
        delete from donor_sign_ins where hash in (
          select hash from donor_sign_ins where expires_at < ${cutoff}
          order by expires_at limit ${max} for update skip locked
        )
      `;
      if (links.count >= max) return links.count;
      const sessions = await sql`
        delete from donor_sessions where hash in (
          select hash from donor_sessions where expires_at < ${cutoff}
          order by expires_at limit ${max - links.count} for update skip locked
        )
      `;
      return links.count + sessions.count;
    },
  };
}
