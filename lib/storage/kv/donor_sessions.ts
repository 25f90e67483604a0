/**
 * Donors' sign-in links and portal sessions on Deno KV.
 *
 * | key                                          | value         | written by                    |
 * |----------------------------------------------|---------------|-------------------------------|
 * | `["donor_sign_ins", hash]`                   | DonorSignIn   | createSignIn, redeemSignIn    |
 * | `["donor_sign_ins_by_expiry", expiresAt, h]` | hash          | createSignIn                  |
 * | `["donor_sign_ins_by_email", email, h]`      | hash          | createSignIn                  |
 * | `["donor_sessions", hash]`                   | DonorSession  | redeemSignIn, createSession,  |
 * |                                              |               | revokeSession                 |
 * | `["donor_sessions_by_expiry", expiresAt, h]` | hash          | redeemSignIn, createSession   |
 * | `["donor_sessions_by_email", email, h]`      | hash          | redeemSignIn, createSession   |
 *
 * Keyed by the token's hash: the token itself is never stored. `redeemSignIn` reads the link and
 * commits its use and the new session in one atomic operation that checks the link's versionstamp
 * (and the session key as absent): of racing redemptions exactly one commits, the others re-read
 * and find the link used. Retention finds expired records through the expiry indexes written with
 * them (ISO instants in keys sort by time), as refresh tokens do; no `expireIn`, so an expired
 * link is refused as expired (not unknown) until the sweep deletes it.
 *
 * The email indexes (issue 23) make an address's records a range: `deleteForEmail` (a donor's
 * erasure) reads only that range, and after a session is made the address's range is read to keep
 * at most `MAX_SESSIONS_PER_EMAIL` (`sessionsBeyondLimit` chooses; each deletion checks the
 * session as read, so one changed meanwhile is read again). Stores written before the indexes get
 * them from the `donor-session-indexes` data migration (`migrations.ts`), which also deletes the
 * sessions made before sessions had a scope.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { isoInstant, normalizeEmail } from "@/lib/storage/records.ts";
import {
  canonicalDonorSession,
  canonicalDonorSignIn,
  sessionsBeyondLimit,
} from "@/lib/storage/donor_session_records.ts";
import { MAX_SESSIONS_PER_EMAIL } from "@/lib/storage/donor_session_types.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "@/lib/storage/outbox_types.ts";
import type { DonorSession, DonorSessionRepository, DonorSignIn } from "@/lib/storage/types.ts";
import { addMessages, messageKeys } from "./outbox.ts";

export const SIGN_INS = "donor_sign_ins";
const SIGN_INS_BY_EXPIRY = "donor_sign_ins_by_expiry";
const SIGN_INS_BY_EMAIL = "donor_sign_ins_by_email";
export const SESSIONS = "donor_sessions";
const SESSIONS_BY_EXPIRY = "donor_sessions_by_expiry";
const SESSIONS_BY_EMAIL = "donor_sessions_by_email";

/** Records one commit deletes at most (a check and three deletions each: inside KV's limits). */
const CHUNK = 50;

/** A sign-in link's key in the email index (the data migration writes it for older links). */
export const signInEmailKey = (s: Pick<DonorSignIn, "email" | "hash">): Deno.KvKey => [
  SIGN_INS_BY_EMAIL,
  s.email,
  s.hash,
];

/** The keys a record and its indexes occupy (the data migration deletes old sessions by these). */
export const keysOf = (kind: "link" | "session", r: DonorSignIn | DonorSession): Deno.KvKey[] =>
  kind === "link"
    ? [[SIGN_INS, r.hash], [SIGN_INS_BY_EXPIRY, r.expiresAt, r.hash], signInEmailKey(r)]
    : [[SESSIONS, r.hash], [SESSIONS_BY_EXPIRY, r.expiresAt, r.hash], [SESSIONS_BY_EMAIL, r.email, r.hash]];

/** Adds a new session and its index keys to `op`, the session's key checked absent. */
function addSession(op: Deno.AtomicOperation, s: DonorSession): Deno.AtomicOperation {
  const [key, ...indexes] = keysOf("session", s);
  op.check({ key, versionstamp: null }).set(key, s);
  for (const index of indexes) op.set(index, s.hash);
  return op;
}

/** The records an email index range names, and the index keys whose record is gone. */
async function ofEmail<T extends DonorSignIn | DonorSession>(
  { kv, getAll }: KvContext,
  prefix: string,
  record: string,
  email: string,
) {
  const hashes = await retryWhileLocked(async () => {
    const out: string[] = [];
    for await (const e of kv.list<string>({ prefix: [prefix, email] })) out.push(e.key[2] as string);
    return out;
  });
  const read = await getAll<T>(hashes.map((h) => [record, h]));
  return {
    entries: read.filter((e): e is Deno.KvEntry<T> => e.value !== null),
    orphans: hashes.filter((_, i) => read[i].value === null).map((h): Deno.KvKey => [prefix, email, h]),
  };
}

/** Deletes these records with their index keys (each checked as read); false when one changed. */
function deleteRecords(
  { kv }: KvContext,
  kind: "link" | "session",
  entries: Deno.KvEntry<DonorSignIn | DonorSession>[],
  orphans: Deno.KvKey[] = [],
): Promise<boolean> {
  return commit(() => {
    const op = kv.atomic();
    for (const e of entries) {
      op.check(e);
      for (const key of keysOf(kind, e.value)) op.delete(key);
    }
    for (const key of orphans) op.delete(key);
    return op;
  });
}

