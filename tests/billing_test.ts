/**
 * Monthly giving on both backends: the first payment through the sandbox creates a subscription;
 * billing passes (with a fake clock) charge it once per period, retry failures after 1, 3 and 7
 * days, stop at a cancel, and charge exactly once with two runners at once or after a crash.
 */
import assert from "node:assert/strict";
import { seedDueSubscriptions } from "@/tests/reliability/billing_support.ts";
import { createLogger } from "@/lib/core/log.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { type PaymentProvider, ProviderError } from "@/lib/providers/provider.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const DAY = 86_400_000;
const quiet = createLogger(() => {});
const sandbox = (store: Store) =>
  createSandboxProvider({
    store,
    origin: "http://localhost",
    secret: "s".repeat(40),
    terminalMode: "manual",
  });
const pass = (store: Store, provider: PaymentProvider, now: Date, holder = "test") =>
  runBillingPass({ store, provider, log: quiet, holder, now: () => now });

backendTest("billing: a monthly donation from first payment to retries and cancel", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  const { store } = app;
  const provider = sandbox(store);
  try {
    const userId = await newDonor(app, "Monthly");
    const created = await createPayment(app, { amount: 100, currency: "nis", userId, isMonthly: true });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const landed = await payOnSandboxPage(app, created.body.url);
    assert.equal(landed.pathname, "/en/success");
    const [sub] = await store.subscriptions.listByDonor(userId);

    await t.step("the first payment starts a subscription with a token and the donor shows it", async () => {
      assert.equal(sub.status, "active");
      assert.match(sub.token, /^tok_/);
      assert.equal(sub.amount, 10000);
      const paid = new Date(sub.paymentDate!);
      const next = new Date(sub.nextPaymentDate);
      assert.ok(next.getTime() - paid.getTime() >= 28 * DAY && next.getTime() - paid.getTime() <= 31 * DAY);
      const donor = await api(app.url, "GET", `/api/user/${userId}`);
      assert.equal(donor.body.monthlyPaymentAvailable, true);
      assert.equal(donor.body.nextPaymentDate, sub.nextPaymentDate);
    });

    await t.step(
      "nothing is charged before the due date; at it, one charge, recorded as monthly",
      async () => {
        const early = await pass(store, provider, new Date(new Date(sub.nextPaymentDate).getTime() - 60_000));
        assert.equal(early.charged, 0);
        const due = new Date(new Date(sub.nextPaymentDate).getTime() + 60_000);
        assert.equal((await pass(store, provider, due)).charged, 1);
        assert.equal(
          (await pass(store, provider, due)).charged,
          0,
          "a second pass at the same time charges nothing",
        );
        const after = (await store.subscriptions.get(sub.id))!;
        assert.equal(after.paymentDate, due.toISOString());
        assert.ok(after.nextPaymentDate > sub.nextPaymentDate);
        const monthly = await store.transactions.listSuccess({ page: 1, limit: 10, isMonthly: true });
        assert.equal(monthly.total, 2, "the first payment and the renewal");
      },
    );

    await t.step(
      "a declined renewal is retried after 1, 3 and 7 days, then the subscription fails",
      async () => {
        await store.sandbox.transition(
          sub.token,
          "active",
          "active",
          { declineCode: "004" },
          new Date().toISOString(),
        );
        const current = (await store.subscriptions.get(sub.id))!;
        let now = new Date(new Date(current.nextPaymentDate).getTime() + 60_000);
        for (const [i, days] of [[1, 1], [2, 3], [3, 7]]) {
          assert.equal((await pass(store, provider, now)).failed, 1);
          const s = (await store.subscriptions.get(sub.id))!;
          assert.equal(s.failedAttempts, i);
          assert.equal(s.retryAt, new Date(now.getTime() + days * DAY).toISOString());
          assert.equal(
            (await pass(store, provider, new Date(now.getTime() + days * DAY - 60_000))).failed,
            0,
            "not before the retry",
          );
          now = new Date(now.getTime() + days * DAY);
        }
        assert.equal((await pass(store, provider, now)).failed, 1);
        assert.equal((await store.subscriptions.get(sub.id))?.status, "failed");
        const donor = await api(app.url, "GET", `/api/user/${userId}`);
        assert.equal(donor.body.monthlyPaymentAvailable, false);
        const errors = await store.transactions.listErrors({ page: 1, limit: 10 });
        assert.equal(errors.data.filter((e) => e.isMonthly && e.statusCode === "004").length, 4);
      },
    );

    await t.step("cancelling stops the next charge at once", async () => {
      const other = await newDonor(app, "Canceller");
      const pay = await createPayment(app, {
        amount: 50,
        currency: "dollars",
        userId: other,
        isMonthly: true,
      });
      await payOnSandboxPage(app, pay.body.url);
      const [s] = await store.subscriptions.listByDonor(other);
      const cancel = await api(app.url, "PATCH", `/api/user/off-monthly-payment/${other}`);
      assert.equal(cancel.body.monthlyPaymentAvailable, false);
      assert.equal((await store.subscriptions.get(s.id))?.status, "cancelled");
      assert.equal(
        (await pass(store, provider, new Date(new Date(s.nextPaymentDate).getTime() + DAY))).charged,
        0,
      );
    });
  } finally {
    await app.close();
  }
});

