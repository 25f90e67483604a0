/**
 * Retention: deletes what can no longer matter, so storage does not grow without bound while the
 * site runs for years. Run it once a day (any instance; two at once are safe).
 *
 * What goes, and why it is safe:
 * - refresh tokens a day past their expiry, used or not. An expired token is refused anyway, and
 *   a used one is kept until then, so presenting it again is still caught as reuse for as long as
 *   it could be accepted. The extra day outlasts any refresh request that read the token before
 *   it expired (a token gone under such a request would look reused and revoke its family);
 * - revoked-family markers once no token of the family can be accepted: every token of a family
 *   was issued before its revocation (or within that request), so all have expired a refresh
 *   token's lifetime after it; a day is added for the same reason as above;
 * - expired signature nonces, and throttle events a day old (the login window is 15 minutes). On
 *   Deno KV these expire by themselves, and the sweep has nothing to do;
 * - rate-limit windows that have ended and payment origins past their day (`rate_limits.ts`): an
 *   ended window counts nothing any more. On Deno KV these expire by themselves too;
 * - sandbox records (the simulated processor's books) untouched for {@link SANDBOX_RETENTION_MS},
 *   unless one is still read later: see `sandboxRecordNeeded` in `payments/sandbox.ts`;
 * - donor portal sign-in links and sessions a day past their expiry (`lib/donor_portal/sign_in.ts`):
 *   both are refused once expired, used or not, revoked or not.
 *
 * Never deleted: transactions, payments, donors, subscriptions, charges and admins, which are
 * the museum's records.
 *
 * Each kind is deleted in batches of {@link RETENTION_BATCH}: one short statement per batch on
 * PostgreSQL, a few small commits on Deno KV, so a sweep never holds a long transaction or one
 * huge commit, whatever backlog a first run finds.
 *
 * @module
 */
import { REFRESH_TOKEN_TTL_DAYS } from "@/lib/staff/mod.ts";
import type { Logger } from "@/lib/core/log.ts";
import { sandboxRecordNeeded } from "@/lib/providers/mod.ts";
import type { SandboxRecord, Store } from "@/lib/storage/types.ts";

const DAY_MS = 86_400_000;

/** How long an expired refresh token (and a revoked family past its tokens) is kept anyway. */
export const TOKEN_GRACE_MS = DAY_MS;

/** Throttle events older than this are deleted: far longer than any throttle window (15 min). */
export const THROTTLE_RETENTION_MS = DAY_MS;

/**
 * Sandbox records untouched this long are deleted unless still needed. Thirty days is well past
 * everything that reads a finished one (the return, the notification and reconciliation, which
 * gives up after 7 days), and leaves a month for a person looking into a demo payment; the
 * sandbox moves no money, so nothing else is lost.
 */
export const SANDBOX_RETENTION_MS = 30 * DAY_MS;

/** Rows one batch deletes at most. */
export const RETENTION_BATCH = 500;

/** How many records of each kind a sweep deleted (and kept, for the sandbox). */
export interface RetentionReport {
  refreshTokens: number;
  revokedFamilies: number;
  nonces: number;
  throttleEvents: number;
  /** Ended rate-limit windows and expired payment origins. */
  rateLimits: number;
  sandboxRecords: number;
  /** Donor portal sign-in links and sessions past their expiry (and the grace). */
  donorSessions: number;
  /** Sandbox records old enough to go, kept because they are still needed. */
  sandboxKept: number;
  /** Kinds whose sweep failed (storage unavailable, say); the next sweep carries on. */
  failed: string[];
  /** False when a kind stopped at `maxBatches` with more left (the next sweep continues). */
  complete: boolean;
}

/** What a sweep needs. */
export interface RetentionOptions {
  store: Store;
  log: Logger;
  /** The time to sweep at; now by default. */
  now?: Date;
  /** Rows per batch (1..1,000); {@link RETENTION_BATCH} by default. */
  batch?: number;
  /** Batches per kind at most, to bound one sweep's time; 200 by default. */
  maxBatches?: number;
}

