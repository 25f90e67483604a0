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
  Charge,
  Donor,
  Payment,
  RefreshToken,
  ResultData,
  SandboxRecord,
  Store,
  Subscription,
  Transaction,
  TransactionQuery,
  TransactionScanQuery,
} from "./types.ts";

export type {
  Admin,
  AdminRepository,
  AdminStatus,
  Charge,
  ChargeRepository,
  DailyTotal,
  Donor,
  DonorRepository,
  FeatureFlag,
  FlagRepository,
  LeaseRepository,
  NonceRepository,
  Page,
  Payment,
  PaymentRepository,
  PaymentStatus,
  RefreshToken,
  RefreshTokenRepository,
  ResultData,
  SandboxRecord,
  SandboxRepository,
  Store,
  Subscription,
  SubscriptionRepository,
  SubscriptionStatus,
  ThrottleRepository,
  Transaction,
  TransactionBatch,
  TransactionQuery,
  TransactionRepository,
  TransactionScanQuery,
} from "./types.ts";
export { EmailTakenError, StorageUnavailableError } from "./types.ts";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** A PostgreSQL URL (`DATABASE_URL`); when set, Postgres is the backend. */
  databaseUrl?: string;
  /**
   * The Deno KV file, `":memory:"` or a KV Connect URL, used when `databaseUrl` is not set.
   * Omitted: `Deno.openKv()`'s own database (on Deno Deploy, the KV database assigned to the app).
   */
  kvPath?: string;
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
export type TransactionList =
  | "success-all"
  | "success-monthly"
  | "success-one-time"
  | "error-all"
  | "error-monthly"
  | "error-one-time";

/** Every list, in a fixed order (by name, as PostgreSQL's `collate "C"` and KV order them). */
export const TRANSACTION_LISTS: readonly TransactionList[] = [
  "error-all",
  "error-monthly",
  "error-one-time",
  "success-all",
  "success-monthly",
  "success-one-time",
];

/** The lists a transaction joins when recorded: its kind's `-all` list, then its sub-list. */
export function listsOf(tx: Pick<Transaction, "kind" | "isMonthly">): [TransactionList, TransactionList] {
  return [`${tx.kind}-all`, `${tx.kind}-${tx.isMonthly ? "monthly" : "one-time"}`];
}

