/**
 * Reconciliation (`lib/donations/reconcile.ts`) end to end on both backends: online payments whose
 * return and server notification were both lost. With the sandbox: a paid one is recorded by a
 * pass, once, however often passes run and even when the return arrives afterwards; a declined
 * one is recorded as an error; an abandoned one becomes failed after the cut-off and not before;
 * an unreachable provider leaves the payment pending. With Pelecard (against the local simulator):
 * the same through GetTransaction with the init GUID.
 */
import assert from "node:assert/strict";
import { createPelecardProvider } from "@/lib/providers/pelecard/pelecard.ts";
import { type PaymentProvider, ProviderError } from "@/lib/providers/provider.ts";
import {
  RECONCILE_CUTOFF_MS,
  RECONCILE_GRACE_MS,
  type ReconcileContext,
  runReconcilePass,
} from "@/lib/donations/reconcile.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import type { PaymentsContext } from "@/lib/donations/service.ts";
import type { Payment, Store } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { capturedLog, paymentFixture, seedDonor } from "@/tests/helpers/fixtures.ts";
import { followReturn, GOOD_CARD } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { SIM_LOGIN, startPelecardSimulator } from "./pelecard_simulator.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const DECLINE_CARD = "4000 0000 0000 0033";

/** A provider that counts verifyPayment calls and can be made unreachable. */
function counting(inner: PaymentProvider) {
  const state = { verifies: 0, down: false };
  const provider: PaymentProvider = {
    ...inner,
    verifyPayment(ref, expected) {
      state.verifies++;
      if (state.down) return Promise.reject(new ProviderError("connection refused (test)", "unreachable"));
      return inner.verifyPayment(ref, expected);
    },
  };
  return { provider, state };
}

/**
 * The sandbox behind the test app, as in production, except that its server notification always
 * fails: with no return either, nothing records a payment but reconciliation.
 */
async function setup(open: () => Promise<Store>) {
  const store = await open();
  const app = await startTestApp({ store });
  const sandbox = createSandboxProvider({
    store,
    origin: app.url,
    secret: "s".repeat(40),
    terminalMode: "manual",
    notify: () => Promise.reject(new Error("the app is down (test)")),
  });
  const { provider, state } = counting(sandbox);
  const { lines, log } = capturedLog();
  const payments: PaymentsContext = {
    store,
    provider,
    log,
    origin: app.url,
    maxAmount: 100_000,
    monthlyEnabled: true,
  };
  const donorId = (await seedDonor(store)).id;
  /** Starts an online payment of the donor's, as `POST /api/payment/create` does. */
  const start = async (amount: number, isMonthly = false) =>
    (await createOnlinePayment(payments, { amount, currency: 1, userId: donorId, isMonthly, language: "en" }))
      .payment;
  /** The donor pays (or is declined) on the sandbox page; the return never reaches us. */
  const pay = async (payment: Payment, card = GOOD_CARD) => {
    const done = await sandbox.submitCard(payment.providerRef!, {
      cardNumber: card,
      expiry: "12/30",
      cvv: "123",
      idNumber: "123456789",
    });
    assert.equal(done.status, "done");
  };
  const pass = (after: number, holder = "web-1") =>
    runReconcilePass({ store, provider, log, holder, now: () => new Date(Date.now() + after) });
  return { store, app, sandbox, provider, state, lines, donorId, start, pay, pass };
}

/** Every success and error transaction of the store. */
async function transactions(store: Store) {
  const success = await store.transactions.listSuccess({ page: 1, limit: 100 });
  const errors = await store.transactions.listErrors({ page: 1, limit: 100 });
  return { success: success.data, errors: errors.data };
}

const returnTo = (app: TestApp, payment: Payment) =>
  followReturn(app, `${app.url}/payments/return/${payment.id}`);

