/**
 * The back office's sign-in throttle, kept in storage so it holds across instances:
 *
 * - **Failures per email and per client.** Every password or code attempt takes a slot under the
 *   email's key and the client's (its address bucket: an IPv6 address by its /64, which one
 *   subscriber usually holds whole, as the donation limits count it, `lib/rate_limits/rate_limits.ts`), in one
 *   atomic step before anything is hashed ({@link reserveLoginSlot}); past
 *   {@link MAX_FAILED_LOGINS} within {@link LOGIN_WINDOW_MS}, even the right password waits.
 * - **Unknown emails, all together.** An attempt on an email no account has still hashes (against
 *   a dummy hash), so that its answer takes as long as a real one. Such attempts are counted per
 *   clock hour across everyone; beyond {@link UNKNOWN_EMAIL_BUDGET} in the hour they are answered
 *   the same way (401) after as long as a hash takes, without one ({@link checksUnknownEmail}): a
 *   flood of made-up addresses from many clients no longer costs the password workers anything,
 *   and staff, whose emails are known, are not slowed by it.
 * - **One audit entry an hour for them.** They write no entry each: the `sign-in summaries` job
 *   writes, for each past hour that had any, one `sign-in-failed` entry (reason `unknown-email`)
 *   with how many came and how many were checked ({@link writeUnknownEmailSummaries}), once however
 *   many instances run it.
 *
 * @module
 */
import { addressBucket } from "@/lib/rate_limits/mod.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";
import type { Store } from "@/lib/storage/types.ts";
import { LoginThrottledError } from "./errors.ts";

/** Failed logins allowed per email and per client address within the window. */
export const MAX_FAILED_LOGINS = 5;
/** The throttling window. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Attempts on unknown emails checked (hashed) per clock hour, across all clients. */
export const UNKNOWN_EMAIL_BUDGET = 100;

const HOUR_MS = 3_600_000;
/** How far back the summaries look: a day of missed runs is made up. */
const SUMMARY_HOURS = 24;
/** How long an hour's counter and its summary's mark are kept: past the look-back. */
const SUMMARY_TTL_MS = (SUMMARY_HOURS + 2) * HOUR_MS;
/** What a counter that only counts is limited to: never reached. */
const COUNTED = 1_000_000_000;
/** How long a hash is taken to last until one has been measured here. */
const DEFAULT_HASH_MS = 500;

/**
 * The throttle keys of a sign-in: per email (normalized) and per client address bucket.
 *
 * @example
 * ```ts
 * loginThrottleKeys("Ana@Museum.org", "2001:db8:1:2::7"); // ["login:email:ana@museum.org", "login:addr:2001:db8:1:2::/64"]
 * ```
 */
export const loginThrottleKeys = (email: string, clientAddress: string): [string, string] => [
  `login:email:${normalizeEmail(email)}`,
  `login:addr:${addressBucket(clientAddress)}`,
];

/** A reserved slot of a sign-in attempt (see {@link reserveLoginSlot}). */
export interface LoginSlot {
  /** No failed guess (nothing was compared, or the password was right): both slots given back. */
  release(): Promise<void>;
  /** Signed in: the email's failures forgotten, the client's slot given back. */
  succeeded(): Promise<void>;
}

/**
 * Takes a slot of a sign-in attempt by `email` from `clientAddress`, per email and per client, in
 * one atomic step, before anything is hashed; throws {@link LoginThrottledError} (which says when
 * to try again) when either is full. A failed guess keeps its slot.
 *
 * @example
 * ```ts
 * const slot = await reserveLoginSlot(store, email, "203.0.113.7", Date.now());
 * if (ok) await slot.succeeded();
 * ```
 */
export async function reserveLoginSlot(
  store: Pick<Store, "throttle">,
  email: string,
  clientAddress: string,
  now: number,
): Promise<LoginSlot> {
  const [emailKey, addressKey] = loginThrottleKeys(email, clientAddress);
  const slot = await store.throttle.reserve([emailKey, addressKey], now, LOGIN_WINDOW_MS, MAX_FAILED_LOGINS);
  if (!slot.reserved) throw new LoginThrottledError(Math.max(1, Math.ceil((slot.retryAt - now) / 1000)));
  const giveBack = (key: string) => store.throttle.release(key, now, LOGIN_WINDOW_MS);
  return {
    release: async () => void await Promise.all([giveBack(emailKey), giveBack(addressKey)]),
    succeeded: async () => void await Promise.all([store.throttle.clear(emailKey), giveBack(addressKey)]),
  };
}

