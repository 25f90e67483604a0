/**
 * The storage contract: one interface for everything the product keeps.
 *
 * Every backend (Deno KV in `kv/`, PostgreSQL in `postgres/`) implements {@link Store}, and one
 * contract suite (`tests/storage/`, a file per concept) runs against each, so routes and `lib/`
 * never know which one is behind them. Each concept is a small repository on the store
 * (`store.flags`, `store.donors`, ...). The small concepts are here; transactions are in
 * `transaction_types.ts` and payments, subscriptions, charges, leases and the sandbox in
 * `payment_types.ts`, both re-exported, so `types.ts` is the one import for the whole contract.
 *
 * This module is types only (and a few error classes and constants), so importing it costs next to
 * nothing at run time.
 *
 * @module
 */

import type {
  ChargeRepository,
  LeaseRepository,
  PaymentRepository,
  SandboxRepository,
  SubscriptionRepository,
} from "./payment_types.ts";
import type { Admission, AdmissionAnswer, Refusal } from "./admission_types.ts";
import type { KioskDeviceRepository } from "./kiosk_types.ts";
import type { OutboxRepository } from "./outbox_types.ts";
import type { AuditRepository, WithAudit } from "./audit_types.ts";
import type { ReceiptRepository } from "./receipt_types.ts";
import type { DonorSessionRepository } from "./donor_session_types.ts";
import type { CardUpdateRepository } from "./card_update_types.ts";
import type { RefundRepository } from "./refund_types.ts";
import type { TwoFactorRepository } from "./two_factor_types.ts";
import type { TransactionRepository } from "./transaction_types.ts";
import type { ReportRepository } from "./report_types.ts";
import type { AdminRepository, RefreshTokenRepository } from "./admin_types.ts";
import type { MuseumSettingsRepository } from "./museum_types.ts";
import type { MembershipRepository } from "./membership_types.ts";
import type { VisitRepository } from "./visit_types.ts";

export type * from "./payment_types.ts";
export type * from "./transaction_types.ts";
export type * from "./kiosk_types.ts";
export type * from "./outbox_types.ts";
export type * from "./audit_types.ts";
export type * from "./admission_types.ts";
export type * from "./receipt_types.ts";
export type * from "./donor_session_types.ts";
export type * from "./card_update_types.ts";
export type * from "./refund_types.ts";
export type * from "./two_factor_types.ts";
export type * from "./report_types.ts";
export type * from "./museum_types.ts";
export type * from "./membership_types.ts";
export type * from "./visit_types.ts";
export * from "./admin_types.ts";

/** A feature flag as stored and as `GET /api/feature-flags` answers it. */
export interface FeatureFlag {
  /** The flag's name, e.g. `MONTHLY_PAYMENT`. */
  flag: string;
  /** Whether the feature is on. */
  enabled: boolean;
  /** When the flag was created or last changed, as an ISO 8601 string. */
  updatedAt: string;
}