backendTest("reconcile: sandbox payments whose return and notification were lost", async (t, open) => {
  const s = await setup(open);
  try {
    await t.step(
      "a paid payment is recorded by a pass, once; a monthly one starts its subscription",
      async () => {
        const oneTime = await s.start(100);
        const monthly = await s.start(50, true);
        await s.pay(oneTime);
        await s.pay(monthly);
        assert.equal((await s.store.payments.get(oneTime.id))?.status, "pending", "nothing recorded it");

        const early = await s.pass(RECONCILE_GRACE_MS - MINUTE);
        assert.deepEqual([early.ran, early.recorded, s.state.verifies], [true, 0, 0], "not within the grace");

        const report = await s.pass(RECONCILE_GRACE_MS + MINUTE);
        assert.equal(report.recorded, 2);
        const { success } = await transactions(s.store);
        assert.equal(success.length, 2);
        const paid = (await s.store.payments.get(oneTime.id))!;
        assert.equal(paid.status, "succeeded");
        assert.equal(success.find((tx) => tx.id === paid.transactionId)?.amount, 10_000);
        const [sub] = await s.store.subscriptions.listByDonor(s.donorId);
        assert.equal(sub.id, `sub_${monthly.id}`);
        assert.equal(sub.status, "active");
        assert.match(sub.token, /^tok_/);
        assert.equal((await s.store.donors.get(s.donorId))?.monthlyPaymentAvailable, true);
        const warned = s.lines.filter((l) => l.msg === "paid payment recorded by reconciliation");
        assert.deepEqual(warned.map((l) => l.level), ["warn", "warn"]);

        // Another pass, and then the donor's return after all: nothing new.
        const again = await s.pass(RECONCILE_GRACE_MS + 2 * MINUTE);
        assert.equal(again.recorded, 0);
        assert.equal((await returnTo(s.app, oneTime)).pathname, "/en/success");
        assert.equal((await returnTo(s.app, monthly)).pathname, "/en/success");
        assert.equal((await transactions(s.store)).success.length, 2);
        assert.equal((await s.store.subscriptions.listByDonor(s.donorId)).length, 1);
        assert.equal((await s.store.payments.get(monthly.id))?.status, "succeeded");
      },
    );

    await t.step("two instances' passes and a return at the same moment record it once", async () => {
      const payment = await s.start(70);
      await s.pay(payment);
      const [a, b, landed] = await Promise.all([
        s.pass(RECONCILE_GRACE_MS + MINUTE, "web-1"),
        s.pass(RECONCILE_GRACE_MS + MINUTE, "web-2"),
        returnTo(s.app, payment),
      ]);
      assert.equal(landed.pathname, "/en/success");
      // Both passes may have run, one after the other (the lease only keeps them from overlapping,
      // and under load one can end before the other starts); either way the payment is recorded once.
      assert.ok(a.ran || b.ran);
      const recorded = (await transactions(s.store)).success.filter((tx) =>
        tx.providerTransactionId === payment.providerRef
      );
      assert.equal(recorded.length, 1);
      assert.equal((await s.store.payments.get(payment.id))?.status, "succeeded");
    });

    await t.step("a declined payment is recorded as an error", async () => {
      const payment = await s.start(30);
      await s.pay(payment, DECLINE_CARD);
      const report = await s.pass(RECONCILE_GRACE_MS + MINUTE);
      assert.equal(report.declined, 1);
      const failed = (await s.store.payments.get(payment.id))!;
      assert.equal(failed.status, "failed");
      const { errors } = await transactions(s.store);
      assert.deepEqual(
        errors.filter((tx) => tx.id === failed.transactionId).map((tx) => tx.statusCode),
        ["033"],
      );
      assert.equal((await s.pass(RECONCILE_GRACE_MS + 2 * MINUTE)).declined, 0);
    });

    await t.step(
      "an abandoned payment is asked about less and less, and fails after the cut-off",
      async () => {
        const payment = await s.start(40);
        const asked = () => s.state.verifies;
        const before = asked();
        assert.equal((await s.pass(RECONCILE_GRACE_MS + MINUTE)).pending, 1);
        assert.equal(asked(), before + 1);
        assert.equal((await s.store.payments.get(payment.id))?.status, "pending");
        // Asked again only once as long has passed since (doubling intervals), not at every pass.
        const soon = await s.pass(RECONCILE_GRACE_MS + 10 * MINUTE);
        assert.equal(soon.skipped, 1);
        assert.equal(asked(), before + 1);
        assert.equal((await s.pass(2 * RECONCILE_GRACE_MS + 3 * MINUTE)).pending, 1);
        assert.equal(asked(), before + 2);
        // Just before the cut-off it is still pending.
        const lastDay = await s.pass(RECONCILE_CUTOFF_MS - 5 * MINUTE);
        assert.equal(lastDay.pending, 1);
        assert.equal((await s.store.payments.get(payment.id))?.status, "pending");
        const expired = await s.pass(RECONCILE_CUTOFF_MS + MINUTE);
        assert.equal(expired.expired, 1);
        const closed = (await s.store.payments.get(payment.id))!;
        assert.equal(closed.status, "failed");
        assert.equal(closed.transactionId, null, "no transaction: nothing was charged");
        const line = s.lines.find((l) => l.msg?.toString().includes("still unknown to the provider"));
        assert.equal(line?.level, "warn");
        assert.equal(line?.paymentId, payment.id);
        const after = asked();
        assert.equal((await s.pass(RECONCILE_CUTOFF_MS + 30 * MINUTE)).expired, 0);
        assert.equal(asked(), after, "never asked about again");

        // Should the donor still pay and come back, the late return records it.
        await s.pay(payment);
        assert.equal((await returnTo(s.app, payment)).pathname, "/en/success");
        assert.equal((await s.store.payments.get(payment.id))?.status, "succeeded");
      },
    );

    await t.step("an unreachable provider leaves the payment pending, even past the cut-off", async () => {
      const payment = await s.start(60);
      await s.pay(payment);
      s.state.down = true;
      try {
        const report = await s.pass(RECONCILE_GRACE_MS + MINUTE);
        assert.equal(report.unreachable, 1);
        assert.equal((await s.store.payments.get(payment.id))?.status, "pending");
        assert.equal((await s.pass(RECONCILE_CUTOFF_MS + DAY)).unreachable, 1);
        assert.equal((await s.store.payments.get(payment.id))?.status, "pending");
        assert.ok(s.lines.some((l) => l.msg?.toString().includes("could not reach the payment provider")));
      } finally {
        s.state.down = false;
      }
      assert.equal((await s.pass(RECONCILE_CUTOFF_MS + DAY)).recorded, 1);
      assert.equal((await s.store.payments.get(payment.id))?.status, "succeeded");
    });

    await t.step(
      "a payment whose start never reached the provider is closed; kiosk ones are left",
      async () => {
        const created = new Date(Date.now() - 20 * MINUTE).toISOString();
        const base = paymentFixture({
          donorId: s.donorId,
          amount: 1000,
          userKey: "k",
          createdAt: created,
          updatedAt: created,
        });
        await s.store.payments.createOrReuse(base, "never-started", 60_000, Date.now());
        const kiosk = { ...base, id: `${base.id}k`, channel: "terminal" as const, shopNumber: "7" };
        await s.store.payments.createOrReuse(kiosk, "kiosk", 60_000, Date.now());
        const report = await s.pass(0);
        assert.equal(report.closed, 1);
        assert.equal(report.skipped, 1);
        assert.equal((await s.store.payments.get(base.id))?.status, "failed");
        assert.equal((await s.store.payments.get(kiosk.id))?.status, "pending");
      },
    );
  } finally {
    await s.app.close();
  }
});

