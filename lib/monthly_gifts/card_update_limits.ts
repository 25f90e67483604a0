/**
 * A donor portal card update (`card_update.ts`) is a card check at the provider: approved or
 * declined, it tells whoever runs it whether a card number works. So that it is no free
 * card-testing oracle, its starts are limited and its declines counted, in storage (across
 * instances), on both backends' `rateLimits`:
 *
 * - **Requests** ({@link CARD_UPDATE_LIMITS}), per hour: per gift, per donor session, per client
 *   address bucket (an IPv6 address by its /64), then across everyone; a client over its own
 *   limits spends nothing of everyone's.
 * - **Declines**, shared with payments (`lib/rate_limits/rate_limits.ts`): a card check's decline counts
 *   against the donor's email and the address the check was started from, as a declined payment
 *   does, and a check is refused while either holds its cap (`DECLINE_LIMIT_PER_EMAIL`,
 *   `DECLINE_LIMIT_PER_ADDRESS`), whichever kind the declines were.
 * - **The lock**: after {@link CARD_UPDATE_LIMITS}`.lockAfterDeclines` declined checks of one gift,
 *   its card updates are locked until 30 days after the first of them; the account page says so,
 *   and whom to write to.
 *
 * A decline is counted once, by whichever of the donor's return, the provider's notification or
 * reconciliation first finishes the attempt (`cardUpdates.finish` moves it once).
 *
 * @module
 */
import {
  addressBucket,
  declineCaps,
  ORIGIN_TTL_MS,
  RateLimitedError,
  type RateLimitSettings,
  recordDecline,
  refusalError,
} from "@/lib/rate_limits/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { GiftChangeError } from "./subscription_changes.ts";

/**
 * The card-update limits. A donor trying two or three cards on each of a few gifts is served; a
 * session, a network or a flood of sessions checking stolen card numbers is not.
 */
export const CARD_UPDATE_LIMITS = {
  /** Checks started per gift per window. */
  perGift: 5,
  /** Checks started per donor session per window (a donor with several gifts). */
  perSession: 10,
  /** Checks started per client address bucket per window (a household, an office, a museum's Wi-Fi). */
  perAddress: 20,
  /** Checks started across everyone per window: far above the cards that expire in a museum's hour. */
  global: 100,
  /** The window of the four above: an hour. */
  windowMs: 3_600_000,
  /** Declined checks of one gift after which its card updates are locked. */
  lockAfterDeclines: 3,
  /** How long the lock lasts, from the gift's first counted decline: 30 days. */
  lockMs: 30 * 86_400_000,
} as const;

/** What a decline counter's hits are limited to: never reached, so every decline is counted. */
const COUNTED = 1_000_000_000;

/** Who starts a card check: the donor session, its client address and its email. */
export interface CardUpdateClient {
  /** The session's stored hash (never its token). */
  session: string;
  address: string;
  email: string;
}

/** A gift's card updates are locked after declined checks (409): the account page says until when. */
export class CardUpdatesLockedError extends GiftChangeError {
  override readonly kind = "conflict";
  constructor(readonly until: string) {
    super(
      "This monthly gift's card updates are locked after several declined cards; please contact the museum",
    );
  }
}

/** Across everyone, the card checks of the hour are used up (429 with `Retry-After`). */
export class CardUpdatesBusyError extends RateLimitedError {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds, "requests");
    this.message = `Many card updates are being made; try again in ${retryAfterSeconds} seconds`;
  }
}