/** The list a query reads. */
export function listOf(kind: Transaction["kind"], isMonthly: boolean | undefined): TransactionList {
  return isMonthly === undefined ? `${kind}-all` : `${kind}-${isMonthly ? "monthly" : "one-time"}`;
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

/**
 * The distinct, non-empty parts of {@link searchTextOf} (what a search term must be a substring of
 * one of), sorted by UTF-16 code units: a transaction matches a term exactly when one of these
 * contains it. Sorted, so concurrent writers of the same values take their locks in one order.
 */
export function searchValuesOf(user: Transaction["user"]): string[] {
  return [...new Set(searchTextOf(user).split(SEARCH_SEPARATOR).filter((part) => part !== ""))].sort();
}

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

/** The largest batch `transactions.scan` answers. */
export const MAX_SCAN_LIMIT = 1_000;

/**
 * The checked parts of a `transactions.scan` query: `limit` (1..{@link MAX_SCAN_LIMIT}), the
 * search term, and the cursor as the sequence number the batch reads below (`null`: from the
 * newest). Cursors are the decimal sequence numbers both backends answer; throws RangeError for
 * anything else.
 */
export function scanWindow(
  query: TransactionScanQuery,
): { limit: number; term: string | null; before: number | null } {
  const limit = checkInteger(query.limit, "limit", 1);
  if (limit > MAX_SCAN_LIMIT) throw new RangeError(`limit must be at most ${MAX_SCAN_LIMIT}: ${limit}`);
  const cursor = query.before ?? null;
  if (cursor !== null && !/^[1-9][0-9]{0,14}$/.test(cursor)) {
    throw new RangeError(`not a transaction cursor: ${JSON.stringify(cursor)}`);
  }
  return { limit, term: searchTermOf(query.search), before: cursor === null ? null : Number(cursor) };
}

/**
 * The most records one batch call handles: the retention deletes, `payments.listPending`,
 * `sandbox.listUpdatedBefore` and `sandbox.deleteUnchanged`. Bounded so one call is one short
 * statement (PostgreSQL) or a few small commits (Deno KV), never a long transaction.
 */
export const MAX_BATCH = 1_000;

/** `limit` checked to be 1..{@link MAX_BATCH}; throws RangeError otherwise. */
export function batchLimit(limit: number, what = "limit"): number {
  checkInteger(limit, what, 1);
  if (limit > MAX_BATCH) throw new RangeError(`${what} must be at most ${MAX_BATCH}: ${limit}`);
  return limit;
}

/** The checked range of `transactions.dailyTotals`: normalized instants, `from <= to`. */
export function totalsRange(range: { from: string; to: string }): { from: string; to: string } {
  const from = isoInstant(range.from, "from");
  const to = isoInstant(range.to, "to");
  if (to < from) throw new RangeError(`to (${to}) is before from (${from})`);
  return { from, to };
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

/** The most transactions one `transactions.import()` call takes. */
export const MAX_IMPORT = 1_000;

/**
 * What `transactions.import(txs)` records, before looking at storage: every transaction
 * canonical ({@link canonicalTransaction}, which throws RangeError), in the order given, without
 * the repeats of a `(provider, providerTransactionId)` pair given earlier in the same call (the
 * first one wins, as with `record` one by one). Throws RangeError for more than
 * {@link MAX_IMPORT} transactions and for an id given to two different payments.
 */
export function importBatch(txs: readonly Transaction[]): Transaction[] {
  if (txs.length > MAX_IMPORT) {
    throw new RangeError(`import takes at most ${MAX_IMPORT} transactions per call, got ${txs.length}`);
  }
  const pairs = new Set<string>();
  const ids = new Set<string>();
  const out: Transaction[] = [];
  for (const input of txs) {
    const tx = canonicalTransaction(input);
    if (tx.providerTransactionId !== null) {
      const pair = JSON.stringify([tx.provider, tx.providerTransactionId]);
      if (pairs.has(pair)) continue;
      pairs.add(pair);
    }
    if (ids.has(tx.id)) throw new RangeError(`the id ${tx.id} is given to two transactions`);
    ids.add(tx.id);
    out.push(tx);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Payments, subscriptions, charges, leases and the sandbox

/** Throws RangeError unless `value` is one of `allowed`. */
function oneOf<T extends string | number>(value: T, allowed: readonly T[], what: string): T {
  if (!allowed.includes(value)) throw new RangeError(`unknown ${what} ${JSON.stringify(value)}`);
  return value;
}

const CURRENCIES = [1, 2] as const;
const PAYMENT_STATUSES: Payment["status"][] = ["pending", "succeeded", "failed"];
const PAYMENT_CHANNELS: Payment["channel"][] = ["online", "terminal", "test-terminal"];
const SUBSCRIPTION_STATUSES: Subscription["status"][] = ["active", "cancelled", "failed"];
const CHARGE_STATUSES: Charge["status"][] = ["started", "succeeded", "failed"];
const SANDBOX_KINDS: SandboxRecord["kind"][] = ["hosted", "token", "terminal", "charge"];

/** The largest `data` of a sandbox record either backend stores, as UTF-8 JSON (KV: 64 KiB values). */
export const MAX_SANDBOX_DATA_BYTES = 50_000;

/**
 * A JSON object as PostgreSQL's jsonb keeps it: `undefined` members dropped, dates as strings.
 * Throws RangeError unless it is a plain object of at most {@link MAX_SANDBOX_DATA_BYTES}.
 */
export function jsonObject(value: Record<string, unknown>, what = "data"): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new RangeError(`${what} must be a JSON object`);
  }
  const json = JSON.stringify(value);
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > MAX_SANDBOX_DATA_BYTES) {
    throw new RangeError(`${what} is ${bytes} bytes; at most ${MAX_SANDBOX_DATA_BYTES} are stored`);
  }
  return JSON.parse(json) as Record<string, unknown>;
}

/** A payment as stored: instants normalized, `null` for every absent optional; checks enums and amounts. */
export function canonicalPayment(p: Payment): Payment {
  return {
    id: p.id,
    donorId: p.donorId,
    amount: checkInteger(p.amount, "amount", 0),
    currency: oneOf(p.currency, CURRENCIES, "currency"),
    isMonthly: p.isMonthly,
    language: p.language,
    channel: oneOf(p.channel, PAYMENT_CHANNELS, "channel"),
    shopNumber: p.shopNumber ?? null,
    provider: p.provider,
    providerRef: p.providerRef ?? null,
    pageUrl: p.pageUrl ?? null,
    userKey: p.userKey,
    confirmationKey: p.confirmationKey ?? null,
    status: oneOf(p.status, PAYMENT_STATUSES, "payment status"),
    transactionId: p.transactionId ?? null,
    createdAt: isoInstant(p.createdAt, "createdAt"),
    updatedAt: isoInstant(p.updatedAt, "updatedAt"),
  };
}

/** The changes of `payments.update` as stored: only the fields given (not `undefined`), normalized. */
export function paymentChanges(
  changes: Partial<
    Pick<Payment, "providerRef" | "pageUrl" | "confirmationKey" | "status" | "transactionId" | "updatedAt">
  >,
): Partial<Payment> {
  const out: Partial<Payment> = {};
  if (changes.providerRef !== undefined) out.providerRef = changes.providerRef ?? null;
  if (changes.pageUrl !== undefined) out.pageUrl = changes.pageUrl ?? null;
  if (changes.confirmationKey !== undefined) out.confirmationKey = changes.confirmationKey ?? null;
  if (changes.status !== undefined) out.status = oneOf(changes.status, PAYMENT_STATUSES, "payment status");
  if (changes.transactionId !== undefined) out.transactionId = changes.transactionId ?? null;
  if (changes.updatedAt !== undefined) out.updatedAt = isoInstant(changes.updatedAt, "updatedAt");
  return out;
}

/** A subscription as stored: instants normalized, `null` for every absent optional. */
export function canonicalSubscription(s: Subscription): Subscription {
  return {
    id: s.id,
    donorId: s.donorId,
    amount: checkInteger(s.amount, "amount", 0),
    currency: oneOf(s.currency, CURRENCIES, "currency"),
    provider: s.provider,
    token: s.token,
    cardMasked: s.cardMasked ?? null,
    language: s.language,
    status: oneOf(s.status, SUBSCRIPTION_STATUSES, "subscription status"),
    createdAt: isoInstant(s.createdAt, "createdAt"),
    paymentDate: isoInstantOrNull(s.paymentDate, "paymentDate"),
    nextPaymentDate: isoInstant(s.nextPaymentDate, "nextPaymentDate"),
    failedAttempts: checkInteger(s.failedAttempts, "failedAttempts", 0),
    retryAt: isoInstantOrNull(s.retryAt, "retryAt"),
    cancelledAt: isoInstantOrNull(s.cancelledAt, "cancelledAt"),
  };
}

/** The changes of `subscriptions.updateIfActive` as stored: only the fields given, normalized. */
export function subscriptionChanges(
  changes: Partial<
    Pick<Subscription, "paymentDate" | "nextPaymentDate" | "failedAttempts" | "retryAt" | "status">
  >,
): Partial<Subscription> {
  const out: Partial<Subscription> = {};
  if (changes.paymentDate !== undefined) {
    out.paymentDate = isoInstantOrNull(changes.paymentDate, "paymentDate");
  }
  if (changes.nextPaymentDate !== undefined) {
    out.nextPaymentDate = isoInstant(changes.nextPaymentDate, "nextPaymentDate");
  }
  if (changes.failedAttempts !== undefined) {
    out.failedAttempts = checkInteger(changes.failedAttempts, "failedAttempts", 0);
  }
  if (changes.retryAt !== undefined) out.retryAt = isoInstantOrNull(changes.retryAt, "retryAt");
  if (changes.status !== undefined) {
    out.status = oneOf(changes.status, SUBSCRIPTION_STATUSES, "subscription status");
  }
  return out;
}

/**
 * When an active subscription is next charged: its `nextPaymentDate`, or its `retryAt` when that
 * is later. `listDue(now)` answers exactly the active ones whose due time is `<= now`, earliest
 * first. Both inputs normalized (ISO instants of one width compare as strings).
 */
export function subscriptionDueAt(s: Pick<Subscription, "nextPaymentDate" | "retryAt">): string {
  return s.retryAt !== null && s.retryAt > s.nextPaymentDate ? s.retryAt : s.nextPaymentDate;
}

/** A charge as stored: period and instants normalized, `null` for absent results. */
export function canonicalCharge(c: Charge): Charge {
  return {
    subscriptionId: c.subscriptionId,
    period: isoInstant(c.period, "period"),
    attempt: checkInteger(c.attempt, "attempt", 0),
    status: oneOf(c.status, CHARGE_STATUSES, "charge status"),
    reference: c.reference,
    startedAt: isoInstant(c.startedAt, "startedAt"),
    finishedAt: isoInstantOrNull(c.finishedAt, "finishedAt"),
    transactionId: c.transactionId ?? null,
  };
}

/** The changes of `charges.finish` as stored. */
export function chargeResult(
  changes: Pick<Charge, "status" | "finishedAt" | "transactionId">,
): Pick<Charge, "status" | "finishedAt" | "transactionId"> {
  return {
    status: oneOf(changes.status, CHARGE_STATUSES, "charge status"),
    finishedAt: isoInstantOrNull(changes.finishedAt, "finishedAt"),
    transactionId: changes.transactionId ?? null,
  };
}

/** A sandbox record as stored: instants normalized, `data` a plain JSON object. */
export function canonicalSandboxRecord(r: SandboxRecord): SandboxRecord {
  return {
    ref: r.ref,
    kind: oneOf(r.kind, SANDBOX_KINDS, "sandbox kind"),
    status: r.status,
    reference: r.reference,
    terminalId: r.terminalId ?? null,
    amount: checkInteger(r.amount, "amount", 0),
    currency: oneOf(r.currency, CURRENCIES, "currency"),
    createdAt: isoInstant(r.createdAt, "createdAt"),
    updatedAt: isoInstant(r.updatedAt, "updatedAt"),
    data: jsonObject(r.data ?? {}, "data"),
  };
}

/**
 * `data` after `sandbox.transition` merged `patch` into it: shallow (a member of `patch` replaces
 * the member of that name), as PostgreSQL's `jsonb || jsonb` merges objects.
 */
export function mergeSandboxData(
  data: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  return jsonObject({ ...data, ...jsonObject(patch, "data") }, "data");
}
