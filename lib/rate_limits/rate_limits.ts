/**
 * Rate limits against card testing and floods: how often one client (an address; IPv6 by its /64,
 * which one subscriber usually holds whole) and everyone together may create donors, start
 * payments and register admins, and how many declined payments one email or one address may have
 * before it may start no more. Kept in storage (`store.rateLimits`), so the limits hold across app
 * instances.
 *
 * Each limit is a fixed window per key (`lib/storage/types.ts`, {@link RateLimitRepository}): at
 * most `limit` hits from the window's first hit until it ends; a refused request learns when that
 * is ({@link RateLimitedError.retryAfterSeconds}, the answer's `Retry-After`). A request is counted
 * against its address's limit, then the global one, in one storage call
 * ({@link RateLimitRepository.hitInOrder}), so a client already refused uses up nothing of
 * everyone else's budget, and the limiter costs one round trip.
 *
 * Declines: an online payment's origin (the address bucket it was started from) is remembered for
 * a day; when its decline is recorded (`payments/completion.ts`, by the return, the provider's
 * notification or reconciliation alike), the decline counts against the donor's email and that
 * address. Starting a payment is refused while either has reached its cap. A donor portal card
 * check is counted and refused by the same caps (`payments/card_update_limits.ts`): it is a card
 * tried, charged or not. A payment's start is
 * one storage call with the payment's creation ({@link paymentAdmission}): its count, its caps and
 * its origin, as a donor's creation is one with its count ({@link requestAdmission}).
 *
 * The settings are `config.rateLimits` (`RATE_LIMIT_*`, `DECLINE_*`, `REGISTRATION_LIMIT_*`; the
 * configuration table of `docs/configuration.md` explains the defaults).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import type { Admission, RateLimitRepository, Refusal, Store } from "@/lib/storage/types.ts";

/** The limits, validated (`lib/app/config.ts`). */
export interface RateLimitSettings {
  /** The window of the donor and payment limits. */
  windowMs: number;
  /** Donors created, and payments started (each counted on its own), per address bucket per window. */
  perAddress: number;
  /** The same, across all clients. */
  global: number;
  /** Admin registrations per address bucket per {@link REGISTRATION_WINDOW_MS}. */
  registrationsPerAddress: number;
  /** Admin registrations across all clients per {@link REGISTRATION_WINDOW_MS}. */
  registrationsGlobal: number;
  /** The window of the decline caps. */
  declineWindowMs: number;
  /** Declined payments per donor email per decline window before payments are refused. */
  declinesPerEmail: number;
  /** Declined payments per address bucket per decline window before payments are refused. */
  declinesPerAddress: number;
}

/** The window of the registration limits: an hour. */
export const REGISTRATION_WINDOW_MS = 3_600_000;

/** How long a payment's origin is kept: far past the moment its result is known. */
export const ORIGIN_TTL_MS = 86_400_000;

/** What a decline counter's hits are limited to: never reached, so every decline is counted. */
const DECLINES_COUNTED = 1_000_000;

/** What is limited per client and globally. */
export type LimitedAction = "donor" | "payment" | "registration";

/**
 * Too many requests (or declines) from this client, or from everyone: try again in
 * `retryAfterSeconds`. Answered 429 with `Retry-After` (`lib/http/domain_errors.ts`).
 */