/** Feature flags: seeded once, then changed only on purpose. */
export interface FlagRepository {
  /** Every flag, sorted by name. */
  list(): Promise<FeatureFlag[]>;
  /** One flag, or `null` when no flag has that name. */
  get(flag: string): Promise<FeatureFlag | null>;
  /** Creates or changes one flag and answers it as stored. */
  set(flag: string, enabled: boolean): Promise<FeatureFlag>;
  /**
   * An owner's switch: sets `enabled` only while the flag is still `expected` (null: absent), with
   * `audit` in the same atomic step; answers null (nothing written) when it was not. */
  change(
    flag: string,
    enabled: boolean,
    expected: boolean | null,
    at: string,
    options?: WithAudit,
  ): Promise<FeatureFlag | null>;
  /**
   * Inserts each flag of `defaults` that does not exist yet and leaves existing ones untouched, so
   * a restart never overwrites a value an operator changed. Safe when several instances start at
   * once: each flag ends up inserted exactly once.
   */
  seed(defaults: Record<string, boolean>): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Donors

/** A donor as stored. Ids are unguessable (128+ random bits, base64url); they are capabilities. */
export interface Donor {
  id: string;
  firstName: string;
  lastName: string;
  /** Normalized: trimmed, lower case. */
  email: string;
  country: string;
  /** ISO 8601. */
  createdAt: string;
  /** Last successful payment (ISO 8601), or null. */
  paymentDate: string | null;
  /** Next monthly charge (ISO 8601), or null when none is scheduled. */
  nextPaymentDate: string | null;
  /** Whether a monthly donation is active and can be cancelled. */
  monthlyPaymentAvailable: boolean;
  /**
   * The donor's Israeli ID number (ת.ז., nine digits with a valid check digit) for a Section 46
   * receipt, or null when the donor asked for none. Printed on the donor's Israeli receipts only:
   * never answered by the API, shown elsewhere only masked (`maskIsraeliId`), never logged.
   */
  israeliId: string | null;
  /**
   * When the donor's personal fields were erased at their request (`donors.erase`, ISO 8601);
   * absent on every donor not erased.
   */
  erasedAt?: string;
}

/**
 * Donors. A donor record is created per donation form submit; ids are never reused (an unused one
 * may be deleted, `deleteUnused`).
 */
export interface DonorRepository {
  /** Stores a new donor; `id` must be new. */
  create(donor: Donor): Promise<Donor>;
  /**
   * {@link create} once `admission` admits the request (`rateLimits.admit`), in one storage call:
   * the counts commit first (as the limiter's own, without waiting for the disk), then the donor,
   * durably, and answered as stored. Refused: nothing but the counts is stored.
   */
  createAdmitted(
    donor: Donor,
    admission: Admission,
    now: number,
  ): Promise<Refusal | { admitted: true; donor: Donor }>;
  get(id: string): Promise<Donor | null>;
  /**
   * The ids of the donor records with this email address (normalized when compared), at most
   * `limit` (1..1,000), in id order (UTF-8 bytes, as KV orders keys), after `after` when given (the
   * last id of the previous page; any string): one index range, costing work in proportion to the
   * answer. The donor portal treats every record of one address as one donor, so whoever lists an
   * address's records pages through all of them (`lib/donors/records.ts`).
   */
  idsByEmail(email: string, limit: number, after?: string): Promise<string[]>;
  /**
   * Deletes the donor record `id`, with its place in the email index, when nothing names it and it
   * was created before `createdBefore` (ISO 8601): no payment (pending or finished), transaction,
   * subscription, receipt or message has its id, and it was not erased. Answers whether it did.
   * What `POST /api/user` recycles under an address with many records (`lib/donors/donors.ts`): such a
   * record never carried a gift and never can (its id now opens nothing). A payment started on it
   * at the very moment it is deleted is not seen (only the one who submitted it holds its id).
   */
  deleteUnused(id: string, createdBefore: string): Promise<boolean>;
  /**
   * Changes the payment fields of a donor and answers it as stored, or `null` when the id is
   * unknown. Fields left out are unchanged.
   */
  update(
    id: string,
    changes: Partial<Pick<Donor, "paymentDate" | "nextPaymentDate" | "monthlyPaymentAvailable">>,
  ): Promise<Donor | null>;
  /**
   * Erases the donor's personal fields at their request (issue 15) and answers the donor as stored,
   * or null for an unknown id: names, email and Israeli ID number emptied (`ERASED_DONOR_FIELDS`),
   * `monthlyPaymentAvailable` false, `nextPaymentDate` null, `erasedAt` set (kept from the first
   * erasure); the record leaves `idsByEmail`. The donor's transactions keep their amounts, dates,
   * status and card's last four (financial records the law keeps) but lose the name and email
   * copied into them (`ERASED_USER`), so no list or search shows them. Receipts stay as issued
   * (legal copies) but lose the email address they are filed under (not printed; `listByEmail` no
   * longer finds them). Subscriptions and the outbox are not touched here (the caller cancels
   * first; messages to an erased donor render as nothing to send). Idempotent; safe to repeat after a failure
   * (the donor record is written last, and the transactions are checked again after it).
   */
  erase(id: string, at: string): Promise<Donor | null>;
}

// ---------------------------------------------------------------------------------------------
// Admins and refresh tokens: `admin_types.ts`

/**
 * Thrown by any repository call when the backend cannot be reached or did not answer in time
 * (PostgreSQL stopped, restarting, or unreachable). Nothing about the call is known to have
 * happened, so callers rely on the idempotent operations to retry; the app answers 503.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageUnavailableError";
  }
}

// ---------------------------------------------------------------------------------------------
// Throttling and replay protection (kept in storage so they hold across app instances)

/** What {@link ThrottleRepository.reserve} answers. */
export type ThrottleReservation = { reserved: true } | { reserved: false; retryAt: number };

export interface ThrottleRepository {
  /**
   * Records one event under `key` at `now` (ms) and answers the times (ms) of the key's events
   * within the last `windowMs`, oldest first, this one included.
   */
  record(key: string, now: number, windowMs: number): Promise<number[]>;
  /** The times of the key's events within the window, oldest first, without recording. */
  recent(key: string, now: number, windowMs: number): Promise<number[]>;
  /** Forgets the key's events. */
  clear(key: string): Promise<void>;
  /**
   * Check and record in one atomic step: when every key of `keys` holds fewer than `limit` events
   * within the window, records one event at `now` under each and answers `{ reserved: true }`;
   * otherwise records nothing and answers `retryAt`, the time (ms) when the fullest key has room
   * again. Of any number of concurrent calls (on any instances) on a key, at most `limit` within a
   * window are reserved: the login throttle takes its slot before it spends a hash.
   */
  reserve(
    keys: readonly string[],
    now: number,
    windowMs: number,
    limit: number,
  ): Promise<ThrottleReservation>;
  /**
   * Removes one event recorded at exactly `at` under `key` (a reservation given back), if any;
   * `windowMs` is the window it was reserved with.
   */
  release(key: string, at: number, windowMs: number): Promise<void>;
  /**
   * Retention: deletes at most `limit` (1..1,000) events older than `before` (ms), of any key, and
   * answers how many (`record` prunes only the key it records, so a key nobody uses again would
   * stay). Deno KV answers 0: its keys carry a KV expiry (`expireIn`) and KV deletes them itself.
   */
  deleteBefore(before: number, limit: number): Promise<number>;
}

export interface NonceRepository {
  /**
   * Claims a nonce until `expiresAt` (ms): `true` the first time, `false` when it was claimed
   * before and has not expired. Atomic across instances.
   */
  claim(nonce: string, expiresAt: number): Promise<boolean>;
  /**
   * Retention: deletes at most `limit` (1..1,000) claims that expired at or before `now` (ms) and
   * answers how many. Deno KV answers 0: its claims carry a KV expiry and KV deletes them itself.
   */
  deleteExpired(now: number, limit: number): Promise<number>;
}

/** What {@link RateLimitRepository.hit} answers. */
export interface RateLimitHit {
  /** Whether this hit was within the limit (and so counted). */
  allowed: boolean;
  /**
   * The window's hits so far, this one included, capped at `limit + 1` (the refused ones beyond
   * the first are not counted: a flood does not keep writing).
   */
  count: number;
  /** Milliseconds until the window ends and the key's count starts again from zero. */
  retryAfterMs: number;
}

/**
 * Rate limits (kept in storage so a limit holds across app instances): a fixed-window counter per
 * key, and the client a payment came from (so a decline recorded later, by whichever request or
 * job verifies it, is counted against that client).
 */
export interface RateLimitRepository {
  /**
   * Counts one hit on `key` at `now` (ms). A key's window starts at its first hit after the last
   * window ended and lasts `windowMs`; while it holds fewer than `limit` (>= 1) hits the hit is
   * allowed and counted, otherwise refused. Atomic across instances: however many hits race, at
   * most `limit` are allowed per window.
   */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitHit>;
  /**
   * {@link hit} on each of `hits`' keys in order, in one atomic step, stopping at the first refused:
   * the keys after it are not counted (a client over its own limit spends nothing of a global one).
   * Answers one {@link RateLimitHit} per key counted, so the last is the refusal when there is one.
   * Callers list keys in one order (e.g. address before global), so racing steps never deadlock.
   * At most 10 distinct keys (one KV read).
   */
  hitInOrder(
    hits: readonly { key: string; limit: number }[],
    windowMs: number,
    now: number,
  ): Promise<RateLimitHit[]>;
  /** The key's hits in its current window at `now` (0 once it ended), and when it ends; counts nothing. */
  peek(key: string, now: number): Promise<{ count: number; retryAfterMs: number }>;
  /** {@link peek} of up to 10 keys in one read, answered in their order. */
  peekMany(keys: readonly string[], now: number): Promise<{ count: number; retryAfterMs: number }[]>;
  /**
   * A payment's start in one storage call: counts `hits` (stopping at the first refused, which
   * refuses the start), then reads `caps` (refused when one holds its cap), then, when admitted,
   * remembers `origin`. The hits are atomic as in {@link hitInOrder}; the caps are read after them.
   * At most 10 hits and 10 caps.
   */
  admit(admission: Admission, now: number): Promise<AdmissionAnswer>;
  /** Remembers `origin` (a client address bucket) for `paymentId` until `now + ttlMs`. */
  rememberOrigin(paymentId: string, origin: string, ttlMs: number, now: number): Promise<void>;
  /** The origin remembered for `paymentId`, or `null` (never remembered, or expired by `now`). */
  originOf(paymentId: string, now: number): Promise<string | null>;
  /**
   * Retention: deletes at most `limit` (1..1,000) windows and origins that ended before `before`
   * (ms) and answers how many. Deno KV answers 0: its keys carry a KV expiry and KV deletes them.
   */
  deleteBefore(before: number, limit: number): Promise<number>;
}

/** The whole store. */
export interface Store {
  /** Which backend this is, for logs and `/health`. */
  readonly kind: "kv" | "postgres";
  readonly flags: FlagRepository;
  readonly donors: DonorRepository;
  readonly admins: AdminRepository;
  readonly refreshTokens: RefreshTokenRepository;
  readonly throttle: ThrottleRepository;
  readonly nonces: NonceRepository;
  readonly rateLimits: RateLimitRepository;
  readonly transactions: TransactionRepository;
  readonly payments: PaymentRepository;
  readonly subscriptions: SubscriptionRepository;
  readonly charges: ChargeRepository;
  readonly leases: LeaseRepository;
  readonly sandbox: SandboxRepository;
  readonly kioskDevices: KioskDeviceRepository;
  readonly outbox: OutboxRepository;
  /** Legal receipts, numbered gaplessly per issuing organisation (`receipt_types.ts`). */
  readonly receipts: ReceiptRepository;
  /** Donors' one-time sign-in links and portal sessions (`donor_session_types.ts`). */
  readonly donorSessions: DonorSessionRepository;
  /** What the museum's staff did, append-only (`audit_types.ts`). */
  readonly audit: AuditRepository;
  /** Attempts to replace a monthly gift's card through the provider's page (`card_update_types.ts`). */
  readonly cardUpdates: CardUpdateRepository;
  /** Money given back on successful gifts, once per key, never more than paid (`refund_types.ts`). */
  readonly refunds: RefundRepository;
  /** The staff's two-factor sign-in: TOTP secrets, recovery codes, the requirement (`two_factor_types.ts`). */
  readonly twoFactor: TwoFactorRepository;
  /** The accountant's monthly figures, summed per period (`report_types.ts`). */
  readonly reports: ReportRepository;
  /** The museum's identity and membership levels, one record per install (`museum_types.ts`). */
  readonly museum: MuseumSettingsRepository;
  /** One membership per donor email, changed with the payments that cause it (`membership_types.ts`). */
  readonly memberships: MembershipRepository;
  /** Members let in at the front desk, once per the desk's id (`visit_types.ts`). */
  readonly visits: VisitRepository;
  /** Throws when the backend cannot answer a trivial query; used by `GET /health`. */
  ping(): Promise<void>;
  /** Releases connections and file handles. Idempotent. */
  close(): Promise<void>;
}