/** The start of the clock hour of `ms`, as ISO 8601. */
const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();
const countKey = (hour: string) => `login:unknown:${hour}`;
const summaryKey = (hour: string) => `login:unknown-logged:${hour}`;

/**
 * Counts an attempt on an unknown email in its clock hour, across all clients, and answers whether
 * it is within {@link UNKNOWN_EMAIL_BUDGET} (checked against the dummy hash) or beyond (answered
 * alike without a hash, after {@link waitAsLongAsAHash}).
 *
 * @example
 * ```ts
 * const ok = await checksUnknownEmail(store, now) ? await verifyAgainstDummy(pw, pool) : (await waitAsLongAsAHash(), false);
 * ```
 */
export async function checksUnknownEmail(store: Pick<Store, "rateLimits">, now: number): Promise<boolean> {
  const hit = await store.rateLimits.hit(countKey(hourOf(now)), COUNTED, SUMMARY_TTL_MS, now);
  return hit.count <= UNKNOWN_EMAIL_BUDGET;
}

/** How long a password check took here of late (a moving average), or null before the first. */
let typicalHashMs: number | null = null;

/**
 * Notes how long a password check took, so that an attempt answered without one waits as long.
 *
 * @example
 * ```ts
 * const started = performance.now();
 * await verifyPassword(password, admin.passwordHash, pool);
 * noteHashTime(performance.now() - started);
 * ```
 */
export function noteHashTime(ms: number): void {
  typicalHashMs = typicalHashMs === null ? ms : typicalHashMs * 0.8 + ms * 0.2;
}

/**
 * Waits about as long as a password check takes here, so that an answer given without one (an
 * unknown email beyond the budget) takes as long as any other.
 *
 * @example
 * ```ts
 * await waitAsLongAsAHash();
 * ```
 */
export function waitAsLongAsAHash(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, typicalHashMs ?? DEFAULT_HASH_MS));
}

/**
 * The `sign-in summaries` job: for each past clock hour of the last day that had attempts on
 * unknown emails and has no summary yet, appends one `sign-in-failed` entry (reason
 * `unknown-email`: how many attempts came, how many were checked, the hour), dated at the hour's
 * start; answers how many it wrote. Each hour's summary is claimed in storage first, so instances
 * running this together write it once.
 *
 * @example
 * ```ts
 * await writeUnknownEmailSummaries(store, new Date());
 * ```
 */
export async function writeUnknownEmailSummaries(
  store: Pick<Store, "rateLimits" | "audit">,
  now: Date,
): Promise<number> {
  const at = now.getTime();
  const current = Math.floor(at / HOUR_MS) * HOUR_MS;
  const hours = Array.from({ length: SUMMARY_HOURS }, (_, i) => hourOf(current - (i + 1) * HOUR_MS));
  let written = 0;
  for (let i = 0; i < hours.length; i += 5) {
    const batch = hours.slice(i, i + 5);
    const seen = await store.rateLimits.peekMany([...batch.map(countKey), ...batch.map(summaryKey)], at);
    for (const [j, hour] of batch.entries()) {
      const attempts = seen[j].count;
      if (attempts === 0 || seen[batch.length + j].count > 0) continue;
      const claim = await store.rateLimits.hit(summaryKey(hour), 1, SUMMARY_TTL_MS, at);
      if (!claim.allowed) continue; // another instance writes it
      const to = new Date(Date.parse(hour) + HOUR_MS).toISOString();
      await store.audit.append([{
        action: "sign-in-failed",
        actorId: null,
        actorEmail: "",
        address: "",
        target: null,
        changes: {
          reason: "unknown-email",
          attempts,
          checked: Math.min(attempts, UNKNOWN_EMAIL_BUDGET),
          from: hour,
          to,
        },
      }], hour);
      written++;
    }
  }
  return written;
}
