/**
 * The storage entry point: the app calls {@link openStore} once at start and passes the
 * {@link Store} along; nothing else imports a backend directly.
 *
 * It also holds the rules both backends share (normalizing emails and instants, what a search
 * matches, how pages and throttle windows are cut), so KV and PostgreSQL cannot drift apart.
 *
 * @module
 */

import type {
  Admin,
  Donor,
  RefreshToken,
  ResultData,
  Store,
  Transaction,
  TransactionQuery,
} from "./types.ts";

export type {
  Admin,
  AdminRepository,
  AdminStatus,
  Donor,
  DonorRepository,
  FeatureFlag,
  FlagRepository,
  NonceRepository,
  Page,
  RefreshToken,
  RefreshTokenRepository,
  ResultData,
  Store,
  ThrottleRepository,
  Transaction,
  TransactionQuery,
  TransactionRepository,
} from "./types.ts";
export { EmailTakenError } from "./types.ts";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** A PostgreSQL URL (`DATABASE_URL`); when set, Postgres is the backend. */
  databaseUrl?: string;
  /** The Deno KV file (or `":memory:"`) used when `databaseUrl` is not set. */
  kvPath: string;
}

/**
 * Opens PostgreSQL when `databaseUrl` is set, otherwise Deno KV at `kvPath`.
 *
 * Each backend is imported on demand, so a KV deployment never loads postgres.js (faster cold
 * starts on Deno Deploy), and a Postgres one never opens a KV file.
 *
 * @example At application start
 * ```ts
 * import { openStore } from "./mod.ts";
 * const store = await openStore({
 *   databaseUrl: Deno.env.get("DATABASE_URL"),
 *   kvPath: "data/donations.kv",
 * });
 * console.log(`storage: ${store.kind}`);
 * await store.close();
 * ```
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // An empty DATABASE_URL (`DATABASE_URL=` in a .env file) means "not set", not "connect to ''".
  if (options.databaseUrl) {
    const { openPostgresStore } = await import("./postgres.ts");
    return await openPostgresStore(options.databaseUrl);
  }
  const { openKvStore } = await import("./kv.ts");
  return await openKvStore(options.kvPath);
}

// ---------------------------------------------------------------------------------------------
// Shared by both backends. Every rule that decides what is stored or matched lives here once, so
// KV and PostgreSQL agree byte for byte (the contract suite checks that they do).

/** An email as stored and looked up: trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An ISO 8601 instant as `Date.prototype.toISOString` writes it; throws RangeError when invalid. */
export function isoInstant(value: string, what = "timestamp"): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw new RangeError(`${what} is not an ISO 8601 instant: ${JSON.stringify(value)}`);
  }
  return new Date(time).toISOString();
}

/** {@link isoInstant}, passing `null` (and a missing value) through as `null`. */
export function isoInstantOrNull(value: string | null | undefined, what?: string): string | null {
  return value === null || value === undefined ? null : isoInstant(value, what);
}

