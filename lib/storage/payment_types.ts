/**
 * The storage contract for taking money: payments from create to verified result, monthly
 * subscriptions and their charges, leases (one billing pass at a time), and the sandbox provider's
 * own books. Types only; part of the {@link Store} in `types.ts`, which re-exports them.
 *
 * @module
 */
import type { Admission, Refusal } from "./admission_types.ts";

import type { WithMessages } from "./outbox_types.ts";
import type { GiftReminders } from "./membership_types.ts";

export type PaymentStatus = "pending" | "succeeded" | "failed";

/** One payment attempt, from the create call to its verified result. */
export interface Payment {
  id: string;
  donorId: string;
  /** Minor units. */
  amount: number;
  currency: 1 | 2;
  isMonthly: boolean;
  /** The donor's language, for the result pages. */
  language: string;
  channel: "online" | "terminal" | "test-terminal";
  /** The kiosk's shop number (terminal channels). */
  shopNumber: string | null;
  provider: string;
  /** The provider's id of the payment, once started. */
  providerRef: string | null;
  /** The page shown in the payment frame, once started (answered again to an identical request). */
  pageUrl: string | null;
  /** Random per attempt; the provider echoes it and validates the result against it. */
  userKey: string;
  confirmationKey: string | null;
  status: PaymentStatus;
  /** The recorded transaction, once finished. */
  transactionId: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The membership level the donor picked (`lib/shared/museum.ts`), whose price the amount is; absent
   * for any other gift. Its completion makes or renews the donor's membership.
   */
  levelId?: number;
  /**
   * The donor consented to renew the membership automatically every year (a one-time gift at a
   * level only): its completion keeps the payment's card token with the membership. Absent: no.
   */
  autoRenew?: true;
  /**
   * A gift membership (issue 28): the level's membership is the recipient's, not the donor's.
   * Absent for any other payment.
   */
  gift?: PaymentGift;
}

/**
 * What a gift membership's payment carries from its start to its completion (issue 28): the
 * recipient's donor record (made when the payment starts: their name and address live there, and
 * go with their erasure), when to deliver the welcome and card, the giver's words, who gets the
 * renewal reminders, and the recipient's language.
 */
export interface PaymentGift {
  recipientDonorId: string;
  /** ISO 8601: the welcome and card are sent from then on (the payment's time when earlier). */
  deliverAt: string;
  /** The giver's message, plain text, at most `MAX_GIFT_MESSAGE` characters (`lib/shared/gift_membership.ts`); may be empty. */
  message: string;
  reminders: GiftReminders;
  /** One of the five languages. */
  language: string;
}

export interface PaymentRepository {
  /**
   * Stores `payment`, unless a payment with the same `dedupeKey` was created less than `windowMs`
   * before `now` (ms) and is still pending: then nothing is written and that one is answered with
   * `created: false`. Atomic across instances (two identical requests at once make one payment).
   */
  createOrReuse(
    payment: Payment,
    dedupeKey: string,
    windowMs: number,
    now: number,
  ): Promise<{ created: boolean; payment: Payment }>;
  /**
   * {@link createOrReuse} once `admission` admits the request (`rateLimits.admit`), in one storage
   * call: the counts and the origin commit first (as the limiter's own), then the payment. Refused:
   * no payment is stored or reused.
   */
  createOrReuseAdmitted(
    payment: Payment,
    dedupeKey: string,
    windowMs: number,
    now: number,
    admission: Admission,
  ): Promise<Refusal | { admitted: true; created: boolean; payment: Payment }>;
  get(id: string): Promise<Payment | null>;
  getByProviderRef(provider: string, providerRef: string): Promise<Payment | null>;
  /** Changes the given fields; answers the payment as stored, or null for an unknown id. */
  update(
    id: string,
    changes: Partial<
      Pick<Payment, "providerRef" | "pageUrl" | "confirmationKey" | "status" | "transactionId" | "updatedAt">
    >,
  ): Promise<Payment | null>;
  /**
   * As `update`, but only while the payment is still `pending`: answers it as stored, or null when
   * the id is unknown or the payment finished meanwhile. Atomic: a concurrent write that finishes
   * the payment is never overwritten by it.
   */
  updateIfPending(
    id: string,
    changes: Partial<
      Pick<Payment, "providerRef" | "pageUrl" | "confirmationKey" | "status" | "transactionId" | "updatedAt">
    >,
  ): Promise<Payment | null>;
  /**
   * Pending payments with `from <= createdAt < to` (ISO), oldest first (ties by id, in byte
   * order), at most `limit` (1..1,000); with `after`, only those after it in that order (pass the
   * last payment of the previous batch). Costs work in proportion to the batch, however many
   * payments have finished.
   */
  listPending(
    range: { from: string; to: string },
    limit: number,
    after?: Pick<Payment, "createdAt" | "id"> | null,
  ): Promise<Payment[]>;
}

