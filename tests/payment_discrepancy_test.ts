/**
 * A payment recorded as declined stays declined whatever the provider says later: an approval then
 * is an error line for a person (`"event":"payment_discrepancy"`), never a success, a subscription
 * or a donor's payment date; and a recorded failure is not asked about on every notification: at
 * most once a quarter hour. On both backends, with the sandbox (its record changed under it, as a
 * provider changing its answer), through `completePayment` and through the app's routes.
 */
import assert from "node:assert/strict";
import { completePayment } from "@/lib/donations/completion.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import type { PaymentProvider } from "@/lib/providers/provider.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { PaymentsContext } from "@/lib/donations/service.ts";
import type { Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { capturedLog, seedDonor } from "@/tests/helpers/fixtures.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const DECLINE_CARD = "4000 0000 0000 0033";

/** The provider now reports the declined sandbox payment `ref` approved. */
async function approveLater(store: Store, ref: string) {
  const moved = await store.sandbox.transition(ref, "declined", "paid", {
    statusCode: "000",
    errorMessage: null,
    token: "tok_late",
  }, new Date().toISOString());
  assert.ok(moved, "the sandbox record was declined");
}

backendTest("payments: a recorded decline the provider later reports approved", async (t, open) => {
  const store = await open();
  const sandbox = createSandboxProvider({
    store,
    origin: "http://localhost",
    secret: "s".repeat(40),
    terminalMode: "manual",
    notify: () => Promise.resolve(),
  });
  let verifies = 0;
  const provider: PaymentProvider = {
    ...sandbox,
    verifyPayment(ref, expected) {
      verifies++;
      return sandbox.verifyPayment(ref, expected);
    },
  };
  const { lines, log } = capturedLog();
  const ctx: PaymentsContext = {
    store,
    provider,
    log,
    origin: "http://localhost",
    maxAmount: 100_000,
    monthlyEnabled: true,
  };
  const donor = await seedDonor(store);
  const { payment: started } = await createOnlinePayment(ctx, {
    amount: 100,
    currency: 1,
    userId: donor.id,
    isMonthly: true,
    language: "en",
  });
  const done = await sandbox.submitCard(started.providerRef!, {
    cardNumber: DECLINE_CARD,
    expiry: "12/30",
    cvv: "123",
    idNumber: "123456789",
  });
  assert.equal(done.status, "done");
  // The donor's return records the decline.
  const first = await completePayment(ctx, (await store.payments.get(started.id))!);
  assert.equal(first.outcome, "failed");
  assert.equal(first.transaction?.statusCode, "033");
  assert.equal(verifies, 1);

  await t.step("asked again, the approval is logged as a discrepancy and changes nothing", async () => {
    await approveLater(store, started.providerRef!);
    const again = await completePayment(ctx, (await store.payments.get(started.id))!);
    assert.equal(again.outcome, "failed");
    assert.equal(again.transaction?.id, first.transaction!.id);
    assert.equal(verifies, 2, "the provider was asked");
    const flagged = lines.filter((l) => l.event === "payment_discrepancy");
    assert.equal(flagged.length, 1);
    assert.equal(flagged[0].level, "error");
    assert.equal(flagged[0].paymentId, started.id);
    assert.equal(flagged[0].transactionId, first.transaction!.id);
    assert.equal(flagged[0].recordedStatusCode, "033");
    assert.equal(flagged[0].providerStatusCode, "000");

    const payment = (await store.payments.get(started.id))!;
    assert.equal(payment.status, "failed");
    assert.equal(payment.transactionId, first.transaction!.id);
    assert.equal((await store.transactions.get(first.transaction!.id))?.kind, "error");
    assert.equal((await store.transactions.listSuccess({ page: 1, limit: 10 })).total, 0);
    assert.deepEqual(await store.subscriptions.listByDonor(donor.id), [], "no subscription");
    const after = (await store.donors.get(donor.id))!;
    assert.equal(after.paymentDate, null);
    assert.equal(after.monthlyPaymentAvailable, false);
  });

  await t.step(
    "further notifications and returns within the quarter hour: as recorded, no call",
    async () => {
      for (let i = 0; i < 5; i++) {
        const repeat = await completePayment(ctx, (await store.payments.get(started.id))!);
        assert.equal(repeat.outcome, "failed");
        assert.equal(repeat.transaction?.id, first.transaction!.id);
      }
      assert.equal(verifies, 2, "the provider was not asked again");
      assert.equal(lines.filter((l) => l.event === "payment_discrepancy").length, 1);
    },
  );
});

backendTest(
  "payments: the notification route never turns a recorded decline into a success",
  async (_t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      const { store } = app;
      const userId = await newDonor(app, "Declined");
      const created = await createPayment(app, { amount: 30, currency: "nis", userId });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal((await payOnSandboxPage(app, created.body.url, DECLINE_CARD)).pathname, "/en/error");
      const ref = new URL(created.body.url).pathname.split("/").pop()!;
      const declined = (await store.payments.getByProviderRef("sandbox", ref))!;
      assert.equal(declined.status, "failed");
      const verifications = () =>
        app.logs.filter((l) => l.msg === "provider call" && l.call === "verifyPayment").length;
      // Let the sandbox's own notification (sent beside the return) arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = verifications();
      await approveLater(store, ref);

      for (let i = 0; i < 4; i++) {
        const notified = await api(app.url, "POST", "/api/payment/notify/sandbox", {
          ResultData: { TransactionId: ref },
        });
        assert.equal(notified.status, 200, JSON.stringify(notified.body));
        assert.deepEqual(notified.body, { outcome: "failed" });
      }
      const back = await fetch(`${app.url}/payments/return/${declined.id}`, { redirect: "manual" });
      await back.body?.cancel();
      assert.equal(back.status, 303);
      assert.match(back.headers.get("location")!, /^\/en\/error\?SandboxStatusCode=033&/);

      const payment = (await store.payments.get(declined.id))!;
      assert.equal(payment.status, "failed");
      assert.equal(payment.transactionId, declined.transactionId);
      assert.equal((await store.transactions.listSuccess({ page: 1, limit: 10 })).total, 0);
      assert.equal((await store.donors.get(userId))?.paymentDate, null);
      // Four notifications and a return: the provider asked at most once (not at all when the
      // sandbox's own notification was the quarter hour's question).
      assert.ok(verifications() - before <= 1, `${verifications() - before} verifications`);
    } finally {
      await app.close();
    }
  },
);