/** Throws RangeError unless `value` is a safe integer no smaller than `min`. */
export function checkInteger(value: number, what: string, min = Number.MIN_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be an integer of at least ${min}: ${value}`);
  }
  return value;
}

/** The most events a throttle key keeps (and answers): the most recent ones. */
export const THROTTLE_MAX_EVENTS = 100;

/**
 * The throttle events (ms, sorted) that are "within the last `windowMs`" at `now`: later than
 * `now - windowMs`, the most recent {@link THROTTLE_MAX_EVENTS} of them. Events later than `now`
 * (another instance whose clock runs ahead) count as within the window.
 */
export function throttleWindow(sortedTimes: readonly number[], now: number, windowMs: number): number[] {
  const cutoff = now - windowMs;
  return sortedTimes.filter((t) => t > cutoff).slice(-THROTTLE_MAX_EVENTS);
}

/** The sequenced lists of transactions; each has its own dense 1, 2, 3, ... numbering. */
export type TransactionList = "success-all" | "success-monthly" | "success-one-time" | "error-all";

/** The lists a transaction joins when recorded: its `-all` list, and for a success its sub-list. */
export function listsOf(tx: Pick<Transaction, "kind" | "isMonthly">): TransactionList[] {
  if (tx.kind === "error") return ["error-all"];
  return ["success-all", tx.isMonthly ? "success-monthly" : "success-one-time"];
}

/** The list a query reads. */
export function listOf(kind: Transaction["kind"], isMonthly: boolean | undefined): TransactionList {
  if (kind === "error") return "error-all";
  return isMonthly === undefined ? "success-all" : isMonthly ? "success-monthly" : "success-one-time";
}

/** The largest transaction either backend stores, as UTF-8 JSON (Deno KV's value limit is 64 KiB). */
export const MAX_TRANSACTION_BYTES = 60_000;

/**
 * A transaction as stored: instants normalized, `null` for every absent optional, `resultData` a
 * plain JSON value (what PostgreSQL's jsonb keeps; `undefined` members dropped). Throws RangeError
 * when it is larger than {@link MAX_TRANSACTION_BYTES}.
 */
export function canonicalTransaction(tx: Transaction): Transaction {
  const out: Transaction = {
    id: tx.id,
    kind: tx.kind,
    statusCode: tx.statusCode,
    isMonthly: tx.isMonthly,
    createdAt: isoInstant(tx.createdAt, "createdAt"),
    donorId: tx.donorId,
    user: { firstName: tx.user.firstName, lastName: tx.user.lastName, email: tx.user.email },
    amount: tx.amount ?? null,
    currency: tx.currency ?? null,
    resultData: tx.resultData == null ? null : (JSON.parse(JSON.stringify(tx.resultData)) as ResultData),
    errorMessage: tx.errorMessage ?? null,
    provider: tx.provider,
    providerTransactionId: tx.providerTransactionId ?? null,
  };
  if (tx.kind !== "success" && tx.kind !== "error") {
    throw new RangeError(`unknown kind ${JSON.stringify(tx.kind)}`);
  }
  if (out.amount !== null) checkInteger(out.amount, "amount");
  const bytes = new TextEncoder().encode(JSON.stringify(out)).length;
  if (bytes > MAX_TRANSACTION_BYTES) {
    throw new RangeError(
      `transaction ${tx.id} is ${bytes} bytes; at most ${MAX_TRANSACTION_BYTES} are stored`,
    );
  }
  return out;
}

/**
 * What a search matches against: the donor's email, first and last name, lower-cased, joined by a
 * separator no search term can match across (a term never matches across two fields).
 */
export function searchTextOf(user: Transaction["user"]): string {
  return [user.email, user.firstName, user.lastName].map((part) => part.toLowerCase()).join(SEARCH_SEPARATOR);
}

const SEARCH_SEPARATOR = "\u001f";

/** The lower-cased search term, or `null` when there is none (missing, empty or blank). */
export function searchTermOf(search: string | undefined): string | null {
  const term = search?.trim().toLowerCase().replaceAll(SEARCH_SEPARATOR, "");
  return term ? term : null;
}

/** The `offset` and `limit` of a page query; throws RangeError unless page and limit are integers >= 1. */
export function pageWindow(query: TransactionQuery): { offset: number; limit: number } {
  const page = checkInteger(query.page, "page", 1);
  const limit = checkInteger(query.limit, "limit", 1);
  const offset = (page - 1) * limit;
  checkInteger(offset + limit, "page * limit");
  return { offset, limit };
}

/**
 * The admin `admins.create(admin, { approveIfFirst: true })` stores when no approved admin exists:
 * approved by nobody (`decidedBy` as given, normally null) at the moment of registration.
 */
export function autoApproved(admin: Admin): Admin {
  return { ...admin, status: "approved", decidedAt: admin.decidedAt ?? admin.createdAt };
}

/** A donor as stored: email normalized, instants normalized, `null` for absent dates. */
export function canonicalDonor(donor: Donor): Donor {
  return {
    id: donor.id,
    firstName: donor.firstName,
    lastName: donor.lastName,
    email: normalizeEmail(donor.email),
    country: donor.country,
    createdAt: isoInstant(donor.createdAt, "createdAt"),
    paymentDate: isoInstantOrNull(donor.paymentDate, "paymentDate"),
    nextPaymentDate: isoInstantOrNull(donor.nextPaymentDate, "nextPaymentDate"),
    monthlyPaymentAvailable: donor.monthlyPaymentAvailable,
  };
}

/** An admin as stored: email normalized, instants normalized, `null` for absent decisions. */
export function canonicalAdmin(admin: Admin): Admin {
  if (!["approved", "pending", "rejected"].includes(admin.status)) {
    throw new RangeError(`unknown admin status ${JSON.stringify(admin.status)}`);
  }
  return {
    id: admin.id,
    email: normalizeEmail(admin.email),
    name: admin.name,
    passwordHash: admin.passwordHash,
    status: admin.status,
    createdAt: isoInstant(admin.createdAt, "createdAt"),
    decidedBy: admin.decidedBy ?? null,
    decidedAt: isoInstantOrNull(admin.decidedAt, "decidedAt"),
  };
}

/** A refresh token as stored: instants normalized. */
export function canonicalRefreshToken(token: RefreshToken): RefreshToken {
  return {
    hash: token.hash,
    adminId: token.adminId,
    familyId: token.familyId,
    createdAt: isoInstant(token.createdAt, "createdAt"),
    expiresAt: isoInstant(token.expiresAt, "expiresAt"),
    usedAt: isoInstantOrNull(token.usedAt, "usedAt"),
  };
}
