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
}

export interface NonceRepository {
  /**
   * Claims a nonce until `expiresAt` (ms): `true` the first time, `false` when it was claimed
   * before and has not expired. Atomic across instances.
   */
  claim(nonce: string, expiresAt: number): Promise<boolean>;
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
  get(id: string): Promise<Transaction | null>;
  getByProviderId(provider: string, providerTransactionId: string): Promise<Transaction | null>;
  /**
   * Successful transactions, newest first (in the order recorded). Without `search`, a page costs
   * work in proportion to the page, for all, monthly and one-time lists alike.
   */
  listSuccess(query: TransactionQuery & { isMonthly?: boolean }): Promise<Page<Transaction>>;
  /** Error transactions, newest first, same costs. */
  listErrors(query: TransactionQuery): Promise<Page<Transaction>>;
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
  /** Throws when the backend cannot answer a trivial query; used by `GET /health`. */
  ping(): Promise<void>;
  /** Releases connections and file handles. Idempotent. */
  close(): Promise<void>;
}
