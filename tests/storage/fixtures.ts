/**
 * The records the storage contract steps write: one builder per kind (a donor, an admin, a
 * transaction, a payment...), each complete and unique (ids from {@link uid}) at a fixed time
 * ({@link at}), with `overrides` for what a step cares about; and the batches the import, scan and
 * data-migration steps need.
 *
 * @module
 */

import type {
  Admin,
  Charge,
  Donor,
  Payment,
  RefreshToken,
  Refund,
  SandboxRecord,
  Subscription,
  Transaction,
} from "@/lib/storage/types.ts";
import { paymentFixture as sharedPaymentFixture } from "@/tests/helpers/fixtures.ts";

let fixtureCount = 0;
/** A unique id with a readable prefix. */
export const uid = (prefix: string) => `${prefix}_${++fixtureCount}_${crypto.randomUUID().slice(0, 8)}`;

/** The instant the fixtures are written at: 2025-03-01 10:00 UTC. */
export const T0 = Date.parse("2025-03-01T10:00:00.000Z");
/** An ISO instant `ms` after {@link T0}. */
export const at = (ms: number) => new Date(T0 + ms).toISOString();

/** An hour, in milliseconds. */
export const HOUR = 3_600_000;
/** A day, in milliseconds. */
export const DAY = 24 * HOUR;

/** A donor (Ada Lovelace) created at {@link T0}. */
export function donorFixture(overrides: Partial<Donor> = {}): Donor {
  return {
    id: uid("donor"),
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    country: "GB",
    createdAt: at(0),
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: false,
    israeliId: null,
    ...overrides,
  };
}

/** A pending admin (Grace Hopper) with an email of its own, created at {@link T0}. */
export function adminFixture(overrides: Partial<Admin> = {}): Admin {
  const id = overrides.id ?? uid("admin");
  const hasRole = overrides.status === "approved" || overrides.status === "deactivated";
  return {
    // An approved fixture may do everything but manage roles unless the test says otherwise.
    role: hasRole ? "admin" : null,
    id,
    email: `${id}@museum.example`,
    name: "Grace Hopper",
    passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    status: "pending",
    createdAt: at(0),
    decidedBy: null,
    decidedAt: null,
    ...overrides,
  };
}

/** An unused refresh token, created at {@link T0}, that expires a day later. */
export function tokenFixture(overrides: Partial<RefreshToken> = {}): RefreshToken {
  return {
    hash: uid("hash"),
    adminId: uid("admin"),
    familyId: uid("family"),
    familyStartedAt: at(0),
    createdAt: at(0),
    expiresAt: at(86_400_000),
    usedAt: null,
    ...overrides,
  };
}

/** A successful one-time sandbox transaction of 100.00 NIS (or an error, with `kind: "error"`). */
export function txFixture(overrides: Partial<Transaction> = {}): Transaction {
  const kind = overrides.kind ?? "success";
  return {
    id: uid("tx"),
    kind,
    statusCode: kind === "success" ? "000" : "033",
    isMonthly: false,
    createdAt: at(0),
    donorId: uid("donor"),
    user: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    amount: kind === "success" ? 10_000 : null,
    currency: kind === "success" ? 1 : null,
    resultData: kind === "success"
      ? {
        CreditCardNumber: "458045******4580",
        CreditType: "1",
        DebitTotal: "10000",
        DebitCurrency: 1,
        VoucherId: "12345678",
        ShvaResult: "000",
        Nested: { list: [1, "two", null], flag: true },
      }
      : null,
    errorMessage: kind === "success" ? null : "Card declined",
    provider: "sandbox",
    providerTransactionId: uid("ptx"),
    ...overrides,
  };
}