backendTest("reconcile: Pelecard payments through GetTransaction (local simulator)", async (t, open) => {
  const store = await open();
  const sim = await startPelecardSimulator();
  try {
    const pelecard = createPelecardProvider({ baseUrl: sim.url, ...SIM_LOGIN, timeoutMs: 2000 });
    const { log, lines } = capturedLog();
    // Notifications go to a port nobody listens on: they fail, as when the app is down.
    const payments: PaymentsContext = {
      store,
      provider: pelecard,
      log,
      origin: "http://127.0.0.1:9",
      maxAmount: 100_000,
      monthlyEnabled: true,
    };
    const donorId = (await seedDonor(store)).id;
    const start = async (amount: number, isMonthly = false) =>
      (await createOnlinePayment(payments, {
        amount,
        currency: 1,
        userId: donorId,
        isMonthly,
        language: "he",
      }))
        .payment;
    const ctx = (after: number): ReconcileContext => ({
      store,
      provider: pelecard,
      log,
      holder: "web-1",
      now: () => new Date(Date.now() + after),
    });

    const paid = await start(100, true);
    const declined = await start(20);
    const abandoned = await start(30);
    const completion = await sim.state.complete(paid.providerRef!, {
      statusCode: "000",
      token: "1234567890",
    });
    assert.ok(completion.notification?.error ?? completion.notification?.status !== 200, "notification lost");
    await sim.state.complete(declined.providerRef!, { statusCode: "004" });

    await t.step("the provider unreachable: everything stays pending", async () => {
      sim.state.failNext("http500", 3, "/PaymentGW/GetTransaction");
      const report = await runReconcilePass(ctx(RECONCILE_GRACE_MS + MINUTE));
      assert.equal(report.unreachable, 3);
      for (const p of [paid, declined, abandoned]) {
        assert.equal((await store.payments.get(p.id))?.status, "pending");
      }
    });

    await t.step("paid and declined are recorded; the open one is asked about by its init GUID", async () => {
      const report = await runReconcilePass(ctx(RECONCILE_GRACE_MS + 2 * MINUTE));
      assert.deepEqual([report.recorded, report.declined, report.pending], [1, 1, 1]);
      const asked = sim.state.bodies("/PaymentGW/GetTransaction").map((b) => b.TransactionId);
      for (const p of [paid, declined, abandoned]) assert.ok(asked.includes(p.providerRef), p.id);
      const done = (await store.payments.get(paid.id))!;
      assert.equal(done.status, "succeeded");
      const tx = await store.transactions.get(done.transactionId!);
      assert.equal(tx?.statusCode, "000");
      assert.equal(tx?.providerTransactionId, paid.providerRef);
      const [sub] = await store.subscriptions.listByDonor(donorId);
      assert.equal(sub.token, "1234567890");
      const refused = (await store.payments.get(declined.id))!;
      assert.equal(refused.status, "failed");
      assert.equal((await store.transactions.get(refused.transactionId!))?.statusCode, "004");
      assert.equal((await store.payments.get(abandoned.id))?.status, "pending");
      // Again: nothing new.
      const again = await runReconcilePass(ctx(RECONCILE_GRACE_MS + 3 * MINUTE));
      assert.deepEqual([again.recorded, again.declined], [0, 0]);
      assert.equal((await store.transactions.listSuccess({ page: 1, limit: 10 })).total, 1);
    });

    await t.step("the open one (GetTransaction 510) fails after the cut-off, not before", async () => {
      assert.equal((await runReconcilePass(ctx(RECONCILE_CUTOFF_MS - MINUTE))).pending, 1);
      assert.equal((await store.payments.get(abandoned.id))?.status, "pending");
      assert.equal((await runReconcilePass(ctx(RECONCILE_CUTOFF_MS + MINUTE))).expired, 1);
      assert.equal((await store.payments.get(abandoned.id))?.status, "failed");
      assert.ok(lines.some((l) => l.level === "warn" && l.paymentId === abandoned.id));
    });
  } finally {
    await sim.close();
  }
});