export type SubscriptionStatus = "active" | "cancelled" | "failed";

/** A monthly donation: a stored card token charged once per period. */
export interface Subscription {
  id: string;
  donorId: string;
  amount: number;
  currency: 1 | 2;
  provider: string;
  /** The provider's card token; never a card number. */
  token: string;
  /** Masked card number, for people. */
  cardMasked: string | null;
  language: string;
  status: SubscriptionStatus;
  createdAt: string;
  /** Last successful charge. */
  paymentDate: string | null;
  /** Due date of the next period's charge. */
  nextPaymentDate: string;
  /** Failed attempts for the current period (retries after 1, 3 and 7 days). */
  failedAttempts: number;
  /** When the next retry of the current period is due; null when none is pending. */
  retryAt: string | null;
  cancelledAt: string | null;
  /**
   * Bumped by every write: a donor's change is written only over the version it read
   * ({@link SubscriptionRepository.updateIfVersion}), so it never overwrites a charge's step.
   */
  version: number;
  /** While paused: the first period the pause left out (`nextPaymentDate` is the resume date). */
  pausedFrom: string | null;
  /** The reference of the charge billing has started (no change is made meanwhile); else null. */
  charging: string | null;
  /** Why the donor cancelled (one of `CANCEL_REASONS`), when they said. */
  cancelReason: string | null;
}

/** A subscription to create: the change-tracking fields start empty when absent. */
export type NewSubscription =
  & Omit<Subscription, "version" | "pausedFrom" | "charging" | "cancelReason">
  & Partial<Pick<Subscription, "version" | "pausedFrom" | "charging" | "cancelReason">>;

/** The fields a conditional update may change. */
export type SubscriptionChanges = Partial<
  Pick<
    Subscription,
    | "paymentDate"
    | "nextPaymentDate"
    | "failedAttempts"
    | "retryAt"
    | "status"
    | "amount"
    | "pausedFrom"
    | "charging"
    | "cancelledAt"
    | "cancelReason"
    | "token"
    | "cardMasked"
  >
>;

export interface SubscriptionRepository {
  /** Stores a subscription; when one with the same id exists, stores nothing and answers that one. */
  create(subscription: NewSubscription): Promise<Subscription>;
  get(id: string): Promise<Subscription | null>;
  listByDonor(donorId: string): Promise<Subscription[]>;
  /**
   * Cancels every active subscription of the donor at once; answers how many. Idempotent.
   * `messages` are enqueued in the same atomic step (at `at`), only when something was cancelled.
   */
  cancelForDonor(donorId: string, at: string, options?: WithMessages): Promise<number>;
  /**
   * Active subscriptions whose charge is due at `now`: `nextPaymentDate <= now` and
   * (`retryAt` null or `<= now`), earliest due first, at most `limit`.
   */
  listDue(now: string, limit: number): Promise<Subscription[]>;
  /**
   * Active subscriptions whose last charge failed and that will be tried again
   * (`failedAttempts > 0`), due at or before `until` (the later of `nextPaymentDate` and
   * `retryAt`), earliest due first (ties by id), at most `limit` (1..1,000): the back office's
   * "monthly charges failing" (issue 26). Reads the due index up to `until`, as `listDue` does, so
   * the work follows the active gifts due by then; billing never sets a retry further ahead than
   * its longest delay (`RETRY_DAYS`), so `until` = now plus that delay finds every one.
   */
  listRetrying(until: string, limit: number): Promise<Subscription[]>;
  /**
   * Changes the given fields when the subscription is still `active` (a cancel in between wins);
   * answers it as stored, or null when unknown or no longer active.
   */
  updateIfActive(id: string, changes: SubscriptionChanges): Promise<Subscription | null>;
  /**
   * Changes the given fields only while the subscription is `active` and still at `version` (no
   * write since it was read), bumping the version; `messages` are enqueued in the same atomic step.
   * Answers it as stored, or null (nothing written) when unknown, ended or changed meanwhile.
   */
  updateIfVersion(
    id: string,
    version: number,
    changes: SubscriptionChanges,
    options?: WithMessages,
  ): Promise<Subscription | null>;
  /**
   * How many subscriptions are stored with each `cancelReason`, by reason (reasons no subscription
   * has are absent): the back office's count of why donors cancelled. Costs work in proportion to
   * the reasons (a counter each on KV) or to the cancellations that gave one (a partial index on
   * PostgreSQL), never to the subscriptions.
   */
  countCancelReasons(): Promise<Record<string, number>>;
}

