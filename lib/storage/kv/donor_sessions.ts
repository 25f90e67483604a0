/**
 * Donors' sign-in links and portal sessions on Deno KV.
 *
 * | key                                          | value         | written by                    |
 * |----------------------------------------------|---------------|-------------------------------|
 * | `["donor_sign_ins", hash]`                   | DonorSignIn   | createSignIn, redeemSignIn    |
 * | `["donor_sign_ins_by_expiry", expiresAt, h]` | hash          | createSignIn                  |
 * | `["donor_sessions", hash]`                   | DonorSession  | redeemSignIn, createSession,  |
 * |                                              |               | revokeSession                 |
 * | `["donor_sessions_by_expiry", expiresAt, h]` | hash          | redeemSignIn, createSession   |
 *
 * Keyed by the token's hash: the token itself is never stored. `redeemSignIn` reads the link and
 * commits its use and the new session in one atomic operation that checks the link's versionstamp
 * (and the session key as absent): of racing redemptions exactly one commits, the others re-read
 * and find the link used. Retention finds expired records through the expiry indexes written with
 * them (ISO instants in keys sort by time), as refresh tokens do; no `expireIn`, so an expired
 * link is refused as expired (not unknown) until the sweep deletes it. `deleteForEmail` (a donor's
 * erasure) reads both prefixes (kept small by retention) and deletes the address's records with
 * their expiry keys, each checked as read.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "../queries.ts";
import { isoInstant, normalizeEmail } from "../records.ts";
import { canonicalDonorSession, canonicalDonorSignIn } from "../donor_session_records.ts";
import { canonicalMessages } from "../outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "../outbox_types.ts";
import type { DonorSession, DonorSessionRepository, DonorSignIn } from "../types.ts";
import { addMessages, messageKeys } from "./outbox.ts";

const SIGN_INS = "donor_sign_ins";
const SIGN_INS_BY_EXPIRY = "donor_sign_ins_by_expiry";
const SESSIONS = "donor_sessions";
const SESSIONS_BY_EXPIRY = "donor_sessions_by_expiry";

/** The {@link DonorSessionRepository} of the store on `ctx`. */
export function kvDonorSessions(
  { kv, getAll, indexRange, deleteIndexed }: KvContext,
): DonorSessionRepository {
  const newSession = (op: Deno.AtomicOperation, s: DonorSession) => {
    const key = [SESSIONS, s.hash];
    return op.check({ key, versionstamp: null }).set(key, s).set(
      [SESSIONS_BY_EXPIRY, s.expiresAt, s.hash],
      s.hash,
    );
  };

  return {
    async createSignIn(input, options = {}) {
      const s = canonicalDonorSignIn(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const key = [SIGN_INS, s.hash];
      const messageEntries = messages.length > 0
        ? await retryWhileLocked(() => kv.getMany<unknown[]>(messageKeys(messages)))
        : [];
      const ok = await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, s)
          .set([SIGN_INS_BY_EXPIRY, s.expiresAt, s.hash], s.hash);
        // The link and its email in one commit: neither exists without the other.
        if (messages.length > 0) addMessages(op, messageEntries, messages, s.createdAt);
        return op;
      });
      if (!ok) throw new Error("a sign-in link with this hash exists");
    },

    async getSignIn(hash) {
      return (await retryWhileLocked(() => kv.get<DonorSignIn>([SIGN_INS, hash]))).value;
    },

    async redeemSignIn(hash, now, input) {
      const at = isoInstant(now, "now");
      const key = [SIGN_INS, hash];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<DonorSignIn>(key));
        const link = entry.value;
        if (link === null) return { ok: false, reason: "unknown" } as const;
        if (link.usedAt !== null) return { ok: false, reason: "used" } as const;
        if (Date.parse(link.expiresAt) <= Date.parse(at)) return { ok: false, reason: "expired" } as const;
        const session = canonicalDonorSession({ ...input, email: link.email, revokedAt: null });
        const done = await commit(() =>
          newSession(kv.atomic().check(entry).set(key, { ...link, usedAt: at }), session)
        );
        return done ? { ok: true, session } as const : RETRY;
      });
    },

    async createSession(input) {
      const s = canonicalDonorSession(input);
      if (!(await commit(() => newSession(kv.atomic(), s)))) {
        throw new Error("a session with this hash exists");
      }
    },

    async getSession(hash) {
      return (await retryWhileLocked(() => kv.get<DonorSession>([SESSIONS, hash]))).value;
    },

    async revokeSession(hash, revokedAt) {
      const at = isoInstant(revokedAt, "revokedAt");
      const key = [SESSIONS, hash];
      await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<DonorSession>(key));
        if (entry.value === null || entry.value.revokedAt !== null) return undefined;
        const ok = await commit(() => kv.atomic().check(entry).set(key, { ...entry.value!, revokedAt: at }));
        return ok ? undefined : RETRY;
      });
    },

    async deleteForEmail(email) {
      const wanted = normalizeEmail(email);
      let deleted = 0;
      for (const [prefix, byExpiry] of [[SIGN_INS, SIGN_INS_BY_EXPIRY], [SESSIONS, SESSIONS_BY_EXPIRY]]) {
        const found = await retryWhileLocked(async () => {
          const out: Deno.KvEntry<DonorSignIn | DonorSession>[] = [];
          for await (
            const e of kv.list<DonorSignIn | DonorSession>({ prefix: [prefix] }, { batchSize: 500 })
          ) {
            if (e.value.email === wanted) out.push(e);
          }
          return out;
        });
        for (let i = 0; i < found.length; i += 50) {
          const chunk = found.slice(i, i + 50);
          // Checked as read: a link used or a session revoked meanwhile is read again and deleted.
          deleted += await untilCommitted(async () => {
            const read = await getAll<DonorSignIn | DonorSession>(chunk.map((e) => e.key));
            const entries = read.filter((e) => e.value !== null);
            const ok = await commit(() => {
              const op = kv.atomic();
              for (const e of entries) {
                op.check(e).delete(e.key).delete([byExpiry, e.value!.expiresAt, e.value!.hash]);
              }
              return op;
            });
            return ok ? entries.length : RETRY;
          });
        }
      }
      return deleted;
    },

    async deleteExpired(before, limit) {
      const cutoff = isoInstant(before, "before");
      const max = batchLimit(limit);
      const links = await indexRange(SIGN_INS_BY_EXPIRY, cutoff, max);
      let deleted = await deleteIndexed(links, (e) => [[SIGN_INS, e.key[2] as string]]);
      if (links.length < max) {
        const sessions = await indexRange(SESSIONS_BY_EXPIRY, cutoff, max - links.length);
        deleted += await deleteIndexed(sessions, (e) => [[SESSIONS, e.key[2] as string]]);
      }
      return deleted;
    },
  };
}