const lockKey = (subscriptionId: string) => `card-update:declines:${subscriptionId}`;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Counts the start of a card check of `subscriptionId` (the attempt `attemptId`) by `client`:
 * unless the gift is locked (then nothing is counted), against the gift's, the session's and the
 * client's limits and the decline caps (one storage call, which also remembers the client's
 * address for the attempt, so its decline counts there), then everyone's. Throws {@link CardUpdatesLockedError} (the gift is locked),
 * `RateLimitedError` (429: too many checks, or declines, of this gift, session, address or email)
 * or {@link CardUpdatesBusyError} (429: everyone's checks of the hour are used up).
 *
 * @example
 * ```ts
 * await admitCardUpdate(store, config.rateLimits, { subscriptionId, attemptId, client }, Date.now());
 * ```
 */
export async function admitCardUpdate(
  store: Pick<Store, "rateLimits">,
  settings: RateLimitSettings | undefined,
  start: { subscriptionId: string; attemptId: string; client: CardUpdateClient },
  now: number,
): Promise<void> {
  const limits = CARD_UPDATE_LIMITS;
  const bucket = addressBucket(start.client.address);
  const lock = { key: lockKey(start.subscriptionId), cap: limits.lockAfterDeclines };
  // A locked gift says so, whatever else is over its limit, and spends nothing.
  const lockedUntil = async () => {
    const [declines] = await store.rateLimits.peekMany([lock.key], now);
    return declines.count >= lock.cap ? new Date(now + declines.retryAfterMs).toISOString() : null;
  };
  const until = await lockedUntil();
  if (until) throw new CardUpdatesLockedError(until);
  const answer = await store.rateLimits.admit({
    hits: [
      { key: `card-update:gift:${start.subscriptionId}`, limit: limits.perGift },
      { key: `card-update:session:${start.client.session}`, limit: limits.perSession },
      { key: `card-update:addr:${bucket}`, limit: limits.perAddress },
    ],
    windowMs: limits.windowMs,
    caps: [lock, ...(settings ? declineCaps(settings, start.client.email, bucket) : [])],
    origin: { paymentId: start.attemptId, origin: bucket, ttlMs: ORIGIN_TTL_MS },
  }, now);
  if (!answer.admitted) {
    // Locked meanwhile (a decline counted since the look above)?
    const lockedNow = answer.reason === "declines" ? await lockedUntil() : null;
    throw lockedNow ? new CardUpdatesLockedError(lockedNow) : refusalError(answer);
  }
  const everyone = await store.rateLimits.hit("card-update:all", limits.global, limits.windowMs, now);
  if (!everyone.allowed) throw new CardUpdatesBusyError(seconds(everyone.retryAfterMs));
}

/**
 * Counts a declined card check once (call it when its attempt is first finished as declined):
 * against the gift's lock, and, with the decline settings, against the donor's email and the
 * address the check was started from, as a declined payment is.
 *
 * @example
 * ```ts
 * await countCardDecline(store, config.rateLimits, { attemptId, subscriptionId, email }, Date.now());
 * ```
 */
export async function countCardDecline(
  store: Pick<Store, "rateLimits">,
  settings: RateLimitSettings | undefined,
  decline: { attemptId: string; subscriptionId: string; email: string },
  now: number,
): Promise<void> {
  await store.rateLimits.hit(lockKey(decline.subscriptionId), COUNTED, CARD_UPDATE_LIMITS.lockMs, now);
  if (settings) {
    await recordDecline(store, settings, { paymentId: decline.attemptId, email: decline.email }, now);
  }
}

/**
 * The gifts among `subscriptionIds` whose card updates are locked at `now`, each with when its
 * lock ends (ISO 8601): for the account page.
 *
 * @example
 * ```ts
 * const locks = await cardUpdateLocks(store, gifts.map((g) => g.id), new Date());
 * ```
 */
export async function cardUpdateLocks(
  store: Pick<Store, "rateLimits">,
  subscriptionIds: readonly string[],
  now: Date,
): Promise<Map<string, string>> {
  const locks = new Map<string, string>();
  for (let i = 0; i < subscriptionIds.length; i += 10) {
    const ids = subscriptionIds.slice(i, i + 10);
    const seen = await store.rateLimits.peekMany(ids.map(lockKey), now.getTime());
    for (const [j, id] of ids.entries()) {
      if (seen[j].count < CARD_UPDATE_LIMITS.lockAfterDeclines) continue;
      locks.set(id, new Date(now.getTime() + seen[j].retryAfterMs).toISOString());
    }
  }
  return locks;
}