/** `count` transactions of every kind, oldest first, one second apart from `from`. */
export const importFixtures = (count: number, from: number) =>
  Array.from({ length: count }, (_, i) =>
    txFixture({
      kind: i % 5 === 2 ? "error" : "success",
      isMonthly: i % 3 === 0,
      createdAt: at((from + i) * 1000),
      user: { firstName: `First${i}`, lastName: i % 2 ? "Levi" : "Cohen", email: `donor${i}@example.org` },
    }));

/**
 * A pending online sandbox payment created at {@link T0}, in Hebrew: `tests/helpers/fixtures.ts`'s,
 * at the fixtures' time.
 */
export function paymentFixture(overrides: Partial<Payment> = {}): Payment {
  return sharedPaymentFixture({ language: "he", createdAt: at(0), updatedAt: at(0), ...overrides });
}

/** An active monthly subscription of 25.00 USD, created at {@link T0}, next due 30 days later. */
export function subscriptionFixture(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: uid("sub"),
    donorId: uid("donor"),
    amount: 2_500,
    currency: 2,
    provider: "sandbox",
    token: uid("tok"),
    cardMasked: "458045******4580",
    language: "en",
    status: "active",
    createdAt: at(0),
    paymentDate: at(0),
    nextPaymentDate: at(30 * DAY),
    failedAttempts: 0,
    retryAt: null,
    cancelledAt: null,
    version: 0,
    pausedFrom: null,
    charging: null,
    cancelReason: null,
    ...overrides,
  };
}

/** A started first attempt of a subscription's charge for the period 30 days after {@link T0}. */
export function chargeFixture(overrides: Partial<Charge> = {}): Charge {
  const c: Charge = {
    subscriptionId: uid("sub"),
    period: at(30 * DAY),
    attempt: 0,
    status: "started",
    reference: "",
    startedAt: at(30 * DAY),
    finishedAt: null,
    transactionId: null,
    ...overrides,
  };
  return { ...c, reference: c.reference || `${c.subscriptionId}:${c.period}:${c.attempt}` };
}

/** An open hosted sandbox payment page of 100.00 NIS, created at {@link T0}. */
export function sandboxFixture(overrides: Partial<SandboxRecord> = {}): SandboxRecord {
  return {
    ref: uid("sbx"),
    kind: "hosted",
    status: "open",
    reference: uid("pay"),
    terminalId: null,
    amount: 10_000,
    currency: 1,
    createdAt: at(0),
    updatedAt: at(0),
    data: { userKey: "k", returnUrl: "http://127.0.0.1/return", tokenize: false, nested: { a: [1, null] } },
    ...overrides,
  };
}

/** A pending refund of 10.00 on transaction `tx_refund_1`, asked by a finance admin. */
export function refundFixture(overrides: Partial<Refund> = {}): Refund {
  return {
    id: uid("refund"),
    transactionId: "tx_refund_1",
    key: uid("key"),
    amount: 1_000,
    currency: 1,
    reason: "requested-by-donor",
    note: "asked by phone",
    actorId: "admin_1",
    actorEmail: "finance@museum.example",
    cancelMonthly: false,
    createdAt: at(0),
    state: "pending",
    providerRef: null,
    error: null,
    settledAt: null,
    failureReport: null,
    ...overrides,
  };
}

// ---- data written by an earlier version ----

/**
 * Transactions as a store written before errors had monthly and one-time lists holds them:
 * `count` of them, oldest first, a third errors (half of those monthly, some of them large), with
 * a few shared names to search for.
 */
export function legacyFixtures(count: number): Transaction[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = i % 3 === 1 ? "error" : "success";
    return txFixture({
      kind,
      isMonthly: i % 2 === 0,
      createdAt: at(i * 1000),
      user: {
        firstName: `F${i}`,
        lastName: i % 7 === 0 ? "Legacy" : "Other",
        email: `legacy${i}@example.org`,
      },
      // Some large errors: a copy commit then holds fewer of them.
      errorMessage: kind === "error" ? (i % 50 === 1 ? "x".repeat(30_000) : "Card declined") : null,
    });
  });
}
