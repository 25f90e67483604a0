/**
 * The overview's test data (issue 26), shared by its API and browser tests: something in every part,
 * at times relative to now.
 *
 * @module
 */
import { dayOf } from "@/lib/core/zoned_time.ts";
import type { MessageInput, Store, Transaction } from "@/lib/storage/types.ts";
import { refundFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";
import { deviceFixture } from "@/tests/storage/kiosk_devices_contract.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Something in every part, at times relative to now: gifts last month and in the last minutes, a
 * monthly gift failing with its declined charge, a refund pending, email in trouble, a kiosk gone
 * quiet. Recorded oldest first, as the app records.
 */
export async function overviewScene(
  store: Store,
  zone: string,
): Promise<{ txs: Transaction[]; today: string }> {
  const now = Date.now();
  const at = (ms: number) => new Date(now - ms).toISOString();
  const txs: Transaction[] = [
    txFixture({ createdAt: at(40 * DAY), amount: 1_000 }),
    txFixture({ createdAt: at(33 * DAY), amount: 2_000, currency: 2 }),
    // A one-time decline and a monthly one (the failing gift's charge).
    txFixture({ kind: "error", createdAt: at(30 * 60_000) }),
    txFixture({ kind: "error", isMonthly: true, createdAt: at(20 * 60_000), amount: 5_000, currency: 1 }),
    txFixture({ createdAt: at(10 * 60_000), amount: 3_000 }),
    txFixture({ createdAt: at(5_000), amount: 4_000, isMonthly: true }),
  ];
  for (const tx of txs) await store.transactions.record(tx);
  await store.subscriptions.create(subscriptionFixture({
    nextPaymentDate: at(HOUR),
    failedAttempts: 1,
    retryAt: new Date(now + DAY).toISOString(),
    amount: 5_000,
    currency: 1,
  }));
  await store.refunds.begin(
    refundFixture({ transactionId: txs[4].id, amount: 500, createdAt: at(60_000) }),
    3_000,
  );
  const message = (i: number): MessageInput => ({
    key: `receipt:api-overview-${i}`,
    kind: "receipt",
    to: { donorId: `donor-${i}` },
    language: "he",
    data: { transactionId: `tx-${i}` },
  });
  for (let i = 0; i < 3; i++) await store.outbox.enqueue([message(i)], at((3 - i) * 60_000));
  for (const m of await store.outbox.claim("test", at(0), 60_000, 100)) {
    if (m.key.endsWith("-0")) await store.outbox.settle(m, { state: "sent", at: at(0) });
    else if (m.key.endsWith("-1")) {
      await store.outbox.settle(m, { state: "failed", at: at(0), reason: "550" });
    } else await store.outbox.settle(m, { state: "queued", retryAt: at(-HOUR), reason: "421" });
  }
  const paired = { credentialHash: "a".repeat(64), pairedAt: at(30 * DAY) };
  await store.kioskDevices.create(deviceFixture({ ...paired, name: "Quiet", lastUsedAt: at(2 * DAY) }));
  await store.kioskDevices.create(
    deviceFixture({ ...paired, credentialHash: "b".repeat(64), name: "Busy", lastUsedAt: at(HOUR) }),
  );
  return { txs, today: dayOf(now, zone) };
}
