/**
 * The storage contract: one interface for everything the product keeps.
 *
 * Every backend (Deno KV in `kv.ts`, PostgreSQL in `postgres.ts`) implements {@link Store}, and the
 * single contract suite in `tests/storage_contract_test.ts` runs against both, so routes and `lib/`
 * never know which one is behind them. Each concept is a small repository on the store
 * (`store.flags` now; donors, transactions, subscriptions, admins, refresh tokens and throttling
 * counters join as their issues land), which keeps the interface readable as it grows.
 *
 * This module is types only (and one error class), so importing it costs nothing at run time.
 *
 * @module
 */

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
}

/** Donors. A donor record is created per donation form submit; ids are never reused. */
export interface DonorRepository {
  /** Stores a new donor; `id` must be new. */
  create(donor: Donor): Promise<Donor>;
  get(id: string): Promise<Donor | null>;
  /**
   * Changes the payment fields of a donor and answers it as stored, or `null` when the id is
   * unknown. Fields left out are unchanged.
   */
  update(
    id: string,
    changes: Partial<Pick<Donor, "paymentDate" | "nextPaymentDate" | "monthlyPaymentAvailable">>,
  ): Promise<Donor | null>;
}

// ---------------------------------------------------------------------------------------------
// Admins and refresh tokens

export type AdminStatus = "approved" | "pending" | "rejected";

/** A back-office account. */
export interface Admin {
  id: string;
  /** Normalized: trimmed, lower case; unique. */
  email: string;
  name: string;
  /** PHC string of the password hash (algorithm and parameters included). */
  passwordHash: string;
  status: AdminStatus;
  createdAt: string;
  /** Who approved or rejected this admin, and when (ISO 8601); null while pending. */
  decidedBy: string | null;
  decidedAt: string | null;
}

