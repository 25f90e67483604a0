/**
 * What is stored, the same on both backends: the canonical form of each record (instants
 * normalized, `null` for every absent optional, enums and amounts checked) and of each change set.
 * Every backend passes what it writes through these, so Deno KV and PostgreSQL keep the same values
 * byte for byte (the contract suite checks that they do). Each throws RangeError for a value no
 * backend may store.
 *
 * @example
 * ```ts
 * import { canonicalDonor } from "./records.ts";
 * canonicalDonor({ ...donor, email: " Ada@Example.org " }).email; // "ada@example.org"
 * ```
 *
 * @module
 */
import {
  type Admin,
  ADMIN_ROLES,
  type AdminRole,
  type AdminStatus,
  type Charge,
  type Donor,
  type KioskDevice,
  type NewSubscription,
  type Payment,
  type RefreshToken,
  type ResultData,
  type SandboxRecord,
  type Subscription,
  type SubscriptionChanges,
  type Transaction,
} from "./types.ts";
import { hasValidCheckDigit } from "@/lib/shared/israeli_id.ts";
import { canonicalPaymentGift } from "./gift_records.ts";

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

/**
 * `{ [field]: token }` for a provider's card token (1..200 characters), `{}` when there is none:
 * absent rather than null, as in records written before tokens were kept (issue 23).
 */
export function cardToken<K extends string>(field: K, token: unknown): { [P in K]?: string } {
  if (token === undefined || token === null) return {};
  if (typeof token !== "string" || token.length < 1 || token.length > 200) {
    throw new RangeError(`${field} must be a string of 1..200 characters`);
  }
  return { [field]: token } as { [P in K]?: string };
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
    ...cardToken("cardToken", tx.cardToken),
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
 * The admin `admins.create(admin, { approveIfFirst: true })` stores when no approved admin exists:
 * approved by nobody (`decidedBy` as given, normally null) at the moment of registration.
 */
export function autoApproved(admin: Admin): Admin {
  return { ...admin, status: "approved", role: "owner", decidedAt: admin.decidedAt ?? admin.createdAt };
}

/** Whether `admin` counts as an owner who can manage roles: approved, with the role `owner`. */
export const isActiveOwner = (admin: Admin | null): boolean =>
  admin !== null && admin.status === "approved" && admin.role === "owner";

/**
 * The role an admin has after a status change to `status`: approving gives `role` (least
 * privilege, `viewer`, when not given), deactivating keeps the role on record, and a pending or
 * rejected admin has none.
 */
export function roleAfter(before: Admin, status: AdminStatus, role: AdminRole | undefined): AdminRole | null {
  if (status === "approved") return role ?? (before.status === "approved" ? before.role : null) ?? "viewer";
  if (status === "deactivated") return before.role;
  return null;
}

/** Throws RangeError unless `role` is one of {@link ADMIN_ROLES}. */
export function checkRole(role: unknown): AdminRole {
  if (!ADMIN_ROLES.includes(role as AdminRole)) {
    throw new RangeError(`unknown admin role ${JSON.stringify(role)}`);
  }
  return role as AdminRole;
}

/**
 * An Israeli ID number as stored: nine digits with a valid check digit, or `null` (also for a
 * record written before the field existed). Throws RangeError otherwise, without the value (it is
 * personal data, and errors are logged).
 */
export function israeliIdOrNull(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!hasValidCheckDigit(value)) {
    throw new RangeError("israeliId must be nine digits with a valid check digit");
  }
  return value;
}

/** A donor as stored: email normalized, instants normalized, `null` for absent dates and ID number. */
export function canonicalDonor(donor: Donor): Donor {
  const erased = donor.erasedAt == null ? {} : { erasedAt: isoInstant(donor.erasedAt, "erasedAt") };
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
    israeliId: israeliIdOrNull(donor.israeliId),
    ...erased,
  };
}

/** What an erased donor's record holds instead of its personal fields (`donors.erase`). */
export const ERASED_DONOR_FIELDS = { firstName: "", lastName: "", email: "", israeliId: null } as const;

/** The donor fields a transaction of an erased donor holds: none (`donors.erase`). */
export const ERASED_USER: Transaction["user"] = Object.freeze({ firstName: "", lastName: "", email: "" });

/** Whether a transaction's donor fields were erased (an email is required of every donor). */
export const isErasedUser = (user: Transaction["user"]): boolean => user.email === "";

/** The donor as erased at `at` (the first erasure's time is kept). */
export function erasedDonor(donor: Donor, at: string): Donor {
  return canonicalDonor({
    ...donor,
    ...ERASED_DONOR_FIELDS,
    monthlyPaymentAvailable: false,
    nextPaymentDate: null,
    erasedAt: donor.erasedAt ?? at,
  });
}

