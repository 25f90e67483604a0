/**
 * Each event that speaks to a person enqueues its message with it, on both backends, through the
 * app's own paths: a one-time gift its receipt; a monthly gift's first payment its receipt and
 * welcome; a decline nothing; a monthly charge its receipt, a declined one the failed-charge
 * message with the retry the subscription got (null on the last try); a cancel its confirmation,
 * once; a registration awaiting approval a message to the approved admins.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { OutboxMessage, Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const DECLINE_CARD = "4000 0000 0000 0033";
const quiet = createLogger(() => {});

/** Every message of the outbox, oldest first. */
const everything = async (store: Store): Promise<OutboxMessage[]> =>
  (await store.outbox.listRecent(500)).reverse();

backendTest("outbox: the events that speak to people enqueue their messages with them", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  const { store } = app;
  try {
    await t.step("a one-time gift: its receipt, in the payment's language; a decline: nothing", async () => {
      const userId = await newDonor(app, "Once");
      const created = await createPayment(app, { amount: 50, currency: "nis", userId, language: "he" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await payOnSandboxPage(app, created.body.url);
      const [tx] = (await store.transactions.listSuccess({ page: 1, limit: 1 })).data;
      assert.equal(tx.donorId, userId);
      assert.deepEqual(
        (await everything(store)).map((m) => [m.key, m.kind, m.to, m.language, m.data, m.createdAt]),
        [[`receipt:${tx.id}`, "receipt", { donorId: userId }, "he", { transactionId: tx.id }, tx.createdAt]],
      );
      const declined = await createPayment(app, { amount: 50, currency: "nis", userId });
      await payOnSandboxPage(app, declined.body.url, DECLINE_CARD);
      assert.equal((await store.transactions.listErrors({ page: 1, limit: 1 })).total, 1);
      assert.equal((await everything(store)).length, 1, "a decline sends nothing");
    });

    const monthlyDonor = await newDonor(app, "Monthly");
    await t.step("a monthly gift's first payment: its receipt and the welcome", async () => {
      const created = await createPayment(app, {
        amount: 100,
        currency: "dollars",
        userId: monthlyDonor,
        isMonthly: true,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await payOnSandboxPage(app, created.body.url);
      const [sub] = await store.subscriptions.listByDonor(monthlyDonor);
      const [tx] = (await store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).data;
      const latest = (await everything(store)).slice(-2);
      assert.deepEqual(latest.map((m) => [m.key, m.kind, m.data]), [
        [`receipt:${tx.id}`, "receipt", { transactionId: tx.id }],
        [`welcome:${sub.id}`, "monthly-welcome", { subscriptionId: sub.id }],
      ]);
    });

    await t.step(
      "monthly charges: a receipt; a decline: the failed-charge message with its retry",
      async () => {
        const provider = createSandboxProvider({
          store,
          origin: "http://localhost",
          secret: "s".repeat(40),
          terminalMode: "manual",
        });
        const [sub] = await store.subscriptions.listByDonor(monthlyDonor);
        const due = new Date(Date.parse(sub.nextPaymentDate) + 60_000);
        const pass = (now: Date) =>
          runBillingPass({ store, provider, log: quiet, holder: "t", now: () => now });
        assert.equal((await pass(due)).charged, 1);
        const [charged] = (await store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).data;
        assert.deepEqual((await everything(store)).at(-1)?.key, `receipt:${charged.id}`);
        // The card now declines: each try tells the donor what happens next.
        await store.sandbox.transition(
          sub.token,
          "active",
          "active",
          { declineCode: "004" },
          due.toISOString(),
        );
        let now = new Date(Date.parse((await store.subscriptions.get(sub.id))!.nextPaymentDate) + 60_000);
        const retries: (string | null)[] = [];
        for (let attempt = 0; attempt < 4; attempt++) {
          assert.equal((await pass(now)).failed, 1, `attempt ${attempt}`);
          const after = (await store.subscriptions.get(sub.id))!;
          const [declined] =
            (await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: true })).data;
          const message = (await everything(store)).at(-1)!;
          assert.deepEqual([message.key, message.kind, message.language], [
            `charge-failed:${declined.id}`,
            "charge-failed",
            sub.language,
          ]);
          assert.deepEqual(message.data, {
            subscriptionId: sub.id,
            transactionId: declined.id,
            retryAt: after.retryAt,
          });
          retries.push(after.retryAt);
          if (after.retryAt) now = new Date(Date.parse(after.retryAt) + 60_000);
        }
        assert.equal(retries.at(-1), null, "the last try: the gift stopped");
        assert.ok(retries.slice(0, 3).every((r) => r !== null));
      },
    );

    await t.step("a cancel: its confirmation once; a repeat cancels nothing and sends nothing", async () => {
      const userId = await newDonor(app, "Cancel");
      const created = await createPayment(app, {
        amount: 30,
        currency: "nis",
        userId,
        isMonthly: true,
        language: "ru",
      });
      await payOnSandboxPage(app, created.body.url);
      const first = await api(app.url, "PATCH", `/api/user/off-monthly-payment/${userId}`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const cancelled = (await everything(store)).filter((m) => m.kind === "monthly-cancelled");
      assert.equal(cancelled.length, 1);
      assert.deepEqual([cancelled[0].to, cancelled[0].language], [{ donorId: userId }, "ru"]);
      const [sub] = await store.subscriptions.listByDonor(userId);
      assert.deepEqual(cancelled[0].data, { at: sub.cancelledAt });
      assert.equal(cancelled[0].key, `cancelled:${userId}:${sub.cancelledAt}`);
      await api(app.url, "PATCH", `/api/user/off-monthly-payment/${userId}`);
      assert.equal((await everything(store)).filter((m) => m.kind === "monthly-cancelled").length, 1);
    });

    await t.step(
      "registration: the first admin (approved) sends nothing; the next awaits approval",
      async () => {
        const body = (email: string) => ({ email, password: "correct horse battery staple 42" });
        const first = await api(app.url, "POST", "/api/auth/admin/register", body("first@museum.org"));
        assert.equal(first.status, 201, JSON.stringify(first.body));
        assert.equal((await everything(store)).filter((m) => m.kind === "admin-pending").length, 0);
        const second = await api(app.url, "POST", "/api/auth/admin/register", body("second@museum.org"));
        assert.equal(second.status, 201, JSON.stringify(second.body));
        const pending = (await everything(store)).filter((m) => m.kind === "admin-pending");
        const admin = await store.admins.getByEmail("second@museum.org");
        assert.deepEqual(pending.map((m) => [m.key, m.to, m.data]), [
          [`admin-pending:${admin!.id}`, { admins: true }, { adminId: admin!.id }],
        ]);
      },
    );
  } finally {
    await app.close();
  }
});