/** Thrown by `admins.create` when the email is taken (the API answers 409). */
export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists`);
    this.name = "EmailTakenError";
  }
}

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

export interface AdminRepository {
  /**
   * Stores a new admin. With `approveIfFirst`, the admin is stored `approved` when no approved
   * admin exists yet, and as given otherwise; decided atomically, so two first registrations at
   * once make exactly one approved admin. Throws {@link EmailTakenError} when the email is taken.
   */
  create(admin: Admin, options?: { approveIfFirst?: boolean }): Promise<Admin>;
  get(id: string): Promise<Admin | null>;
  getByEmail(email: string): Promise<Admin | null>;
  /** Admins with this status, oldest first. */
  listByStatus(status: AdminStatus): Promise<Admin[]>;
  /** Sets the status (and who decided, when); answers the admin as stored, or null. */
  setStatus(id: string, status: AdminStatus, decidedBy: string, decidedAt: string): Promise<Admin | null>;
}

/** A refresh token as stored: only its hash, never the token. */
export interface RefreshToken {
  /** Hex SHA-256 of the opaque token. */
  hash: string;
  adminId: string;
  /** Every token rotated from the same login shares a family. */
  familyId: string;
  createdAt: string;
  expiresAt: string;
  /** When it was exchanged for a new one; a second use means theft (the family is revoked). */
  usedAt: string | null;
}

export interface RefreshTokenRepository {
  create(token: RefreshToken): Promise<void>;
  get(hash: string): Promise<RefreshToken | null>;
  /**
   * Marks a token used, atomically: answers `true` for the one call that found it unused, `false`
   * for every other (already used, or unknown).
   */
  markUsed(hash: string, usedAt: string): Promise<boolean>;
  /** Revokes a whole family: no token of it is accepted again. Idempotent. */
  revokeFamily(familyId: string, revokedAt: string): Promise<void>;
  isFamilyRevoked(familyId: string): Promise<boolean>;
  /**
   * Retention: deletes at most `limit` (1..1,000) tokens with `expiresAt < before` (ISO), used or
   * not, and answers how many. Only expiry decides: a used token stays until it expires, so
   * presenting it again is still caught as reuse for as long as it could be accepted. Safe on
   * several instances at once (each token is deleted, and counted, by one of them).
   */
  deleteExpired(before: string, limit: number): Promise<number>;
  /**
   * Retention: deletes at most `limit` (1..1,000) revoked-family markers with `revokedAt < before`
   * (ISO) and answers how many. A marker matters only while a token of its family can still be
   * accepted, so callers pass a `before` earlier than now by more than a refresh token lives.
   */
  deleteRevokedBefore(before: string, limit: number): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// Throttling and replay protection (kept in storage so they hold across app instances)

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

// ---------------------------------------------------------------------------------------------
// Transactions

/** Card result fields of a successful payment, named as the provider names them. */
export interface ResultData {
  /** Masked, e.g. `458045******4580`; never a full card number. */
  CreditCardNumber: string;
  CreditType: string;
  /** Minor units (agorot, cents) as a numeric string, e.g. `"10000"`. */
  DebitTotal: string;
  /** 1 = NIS, 2 = USD. */
  DebitCurrency: 1 | 2;
  VoucherId?: string | null;
  ShvaResult?: string | null;
  [field: string]: unknown;
}

/** A recorded payment attempt: a success (`statusCode` "000") or an error. */
export interface Transaction {
  id: string;
  kind: "success" | "error";
  statusCode: string;
  isMonthly: boolean;
  /** ISO 8601. */
  createdAt: string;
  donorId: string;
  /** The donor as at the payment, for the back office list and search. */
  user: { firstName: string; lastName: string; email: string };
  /** Minor units, when known. */
  amount: number | null;
  /** 1 = NIS, 2 = USD, when known. */
  currency: 1 | 2 | null;
  resultData: ResultData | null;
  errorMessage: string | null;
  /** e.g. `sandbox`, `pelecard`. */
  provider: string;
  /** The provider's id of this payment; unique per provider when present. */
  providerTransactionId: string | null;
}

/** One page of a list, newest first, with the total count of the whole (filtered) list. */
export interface Page<T> {
  data: T[];
  total: number;
}

export interface TransactionQuery {
  /** 1-based. */
  page: number;
  limit: number;
  /** Case-insensitive substring of the donor's email, first or last name. */
  search?: string;
}

export interface TransactionRepository {
  /**
   * Records a transaction once per `(provider, providerTransactionId)`: when one with the same
   * pair exists, nothing is written and the existing one is answered with `created: false`.
   * Atomic across instances.
   */
  record(tx: Transaction): Promise<{ created: boolean; transaction: Transaction }>;
  /**
   * Records many transactions in order (oldest first) in as few round trips as the backend allows,
   * with the same idempotency per `(provider, providerTransactionId)` and the same per-list
   * sequence numbers as `record`; answers how many were new. For back-fills and imports; at most
   * 1,000 per call (more reject with a RangeError).
   *
   * A pair given twice in one call is recorded once (the first). Invalid transactions, and an id
   * given twice for different payments, are refused (RangeError) before anything is written. An
   * id that is already stored throws as in `record`; where a backend needs several commits for one
   * call (Deno KV), the transactions before the failing one may then stay recorded (a second call
   * with the same list skips them as duplicates).
   */
  import(txs: Transaction[]): Promise<number>;
  get(id: string): Promise<Transaction | null>;
  getByProviderId(provider: string, providerTransactionId: string): Promise<Transaction | null>;
  /**
   * Successful transactions, newest first (in the order recorded). Without `search`, a page costs
   * work in proportion to the page, for all, monthly and one-time lists alike.
   */
  listSuccess(query: TransactionQuery & { isMonthly?: boolean }): Promise<Page<Transaction>>;
  /** Error transactions, newest first, same costs (all, monthly and one-time lists alike). */
  listErrors(query: TransactionQuery & { isMonthly?: boolean }): Promise<Page<Transaction>>;
  /**
   * One batch of a whole list, newest first (the order of `listSuccess` and `listErrors` with the
   * same filters), for reading every row (exports) without deep page offsets: pass the answer's
   * `next` as `before` to get the following batch, until `next` is null. A batch costs work in
   * proportion to the batch however deep it is (with `search`, as a search page does), and
   * transactions recorded after the first batch never show up in later ones, so the batches of
   * one walk never overlap or skip.
   *
   * A batch may hold fewer than `limit` transactions (even none) while `next` is not null (a
   * search reads a bounded part of the list per call); only `next === null` ends the list. A
   * cursor is valid only with the query that answered it; a malformed one rejects with RangeError,
   * as does a `limit` outside 1..1,000.
   */
  scan(query: TransactionScanQuery): Promise<TransactionBatch>;
  /**
   * Successful transactions with `from <= createdAt < to` (ISO instants) and a known amount and
   * currency, summed per UTC day of `createdAt` and currency: one entry per day and currency that
   * has any, ordered by day, then currency. Costs work in proportion to the transactions in the
   * range. Deno KV reads the success list newest first and stops at the first transaction older
   * than `from`: it relies on the order recorded being time order, as `record` (now) and `import`
   * (oldest first) keep it.
   */
  dailyTotals(range: { from: string; to: string }): Promise<DailyTotal[]>;
}

/** What `transactions.scan` reads. */
export interface TransactionScanQuery {
  kind: Transaction["kind"];
  isMonthly?: boolean;
  /** As in {@link TransactionQuery}. */
  search?: string;
  /** The `next` of the previous batch; null or absent for the newest. */
  before?: string | null;
  /** Most transactions in the batch, 1..1,000. */
  limit: number;
}

/** One batch of `transactions.scan`. */
export interface TransactionBatch {
  data: Transaction[];
  /** The cursor of the following batch, or null when the list ends here. */
  next: string | null;
}

/** One day's sum in one currency (`transactions.dailyTotals`). */
export interface DailyTotal {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** 1 = NIS, 2 = USD. */
  currency: 1 | 2;
  /** Sum in minor units. */
  amount: number;
  /** How many transactions. */
  count: number;
}

// ---------------------------------------------------------------------------------------------
// Payments, subscriptions and billing

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
}

export interface SubscriptionRepository {
  /** Stores a subscription; when one with the same id exists, stores nothing and answers that one. */
  create(subscription: Subscription): Promise<Subscription>;
  get(id: string): Promise<Subscription | null>;
  listByDonor(donorId: string): Promise<Subscription[]>;
  /** Cancels every active subscription of the donor at once; answers how many. Idempotent. */
  cancelForDonor(donorId: string, at: string): Promise<number>;
  /**
   * Active subscriptions whose charge is due at `now`: `nextPaymentDate <= now` and
   * (`retryAt` null or `<= now`), earliest due first, at most `limit`.
   */
  listDue(now: string, limit: number): Promise<Subscription[]>;
  /**
   * Changes the given fields when the subscription is still `active` (a cancel in between wins);
   * answers it as stored, or null when unknown or no longer active.
   */
  updateIfActive(
    id: string,
    changes: Partial<
      Pick<Subscription, "paymentDate" | "nextPaymentDate" | "failedAttempts" | "retryAt" | "status">
    >,
  ): Promise<Subscription | null>;
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
  readonly transactions: TransactionRepository;
  readonly payments: PaymentRepository;
  readonly subscriptions: SubscriptionRepository;
  readonly charges: ChargeRepository;
  readonly leases: LeaseRepository;
  readonly sandbox: SandboxRepository;
  /** Throws when the backend cannot answer a trivial query; used by `GET /health`. */
  ping(): Promise<void>;
  /** Releases connections and file handles. Idempotent. */
  close(): Promise<void>;
}
