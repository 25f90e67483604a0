/**
 * Money goes back only to the card that paid (issue 23), on Deno KV and PostgreSQL with the sandbox:
 * every path that records a charge keeps the token it was charged with (a monthly gift's first
 * payment on the hosted page, a monthly charge, a failing gift's charge right after its card was
 * replaced), and a refund of a charge made before a card update is credited to the first card, one
 * made after to the new card. The refund dialog's call answers the last four digits of the card that
 * will be credited; no API answer carries a token.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import { createLogger } from "@/lib/core/log.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { completeCardUpdate, startCardUpdate } from "@/lib/monthly_gifts/card_update.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { createPayment, GOOD_CARD, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { CLIENT } from "@/tests/helpers/card_gift.ts";
import { adminFixture } from "@/tests/storage/fixtures.ts";

const DAY_MS = 86_400_000;
const log = createLogger(() => {});
/** The card the donor swaps in (the sandbox approves any other Luhn-valid number). */
const NEW_CARD = "4111 1111 1111 1111";
const CARD = { expiry: "12/30", cvv: "123", idNumber: "123456789" };

backendTest(
  "refunds go back to the card each charge was made with, across a card update",
  async (t, open) => {
    const store = await open();
    await store.flags.seed({ MONTHLY_PAYMENT: true });
    await store.flags.set("MONTHLY_PAYMENT", true);
    const app = await startTestApp({ store });
    try {
      const key = await deriveKey(app.config.appSecret, "admin-access-token/v1");
      const admin = await store.admins.create(
        adminFixture({ email: "admin@museum.org", status: "approved", role: "admin" }),
      );
      const auth = bearer(await createAccessToken(key, { adminId: admin.id }));
      const provider = createSandboxProvider({
        store,
        origin: app.url,
        secret: app.config.appSecret,
        terminalMode: "manual",
        notify: () => Promise.resolve(),
      });
      const donorId = await newDonor(app, "Mira");
      const created = await createPayment(app, {
        amount: 100,
        currency: "nis",
        userId: donorId,
        isMonthly: true,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await payOnSandboxPage(app, created.body.url, GOOD_CARD);
      const [sub] = await store.subscriptions.listByDonor(donorId);
      const firstToken = sub.token;
      const txOf = async (kind: Transaction["kind"]) =>
        (await store.transactions.listByDonors([donorId], 100)).filter((tx) => tx.kind === kind);
      const [first] = await txOf("success");

      let charged: Transaction;
      let afterUpdate: Transaction;
      await t.step("each path that records a charge keeps the token it was charged with", async () => {
        assert.equal(first.cardToken, firstToken, "the first payment: the token its page made");
        // A month on: the monthly charge, with the same card.
        const month = new Date(Date.parse(sub.nextPaymentDate) + 60_000);
        assert.equal(
          (await runBillingPass({ store, provider, log, holder: "a", now: () => month })).charged,
          1,
        );
        [charged] = (await txOf("success")).filter((tx) => tx.id !== first.id);
        assert.equal(charged.cardToken, firstToken, "the monthly charge");
        // The next month the first card declines; the donor puts in a new card, which is charged at once.
        await store.sandbox.transition(
          firstToken,
          "active",
          "active",
          { declineCode: "051" },
          month.toISOString(),
        );
        const later = new Date(Date.parse(month.toISOString()) + 32 * DAY_MS);
        assert.equal(
          (await runBillingPass({ store, provider, log, holder: "a", now: () => later })).failed,
          1,
        );
        assert.equal((await txOf("error"))[0].cardToken, firstToken, "a declined charge too");
        const ctx = { store, provider, log, origin: app.url, client: CLIENT, now: () => later };
        const { attempt } = await startCardUpdate(ctx, {
          subscriptionId: sub.id,
          email: (await store.donors.get(donorId))!.email,
        }, "en");
        await provider.submitCard(attempt.providerRef!, { cardNumber: NEW_CARD, ...CARD });
        assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "applied");
        const newToken = (await store.subscriptions.get(sub.id))!.token;
        assert.notEqual(newToken, firstToken);
        [afterUpdate] = (await txOf("success")).filter((tx) => tx.id !== first.id && tx.id !== charged.id);
        assert.equal(afterUpdate.cardToken, newToken, "the failing gift's charge with its new card");
      });

      const refund = async (tx: Transaction, amount: number) => {
        const res = await api(app.url, "POST", `/api/transaction/${tx.id}/refund`, {
          amount,
          reason: "requested-by-donor",
          key: crypto.randomUUID(),
        }, auth);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.refund.state, "succeeded");
        // The sandbox's books say which card it credited.
        return (await store.sandbox.findByReference(res.body.refund.id))!.data;
      };

      await t.step("a charge made before the card update is credited to the first card", async () => {
        const credit = await refund(charged, 4_000);
        assert.equal(credit.token, firstToken);
        assert.match(String(credit.creditedCard), /9015$/);
        const firstCredit = await refund(first, 10_000);
        assert.equal(firstCredit.token, firstToken);
        assert.match(String(firstCredit.creditedCard), /9015$/);
      });

      await t.step("a charge made after it, to the new card", async () => {
        const credit = await refund(afterUpdate, 10_000);
        assert.equal(credit.token, (await store.subscriptions.get(sub.id))!.token);
        assert.match(String(credit.creditedCard), /1111$/);
      });

      await t.step(
        "the dialog's call answers the card's last four digits; no answer carries a token",
        async () => {
          const list = await api(app.url, "GET", `/api/transaction/${charged.id}/refunds`, undefined, auth);
          assert.equal(list.status, 200);
          assert.deepEqual(list.body.card, { available: true, last4: "9015" });
          const after = await api(
            app.url,
            "GET",
            `/api/transaction/${afterUpdate.id}/refunds`,
            undefined,
            auth,
          );
          assert.deepEqual(after.body.card, { available: true, last4: "1111" });
          const tokens = [firstToken, (await store.subscriptions.get(sub.id))!.token];
          for (
            const path of [
              `/api/transaction/${charged.id}/refunds`,
              "/api/transaction/get-all-success-transactions?page=1&limit=50",
              "/api/transaction/get-all-error-transactions?page=1&limit=50",
              "/api/transaction/export",
              "/api/audit?limit=100",
            ]
          ) {
            const res = await fetch(`${app.url}${path}`, { headers: auth });
            const text = await res.text();
            assert.equal(res.status, 200, `${path}: ${text.slice(0, 200)}`);
            for (const token of tokens) assert.ok(!text.includes(token), `${path} names a token`);
          }
        },
      );
    } finally {
      await app.close();
    }
  },
);