export class RateLimitedError extends DomainError {
  override readonly kind = "rate_limited";
  constructor(readonly retryAfterSeconds: number, readonly reason: "requests" | "declines") {
    super(
      reason === "declines"
        ? `Too many declined payments; try again in ${retryAfterSeconds} seconds`
        : `Too many requests; try again in ${retryAfterSeconds} seconds`,
    );
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The bucket an address is limited in: an IPv4 address as it is, an IPv6 address by its /64
 * (`2001:db8:1:2::/64`; an IPv4-mapped one as its IPv4 address), anything else as given.
 *
 * @example
 * ```ts
 * addressBucket("2001:DB8:0:1:aaaa::5"); // "2001:db8:0:1::/64"
 * addressBucket("203.0.113.7"); // "203.0.113.7"
 * ```
 */
export function addressBucket(address: string): string {
  let a = address.trim().toLowerCase().replace(/^\[|\]$/g, "");
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  if (!a.includes(":")) return a;
  const groups = ipv6Groups(a);
  if (!groups) return a;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail expanded), or `null`. */
function ipv6Groups(address: string): number[] | null {
  let a = address;
  const v4 = a.match(/^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const b = v4.slice(2).map(Number);
    if (b.some((x) => x > 255)) return null;
    a = `${v4[1]}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const halves = a.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

/** The counters one `action` by the client in `bucket` is counted against, in order, and their window. */
function requestHits(settings: RateLimitSettings, action: LimitedAction, bucket: string) {
  const registration = action === "registration";
  return {
    hits: [
      {
        key: `${action}:addr:${bucket}`,
        limit: registration ? settings.registrationsPerAddress : settings.perAddress,
      },
      { key: `${action}:all`, limit: registration ? settings.registrationsGlobal : settings.global },
    ],
    windowMs: registration ? REGISTRATION_WINDOW_MS : settings.windowMs,
  };
}

/**
 * What one `action` by the client at `address` is counted against: its address bucket's limit,
 * then the global one. For a storage call that counts it with what it creates
 * (`donors.createAdmitted`), or alone ({@link limitRequest}).
 *
 * @example
 * ```ts
 * const answer = await store.donors.createAdmitted(donor, requestAdmission(settings, "donor", ip), Date.now());
 * ```
 */
export function requestAdmission(
  settings: RateLimitSettings,
  action: LimitedAction,
  address: string,
): Admission {
  return { ...requestHits(settings, action, addressBucket(address)), caps: [], origin: null };
}

/**
 * Counts one `action` by the client at `address` on its own: against its address bucket's limit,
 * then the global one; throws {@link RateLimitedError} when either is reached.
 *
 * @example
 * ```ts
 * await limitRequest(store, config.rateLimits, "donor", "203.0.113.7");
 * ```
 */
export async function limitRequest(
  store: Pick<Store, "rateLimits">,
  settings: RateLimitSettings,
  action: LimitedAction,
  address: string,
  now = Date.now(),
): Promise<void> {
  const answer = await store.rateLimits.admit(requestAdmission(settings, action, address), now);
  if (!answer.admitted) throw refusalError(answer);
}

/**
 * Counts one hit on each of `hits`' keys in order, in one storage call, for limits that are not
 * settings (receipt downloads: `lib/receipts/download.ts`, `lib/donor_portal/year_receipts.ts`);
 * throws {@link RateLimitedError} (429) when one is reached.
 *
 * @example
 * ```ts
 * await limitHits(store, [{ key: `receipt-download:addr:${addressBucket(ip)}`, limit: 30 }], 600_000);
 * ```
 */
export async function limitHits(
  store: Pick<Store, "rateLimits">,
  hits: readonly { key: string; limit: number }[],
  windowMs: number,
  now = Date.now(),
): Promise<void> {
  const refused = (await store.rateLimits.hitInOrder(hits, windowMs, now)).find((hit) => !hit.allowed);
  if (refused) throw new RateLimitedError(seconds(refused.retryAfterMs), "requests");
}

/**
 * The error of a refused admission (429 with `Retry-After`).
 *
 * @example
 * ```ts
 * if (!answer.admitted) throw refusalError(answer);
 * ```
 */
export function refusalError(refusal: Refusal): RateLimitedError {
  return new RateLimitedError(seconds(refusal.retryAfterMs), refusal.reason);
}

/** The decline counters' keys of an email (none for an erased donor's, "") and an address bucket. */
const declineKeys = (email: string, bucket: string | null) => ({
  email: email.trim() === "" ? null : `declines:email:${email.trim().toLowerCase()}`,
  address: bucket === null ? null : `declines:addr:${bucket}`,
});

/**
 * The decline caps a start is refused by: the declines of `email` and of the address `bucket`
 * within the decline window (payments and card checks alike).
 *
 * @example
 * ```ts
 * const caps = declineCaps(config.rateLimits, "dana@example.org", addressBucket("203.0.113.7"));
 * ```
 */
export function declineCaps(
  settings: Pick<RateLimitSettings, "declinesPerEmail" | "declinesPerAddress">,
  email: string,
  bucket: string,
): Admission["caps"] {
  const keys = declineKeys(email, bucket);
  return [
    ...(keys.email === null ? [] : [{ key: keys.email, cap: settings.declinesPerEmail }]),
    { key: keys.address!, cap: settings.declinesPerAddress },
  ];
}

/**
 * What the start of a payment by the client at `address` for the donor's `email` is admitted by:
 * counted against the payment limits (unless `countRequest` is false: the no-JavaScript form
 * counted it before creating the donor), refused while the email or the address has reached its
 * cap of declined payments, and, admitted, the address remembered for `paymentId`, so that the
 * payment's own decline counts against it. For `payments.createOrReuseAdmitted`: one storage call.
 *
 * @example
 * ```ts
 * const admission = paymentAdmission(config.rateLimits, {
 *   email: donor.email, address: "203.0.113.7", paymentId: payment.id, countRequest: true,
 * });
 * ```
 */
export function paymentAdmission(
  settings: RateLimitSettings,
  client: { email: string; address: string; paymentId: string; countRequest: boolean },
): Admission {
  const bucket = addressBucket(client.address);
  const limited = requestHits(settings, "payment", bucket);
  return {
    hits: client.countRequest ? limited.hits : [],
    windowMs: limited.windowMs,
    caps: declineCaps(settings, client.email, bucket),
    origin: { paymentId: client.paymentId, origin: bucket, ttlMs: ORIGIN_TTL_MS },
  };
}

/**
 * Counts a payment's (or a card check's) decline against the donor's email and the address it was
 * started from (when remembered under `paymentId`). Call it once per decline: when its transaction
 * is first recorded, or its card check first finished.
 *
 * @example
 * ```ts
 * await recordDecline(store, config.rateLimits, { paymentId: payment.id, email: donor.email });
 * ```
 */
export async function recordDecline(
  store: { rateLimits: RateLimitRepository },
  settings: Pick<RateLimitSettings, "declineWindowMs">,
  decline: { paymentId: string; email: string },
  now = Date.now(),
): Promise<void> {
  const keys = declineKeys(decline.email, await store.rateLimits.originOf(decline.paymentId, now));
  const hits = [keys.email, keys.address].flatMap((key) =>
    key === null ? [] : [{ key, limit: DECLINES_COUNTED }]
  );
  if (hits.length > 0) await store.rateLimits.hitInOrder(hits, settings.declineWindowMs, now);
}
