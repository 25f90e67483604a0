/**
 * Refresh tokens and revoked token families on Deno KV.
 *
 * | key                                            | value           | written by       |
 * |------------------------------------------------|-----------------|------------------|
 * | `["refresh_tokens", hash]`                     | RefreshToken    | create, markUsed |
 * | `["refresh_tokens_by_expiry", expiresAt, h]`   | hash            | create           |
 * | `["refresh_families_revoked", familyId]`       | `{ revokedAt }` | revokeFamily     |
 * | `["refresh_families_revoked_by_time", at, id]` | family id       | revokeFamily     |
 *
 * `markUsed` checks the token's versionstamp: exactly one caller sees it unused. A value written
 * before tokens carried `familyStartedAt` reads back with its own `createdAt` as the family's
 * start (`canonicalRefreshToken`), so such a family ends 30 days after its latest refresh. `revokeFamily`
 * writes only the first revocation (its time is kept).
 *
 * Retention: KV has no `delete where`, so what retention deletes is found through a time index
 * written with the record (tokens by expiry, revoked families by revocation time; ISO instants in
 * keys sort by time). A sweep reads one bounded range of an index and deletes the index entries
 * and their records a few at a time, each entry checked as read (`KvContext.deleteIndexed`): two
 * instances sweeping at once delete (and count) each record once. Stores written before these
 * indexes existed get them from the `time-indexes` data migration (`migrations.ts`).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { canonicalRefreshToken, isoInstant } from "@/lib/storage/records.ts";
import type { RefreshToken, RefreshTokenRepository } from "@/lib/storage/types.ts";

/** The first key part of every refresh token, by hash. */
export const REFRESH_TOKENS = "refresh_tokens";
/** The first key part of every revoked-family marker. */
export const REFRESH_FAMILIES_REVOKED = "refresh_families_revoked";
/** The time index of tokens by expiry, for retention. */
const REFRESH_TOKENS_BY_EXPIRY = "refresh_tokens_by_expiry";
/** The time index of revoked families by revocation time, for retention. */
const REFRESH_FAMILIES_REVOKED_BY_TIME = "refresh_families_revoked_by_time";

/** The stored value of a `["refresh_families_revoked", familyId]` key. */
export interface RevokedFamilyValue {
  revokedAt: string;
}

/** The `["refresh_tokens_by_expiry", expiresAt, hash]` key of a token. */
export function tokenExpiryKey(t: RefreshToken): Deno.KvKey {
  return [REFRESH_TOKENS_BY_EXPIRY, t.expiresAt, t.hash];
}

/** The `["refresh_families_revoked_by_time", revokedAt, familyId]` key of a revoked family. */
export function revokedTimeKey(familyId: string, revokedAt: string): Deno.KvKey {
  return [REFRESH_FAMILIES_REVOKED_BY_TIME, revokedAt, familyId];
}

/** The {@link RefreshTokenRepository} of the store on `ctx`. */
export function kvRefreshTokens({ kv, indexRange, deleteIndexed }: KvContext): RefreshTokenRepository {
  return {
    async create(input, options = {}) {
      const token = canonicalRefreshToken(input);
      const audit = auditEntries(options.audit, token.createdAt, MAX_AUDIT_PER_CAUSE);
      const key = [REFRESH_TOKENS, token.hash];
      // A sign-in's entry commits with its token.
      const ok = await commit(() =>
        addAudit(
          kv.atomic().check({ key, versionstamp: null }).set(key, token).set(
            tokenExpiryKey(token),
            token.hash,
          ),
          audit,
        )
      );
      if (!ok) throw new Error("a refresh token with this hash exists");
    },

    async get(hash) {
      const { value } = await retryWhileLocked(() => kv.get<RefreshToken>([REFRESH_TOKENS, hash]));
      // Canonical on the way out too: a value written before `familyStartedAt` existed gets one.
      return value === null ? null : canonicalRefreshToken(value);
    },

    async markUsed(hash, usedAt) {
      const key = [REFRESH_TOKENS, hash];
      const at = isoInstant(usedAt, "usedAt");
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<RefreshToken>(key));
        if (entry.value === null || entry.value.usedAt !== null) return false;
        const used: RefreshToken = { ...canonicalRefreshToken(entry.value), usedAt: at };
        return (await commit(() => kv.atomic().check(entry).set(key, used))) ? true : RETRY;
      });
    },

    async revokeFamily(familyId, revokedAt) {
      const key = [REFRESH_FAMILIES_REVOKED, familyId];
      const value: RevokedFamilyValue = { revokedAt: isoInstant(revokedAt, "revokedAt") };
      // Only the first revocation is written (its time is kept); a later one finds the key and is done.
      await commit(() =>
        kv.atomic().check({ key, versionstamp: null }).set(key, value)
          .set(revokedTimeKey(familyId, value.revokedAt), familyId)
      );
    },

    async isFamilyRevoked(familyId) {
      const entry = await retryWhileLocked(() =>
        kv.get<RevokedFamilyValue>([REFRESH_FAMILIES_REVOKED, familyId])
      );
      return entry.value !== null;
    },

    async deleteExpired(before, limit) {
      const entries = await indexRange(
        REFRESH_TOKENS_BY_EXPIRY,
        isoInstant(before, "before"),
        batchLimit(limit),
      );
      return await deleteIndexed(entries, (entry) => [[REFRESH_TOKENS, entry.key[2] as string]]);
    },

    async deleteRevokedBefore(before, limit) {
      const entries = await indexRange(
        REFRESH_FAMILIES_REVOKED_BY_TIME,
        isoInstant(before, "before"),
        batchLimit(limit),
      );
      return await deleteIndexed(entries, (entry) => [[REFRESH_FAMILIES_REVOKED, entry.key[2] as string]]);
    },
  };
}
