import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { enqueueYearlyStatements } from "./yearly_statements.ts";

function gift(email: string, createdAt: string, over: Partial<Transaction> = {}): Transaction {
  return {
    id: newId(),
    kind: "success",
    statusCode: "000",
    isMonthly: false,
    createdAt,
    donorId: newId(),
    user: { firstName: "A", lastName: "B", email },
    amount: 1000,
    currency: 1,
    resultData: null,
    errorMessage: null,
    provider: "sandbox",
    providerTransactionId: newId(),
    ...over,
  };
}

Deno.test("yearly statements: in January, one per address that gave last year, idempotent keys", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const danaOld = gift("dana@example.org", "2025-02-01T10:00:00.000Z");
    const danaLatest = gift("Dana@Example.org", "2025-11-01T10:00:00.000Z");
    const monthly = gift("moshe@example.org", "2025-06-01T10:00:00.000Z", { isMonthly: true });
    await store.subscriptions.create({
      id: `sub_${newId()}`,
      donorId: monthly.donorId,
      amount: 1000,
      currency: 1,
      provider: "sandbox",
      token: "tok",
      cardMasked: null,
      language: "he",
      status: "active",
      createdAt: monthly.createdAt,
      paymentDate: monthly.createdAt,
      nextPaymentDate: "2025-07-01T10:00:00.000Z",
      failedAttempts: 0,
      retryAt: null,
      cancelledAt: null,
    });
    for (
      const tx of [
        gift("before@example.org", "2024-12-31T23:59:59.000Z"),
        danaOld,
        gift("declined@example.org", "2025-03-01T10:00:00.000Z", { kind: "error", statusCode: "004" }),
        monthly,
        danaLatest,
        gift("after@example.org", "2026-01-01T00:00:00.000Z"),
      ]
    ) await store.transactions.record(tx);
    const enqueued: MessageInput[] = [];
    const deps = { store, enqueue: (m: MessageInput) => Promise.resolve(void enqueued.push(m)) };

    assert.equal(await enqueueYearlyStatements(deps, new Date("2026-02-01T06:41:00Z")), 0, "not in February");
    assert.equal(await enqueueYearlyStatements(deps, new Date("2025-12-31T06:41:00Z")), 0, "not in December");
    assert.equal(enqueued.length, 0);

    assert.equal(await enqueueYearlyStatements(deps, new Date("2026-01-02T06:41:00Z")), 2);
    const byKey = new Map(enqueued.map((m) => [m.key, m]));
    assert.deepEqual([...byKey.keys()].sort(), [
      "yearly:2025:dana@example.org",
      "yearly:2025:moshe@example.org",
    ]);
    assert.deepEqual(byKey.get("yearly:2025:dana@example.org"), {
      key: "yearly:2025:dana@example.org",
      kind: "yearly-statement",
      to: { donorId: danaLatest.donorId },
      language: "en",
      data: { year: 2025 },
    });
    assert.equal(byKey.get("yearly:2025:moshe@example.org")?.language, "he", "the monthly gift's language");
    // A second run (another instance, the next day) enqueues the same keys: the outbox stores each once.
    await enqueueYearlyStatements(deps, new Date("2026-01-03T06:41:00Z"));
    assert.deepEqual(enqueued.slice(2).map((m) => m.key).sort(), [...byKey.keys()].sort());
  } finally {
    await store.close();
  }
});