/**
 * Runs one retention sweep over every kind and logs one line with the counts (`retention sweep`).
 * A kind that fails is logged and skipped; the others still run.
 *
 * @example Once a day, next to billing
 * ```ts
 * import { runRetentionSweep } from "./retention.ts";
 * Deno.cron("retention", "17 3 * * *", async () => {
 *   await runRetentionSweep({ store: services.store, log });
 * });
 * ```
 */
export async function runRetentionSweep(options: RetentionOptions): Promise<RetentionReport> {
  const { store, log } = options;
  const now = (options.now ?? new Date()).getTime();
  const batch = options.batch ?? RETENTION_BATCH;
  const maxBatches = options.maxBatches ?? 200;
  const started = performance.now();
  const report: RetentionReport = {
    refreshTokens: 0,
    revokedFamilies: 0,
    nonces: 0,
    throttleEvents: 0,
    rateLimits: 0,
    sandboxRecords: 0,
    donorSessions: 0,
    sandboxKept: 0,
    failed: [],
    complete: true,
  };

  /** Calls `deleteBatch` until a batch deletes less than a full one (or `maxBatches`). */
  const drain = async (deleteBatch: () => Promise<number>): Promise<number> => {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const deleted = await deleteBatch();
      total += deleted;
      if (deleted < batch) return total;
    }
    report.complete = false;
    return total;
  };

  const iso = (ms: number) => new Date(ms).toISOString();
  const kinds: [
    Exclude<keyof RetentionReport, "failed" | "complete" | "sandboxKept">,
    () => Promise<number>,
  ][] = [
    ["refreshTokens", () => drain(() => store.refreshTokens.deleteExpired(iso(now - TOKEN_GRACE_MS), batch))],
    [
      "revokedFamilies",
      () =>
        drain(() =>
          store.refreshTokens.deleteRevokedBefore(
            iso(now - REFRESH_TOKEN_TTL_DAYS * DAY_MS - TOKEN_GRACE_MS),
            batch,
          )
        ),
    ],
    ["nonces", () => drain(() => store.nonces.deleteExpired(now, batch))],
    ["throttleEvents", () => drain(() => store.throttle.deleteBefore(now - THROTTLE_RETENTION_MS, batch))],
    ["rateLimits", () => drain(() => store.rateLimits.deleteBefore(now, batch))],
    ["donorSessions", () => drain(() => store.donorSessions.deleteExpired(iso(now - TOKEN_GRACE_MS), batch))],
    ["sandboxRecords", () => sweepSandbox(store, iso(now - SANDBOX_RETENTION_MS), batch, maxBatches, report)],
  ];
  for (const [kind, sweep] of kinds) {
    try {
      report[kind] = await sweep();
    } catch (error) {
      report.failed.push(kind);
      log.error("retention sweep failed", { kind, error });
    }
  }
  log.info("retention sweep", { ...report, ms: Math.round(performance.now() - started) });
  return report;
}

/**
 * Walks the sandbox records untouched since `before`, oldest first, and deletes those no longer
 * needed; the needed ones are stepped over (the cursor moves past them). Answers how many went.
 */
async function sweepSandbox(
  store: Store,
  before: string,
  batch: number,
  maxBatches: number,
  report: RetentionReport,
): Promise<number> {
  let deleted = 0;
  let after: SandboxRecord | null = null;
  for (let i = 0; i < maxBatches; i++) {
    const records = await store.sandbox.listUpdatedBefore(before, batch, after);
    if (records.length === 0) return deleted;
    const doomed: SandboxRecord[] = [];
    for (const record of records) {
      if (await sandboxRecordNeeded(store, record)) report.sandboxKept++;
      else doomed.push(record);
    }
    // Only records still as read go: one that changed since (a late payment) is no longer old.
    deleted += await store.sandbox.deleteUnchanged(doomed);
    if (records.length < batch) return deleted;
    after = records[records.length - 1];
  }
  report.complete = false;
  return deleted;
}