/** An admin as stored: email normalized, instants normalized, `null` for absent decisions. */
export function canonicalAdmin(admin: Admin): Admin {
  if (!["approved", "pending", "rejected", "deactivated"].includes(admin.status)) {
    throw new RangeError(`unknown admin status ${JSON.stringify(admin.status)}`);
  }
  const hasRole = admin.status === "approved" || admin.status === "deactivated";
  if (hasRole) checkRole(admin.role);
  else if (admin.role != null) throw new RangeError(`a ${admin.status} admin has no role`);
  return {
    id: admin.id,
    email: normalizeEmail(admin.email),
    name: admin.name,
    passwordHash: admin.passwordHash,
    status: admin.status,
    role: hasRole ? admin.role : null,
    createdAt: isoInstant(admin.createdAt, "createdAt"),
    decidedBy: admin.decidedBy ?? null,
    decidedAt: isoInstantOrNull(admin.decidedAt, "decidedAt"),
  };
}

/**
 * A refresh token as stored: instants normalized. A token stored before families had a start
 * (Deno KV values written before it) counts its own creation as the start.
 */
export function canonicalRefreshToken(token: RefreshToken): RefreshToken {
  const createdAt = isoInstant(token.createdAt, "createdAt");
  const familyStartedAt = isoInstant(token.familyStartedAt ?? createdAt, "familyStartedAt");
  if (familyStartedAt > createdAt) throw new RangeError("familyStartedAt must not be after createdAt");
  return {
    hash: token.hash,
    adminId: token.adminId,
    familyId: token.familyId,
    familyStartedAt,
    createdAt,
    expiresAt: isoInstant(token.expiresAt, "expiresAt"),
    usedAt: isoInstantOrNull(token.usedAt, "usedAt"),
  };
}

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
    // Only a gift at a level has one (stored as absent otherwise, as payments before it were).
    ...(p.levelId == null ? {} : { levelId: checkInteger(p.levelId, "levelId", 1) }),
    // Consent to renew automatically: a one-time gift at a level only.
    ...(p.autoRenew === true && p.levelId != null && !p.isMonthly ? { autoRenew: true as const } : {}),
    ...(p.gift == null ? {} : { gift: canonicalPaymentGift(p.gift) }),
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
export function canonicalSubscription(s: NewSubscription): Subscription {
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
    version: checkInteger(s.version ?? 0, "version", 0),
    pausedFrom: isoInstantOrNull(s.pausedFrom ?? null, "pausedFrom"),
    charging: s.charging ?? null,
    cancelReason: s.cancelReason ?? null,
  };
}

/** The changes of a subscription's conditional update as stored: only the fields given, normalized. */
export function subscriptionChanges(changes: SubscriptionChanges): Partial<Subscription> {
  const out: Partial<Subscription> = {};
  if (changes.amount !== undefined) out.amount = checkInteger(changes.amount, "amount", 1);
  if (changes.pausedFrom !== undefined) out.pausedFrom = isoInstantOrNull(changes.pausedFrom, "pausedFrom");
  if (changes.charging !== undefined) out.charging = changes.charging ?? null;
  if (changes.cancelledAt !== undefined) {
    out.cancelledAt = isoInstantOrNull(changes.cancelledAt, "cancelledAt");
  }
  if (changes.cancelReason !== undefined) out.cancelReason = changes.cancelReason ?? null;
  if (changes.token !== undefined) {
    // A new card (the donor portal's card update): a token is never empty.
    if (typeof changes.token !== "string" || changes.token.length === 0 || changes.token.length > 200) {
      throw new RangeError("token must be 1..200 characters");
    }
    out.token = changes.token;
  }
  if (changes.cardMasked !== undefined) out.cardMasked = changes.cardMasked ?? null;
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
    ...cardToken("token", c.token),
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

/** A kiosk device in the one shape both backends store and answer. */
export function canonicalKioskDevice(d: KioskDevice): KioskDevice {
  return {
    id: d.id,
    name: d.name,
    shopNumber: d.shopNumber,
    terminalId: d.terminalId,
    createdBy: d.createdBy,
    createdAt: isoInstant(d.createdAt, "createdAt"),
    pairingCodeHash: d.pairingCodeHash,
    pairingExpiresAt: isoInstantOrNull(d.pairingExpiresAt, "pairingExpiresAt"),
    credentialHash: d.credentialHash,
    pairedAt: isoInstantOrNull(d.pairedAt, "pairedAt"),
    lastUsedAt: isoInstantOrNull(d.lastUsedAt, "lastUsedAt"),
    revokedAt: isoInstantOrNull(d.revokedAt, "revokedAt"),
  };
}