/** Keeps at most `MAX_SESSIONS_PER_EMAIL` sessions of `email` at `now` (see the module header). */
async function trim(ctx: KvContext, email: string, now: string): Promise<void> {
  let more = true;
  while (more) {
    more = await untilCommitted(async () => {
      const { entries, orphans } = await ofEmail<DonorSession>(ctx, SESSIONS_BY_EMAIL, SESSIONS, email);
      const beyond = new Set(sessionsBeyondLimit(entries.map((e) => e.value), MAX_SESSIONS_PER_EMAIL, now));
      const doomed = entries.filter((e) => beyond.has(e.value)).slice(0, CHUNK);
      if (doomed.length === 0 && orphans.length === 0) return false;
      const ok = await deleteRecords(ctx, "session", doomed, orphans.slice(0, CHUNK));
      return ok ? doomed.length === CHUNK || orphans.length > CHUNK : RETRY;
    });
  }
}

/** Deletes every sign-in link and session of `email` (normalized) with their keys; answers how many. */
async function deleteForEmail(ctx: KvContext, email: string): Promise<number> {
  const wanted = normalizeEmail(email);
  let deleted = 0;
  const kinds = [["link", SIGN_INS_BY_EMAIL, SIGN_INS], ["session", SESSIONS_BY_EMAIL, SESSIONS]] as const;
  for (const [kind, prefix, record] of kinds) {
    let more = true;
    while (more) {
      more = await untilCommitted(async () => {
        const { entries, orphans } = await ofEmail(ctx, prefix, record, wanted);
        if (entries.length === 0 && orphans.length === 0) return false;
        const batch = entries.slice(0, CHUNK);
        if (!(await deleteRecords(ctx, kind, batch, orphans.slice(0, CHUNK)))) return RETRY;
        deleted += batch.length;
        return true;
      });
    }
  }
  return deleted;
}

/** Retention: deletes up to `max` links, then sessions, expired before `cutoff`, with their keys. */
async function deleteExpired({ getAll, indexRange, deleteIndexed }: KvContext, cutoff: string, max: number) {
  // The records are read for their email, so their email index keys go with them.
  const sweep = async (byExpiry: string, record: string, emailIndex: string, count: number) => {
    const expired = await indexRange(byExpiry, cutoff, count);
    const read = await getAll<DonorSignIn | DonorSession>(expired.map((e) => [record, e.key[2] as string]));
    const emailOf = new Map(read.filter((e) => e.value !== null).map((e) => [e.key[1], e.value!.email]));
    const deleted = await deleteIndexed(expired, (e) => {
      const hash = e.key[2] as string;
      const email = emailOf.get(hash);
      return email === undefined ? [[record, hash]] : [[record, hash], [emailIndex, email, hash]];
    });
    return { deleted, found: expired.length };
  };
  const links = await sweep(SIGN_INS_BY_EXPIRY, SIGN_INS, SIGN_INS_BY_EMAIL, max);
  if (links.found >= max) return links.deleted;
  const sessions = await sweep(SESSIONS_BY_EXPIRY, SESSIONS, SESSIONS_BY_EMAIL, max - links.found);
  return links.deleted + sessions.deleted;
}

/** The {@link DonorSessionRepository} of the store on `ctx`. */
export function kvDonorSessions(ctx: KvContext): DonorSessionRepository {
  const { kv } = ctx;
  return {
    async createSignIn(input, options = {}) {
      const s = canonicalDonorSignIn(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const [key, ...indexes] = keysOf("link", s);
      const messageEntries = messages.length > 0
        ? await retryWhileLocked(() => kv.getMany<unknown[]>(messageKeys(messages)))
        : [];
      const ok = await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, s);
        for (const index of indexes) op.set(index, s.hash);
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
      const answer = await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<DonorSignIn>(key));
        const link = entry.value;
        if (link === null) return { ok: false, reason: "unknown" } as const;
        if (link.usedAt !== null) return { ok: false, reason: "used" } as const;
        if (Date.parse(link.expiresAt) <= Date.parse(at)) return { ok: false, reason: "expired" } as const;
        const session = canonicalDonorSession({
          ...input,
          email: link.email,
          revokedAt: null,
          scope: "full",
          donorId: null,
        });
        const done = await commit(() =>
          addSession(kv.atomic().check(entry).set(key, { ...link, usedAt: at }), session)
        );
        return done ? { ok: true, session } as const : RETRY;
      });
      if (answer.ok) await trim(ctx, answer.session.email, answer.session.createdAt);
      return answer;
    },

    async createSession(input) {
      const s = canonicalDonorSession(input);
      if (!(await commit(() => addSession(kv.atomic(), s)))) {
        throw new Error("a session with this hash exists");
      }
      await trim(ctx, s.email, s.createdAt);
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
      return await deleteForEmail(ctx, email);
    },

    async deleteExpired(before, limit) {
      return await deleteExpired(ctx, isoInstant(before, "before"), batchLimit(limit));
    },
  };
}