/** One charge attempt of a subscription for one period: the unit of billing idempotency. */
export interface Charge {
  subscriptionId: string;
  /** The period's due date (ISO 8601). */
  period: string;
  /** 0 for the first try, 1..3 for the retries. */
  attempt: number;
  status: "started" | "succeeded" | "failed";
  /** The reference sent to the provider: `${subscriptionId}:${period}:${attempt}`. */
  reference: string;
  startedAt: string;
  finishedAt: string | null;
  transactionId: string | null;
  /**
   * The card token the charge is sent with (the subscription's when it was claimed): its
   * transaction records it, also when a later pass recovers it after the gift's card was replaced.
   * Absent for a charge claimed before tokens were kept.
   */
  token?: string;
}

export interface ChargeRepository {
  /** Stores the charge if no charge exists for its (subscriptionId, period, attempt); true once. */
  claim(charge: Charge): Promise<boolean>;
  get(subscriptionId: string, period: string, attempt: number): Promise<Charge | null>;
  finish(
    subscriptionId: string,
    period: string,
    attempt: number,
    changes: Pick<Charge, "status" | "finishedAt" | "transactionId">,
  ): Promise<void>;
  /** Charges still `started` that began before `before` (a pass that died midway), oldest first. */
  listStale(before: string, limit: number): Promise<Charge[]>;
}

export interface LeaseRepository {
  /**
   * Takes the named lease for `holder` until `now + ttlMs` (ms), or renews it when `holder` has
   * it; false while another holder's lease has not expired. Atomic across instances.
   */
  acquire(name: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` has it. */
  release(name: string, holder: string): Promise<void>;
}

/** A record of the sandbox provider (the simulated processor keeps its books in our store). */
export interface SandboxRecord {
  /** The sandbox's id of the payment, charge or terminal sale. */
  ref: string;
  kind: "hosted" | "token" | "terminal" | "charge";
  /** e.g. `open`, `paid`, `declined`, `timeout`, `reversed`. */
  status: string;
  /** The merchant reference (our payment id or charge reference). */
  reference: string;
  terminalId: string | null;
  amount: number;
  currency: 1 | 2;
  createdAt: string;
  updatedAt: string;
  /** Everything else the sandbox keeps (result fields, token, return URL), JSON only. */
  data: Record<string, unknown>;
}

export interface SandboxRepository {
  create(record: SandboxRecord): Promise<void>;
  get(ref: string): Promise<SandboxRecord | null>;
  /**
   * Moves a record from status `from` to `to` (merging `data` and setting `updatedAt`), only if it
   * is still in `from`: true for the one caller that did it. Atomic across instances.
   */
  transition(
    ref: string,
    from: string,
    to: string,
    data: Record<string, unknown>,
    at: string,
  ): Promise<boolean>;
  findByReference(reference: string): Promise<SandboxRecord | null>;
  /** Terminal sales of one terminal in a status, oldest first. */
  listByTerminal(terminalId: string, status: string): Promise<SandboxRecord[]>;
  /**
   * Records last changed before `before` (ISO): `updatedAt < before`, oldest first (ties by ref,
   * in byte order), at most `limit` (1..1,000); with `after`, only those after it in that order.
   * For retention: costs work in proportion to the batch.
   */
  listUpdatedBefore(
    before: string,
    limit: number,
    after?: Pick<SandboxRecord, "updatedAt" | "ref"> | null,
  ): Promise<SandboxRecord[]>;
  /**
   * Deletes each record whose `updatedAt` is still the one given (a record changed since it was
   * read stays) and answers how many were deleted; at most 1,000 per call (RangeError). Safe on
   * several instances at once: each record is deleted, and counted, once.
   */
  deleteUnchanged(records: Pick<SandboxRecord, "ref" | "updatedAt">[]): Promise<number>;
}
