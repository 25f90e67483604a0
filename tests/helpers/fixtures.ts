/**
 * Records and loggers the storage-level tests build by hand: a payment with every field, a donor
 * in storage, a logger that keeps its lines.
 *
 * @module
 */
import { createLogger, type Logger } from "@/lib/core/log.ts";
import type { Payment, Store } from "@/lib/storage/types.ts";

const id = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * A pending online sandbox payment of 100.00 NIS, created now; `overrides` replace any field.
 *
 * @example
 * ```ts
 * await store.payments.createOrReuse(paymentFixture({ status: "failed" }), "dedupe", 60_000, Date.now());
 * ```
 */
export function paymentFixture(overrides: Partial<Payment> = {}): Payment {
  const now = new Date().toISOString();
  return {
    id: id("pay"),
    donorId: id("donor"),
    amount: 10_000,
    currency: 1,
    isMonthly: false,
    language: "en",
    channel: "online",
    shopNumber: null,
    provider: "sandbox",
    providerRef: null,
    pageUrl: null,
    userKey: id("key"),
    confirmationKey: null,
    status: "pending",
    transactionId: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/**
 * Stores a donor (Dana Levi) and answers it.
 *
 * @example
 * ```ts
 * const donor = await seedDonor(store);
 * ```
 */
export async function seedDonor(store: Store) {
  return await store.donors.create({
    id: id("donor"),
    firstName: "Dana",
    lastName: "Levi",
    email: "dana@example.org",
    country: "Israel",
    createdAt: new Date().toISOString(),
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: false,
    israeliId: null,
  });
}

/**
 * A logger that keeps its lines, parsed.
 *
 * @example
 * ```ts
 * const { lines, log } = capturedLog();
 * log.info("hello");
 * lines[0].msg; // "hello"
 * ```
 */
export function capturedLog(): { lines: Record<string, unknown>[]; log: Logger } {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: createLogger((line) => lines.push(JSON.parse(line))) };
}