/** A provider that counts token charges and can crash after a given one. */
function counting(inner: PaymentProvider, crashAfter = Infinity) {
  let calls = 0;
  const provider: PaymentProvider = {
    ...inner,
    async chargeToken(request) {
      const result = await inner.chargeToken(request);
      if (++calls === crashAfter) throw new Error("simulated crash after charging");
      return result;
    },
  };
  return { provider, calls: () => calls };
}

backendTest("billing: exactly once with two runners at once and after a crash", async (t, open) => {
  const store = await open();
  const due = new Date(Date.UTC(2026, 10, 1, 8, 0, 0));
  const now = new Date(due.getTime() + 60_000);

  await t.step("two runners at once over 1,000 due subscriptions: exactly 1,000 charges", async () => {
    await seedDueSubscriptions(store, 1000, due);
    const counter = counting(sandbox(store));
    const [a, b] = await Promise.all([
      pass(store, counter.provider, now, "runner-a"),
      pass(store, counter.provider, now, "runner-b"),
    ]);
    assert.equal(a.charged + b.charged, 1000);
    assert.equal(counter.calls(), 1000);
    const again = await pass(store, counter.provider, now, "runner-c");
    assert.equal(again.charged, 0);
    assert.equal((await store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).total, 1000);
  });

  await t.step("a pass killed midway and run again: no subscription charged twice or skipped", async () => {
    const later = new Date(Date.UTC(2026, 11, 1, 8, 0, 0)); // every subscription is due again
    const crashing = counting(sandbox(store), 300);
    await assert.rejects(() => pass(store, crashing.provider, later, "crashy"), /simulated crash/);
    const rerun = counting(sandbox(store));
    const second = await pass(store, rerun.provider, later, "rescuer");
    assert.equal(crashing.calls() + rerun.calls(), 1000, "each subscription's card was charged once");
    assert.equal(second.charged, 700, "every subscription the crashed pass had not reached");
    // Fifteen minutes on, the charge left "started" is looked up at the provider and recorded.
    const recovery = await pass(store, rerun.provider, new Date(later.getTime() + 16 * 60_000), "rescuer");
    assert.equal(recovery.recovered, 1);
    assert.equal(rerun.calls() + crashing.calls(), 1000, "recovery charged nobody");
    assert.equal((await store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).total, 2000);
  });
});

backendTest("billing: a provider unreachable during the look-up leaves the claim open", async (t, open) => {
  const store = await open();
  const due = new Date(Date.UTC(2026, 10, 1, 8, 0, 0));
  const [sub] = await seedDueSubscriptions(store, 1, due);
  const crashing = counting(sandbox(store), 1);
  await assert.rejects(() => pass(store, crashing.provider, new Date(due.getTime() + 60_000)), /simulated/);
  assert.equal(crashing.calls(), 1, "the card was charged, but the pass died before recording it");

  // The provider is down: looking the charge up fails, as the charge itself would.
  const down = counting({
    ...sandbox(store),
    lookupCharge: () => Promise.reject(new ProviderError("Sandbox: connection refused", "unreachable")),
    chargeToken: () => Promise.reject(new ProviderError("Sandbox: connection refused", "unreachable")),
  });
  const later = (minutes: number) => new Date(due.getTime() + minutes * 60_000);

  await t.step("unreachable: nothing recovered, nothing charged, the claim still open", async () => {
    for (const minutes of [16, 31, 46]) {
      const report = await pass(store, down.provider, later(minutes));
      assert.equal(report.recovered, 0);
      assert.equal(report.charged, 0);
    }
    const charge = await store.charges.get(sub.id, sub.nextPaymentDate, 0);
    assert.equal(charge?.status, "started");
    assert.equal((await store.subscriptions.get(sub.id))?.failedAttempts, 0);
  });

  await t.step(
    "reachable again: the charge is found and recorded, the card never charged twice",
    async () => {
      const up = counting(sandbox(store));
      const report = await pass(store, up.provider, later(61));
      assert.equal(report.recovered, 1);
      assert.equal(up.calls(), 0, "no new charge");
      assert.equal((await store.charges.get(sub.id, sub.nextPaymentDate, 0))?.status, "succeeded");
      const after = (await store.subscriptions.get(sub.id))!;
      assert.ok(after.nextPaymentDate > sub.nextPaymentDate, "moved on to the next month");
      assert.equal((await store.transactions.listSuccess({ page: 1, limit: 10, isMonthly: true })).total, 1);
      assert.equal((await pass(store, up.provider, later(76))).charged, 0);
      assert.equal(up.calls(), 0);
    },
  );
});
