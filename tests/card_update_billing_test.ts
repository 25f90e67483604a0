/**
 * A failing monthly gift's new card (issue 15, `lib/monthly_gifts/card_update.ts`) beside billing, on Deno
 * KV and PostgreSQL: the return and the notification applying the card while billing runners (each
 * its own holder) and a direct charge run at once, the period is charged exactly once, with the new
 * card, with one `card-updated` email, and the gift moves to its next period.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { chargeSubscriptionNow, runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { completeCardUpdate, startCardUpdate } from "@/lib/monthly_gifts/card_update.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { Store } from "@/lib/storage/types.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { CLIENT } from "@/tests/helpers/card_gift.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

const NOW = new Date("2026-03-12T09:00:00.000Z");
const PERIOD = "2026-03-10T09:00:00.000Z";
const log = createLogger(() => {});
const GOOD = { cardNumber: "4580 1234 5678 9015", expiry: "12/30", cvv: "123", idNumber: "123456789" };

const sandboxOn = (store: Store) =>
  createSandboxProvider({
    store,
    origin: "http://museum.test",
    secret: "sandbox-secret",
    terminalMode: "manual",
    notify: () => Promise.resolve(),
  });

backendTest(
  "card update beside billing runners: the failing period charged exactly once",
  async (t, open) => {
    const a = await open();
    for (let round = 0; round < 4; round++) {
      await t.step(`round ${round}`, async () => {
        const donor = donorFixture();
        await a.donors.create(donor);
        const oldToken = `tok_old_${crypto.randomUUID()}`;
        await a.sandbox.create({
          ref: oldToken,
          kind: "token",
          status: "active",
          reference: donor.id,
          terminalId: null,
          amount: 5_000,
          currency: 1,
          createdAt: "2026-01-10T09:00:00.000Z",
          updatedAt: "2026-01-10T09:00:00.000Z",
          data: { card: "4580000000004580", declineCode: "051" },
        });
        const sub = await a.subscriptions.create(subscriptionFixture({
          donorId: donor.id,
          provider: "sandbox",
          token: oldToken,
          amount: 5_000,
          currency: 1,
          createdAt: "2026-01-10T09:00:00.000Z",
          paymentDate: "2026-02-10T09:00:00.000Z",
          nextPaymentDate: PERIOD,
        }));
        const provider = sandboxOn(a);
        const billing = (holder: string) => ({ store: a, provider, log, holder, now: () => NOW });
        // Only this gift's charge: earlier rounds' gifts are settled, so a pass finds nothing else due.
        assert.equal((await runBillingPass(billing("first"))).failed, 1);
        const ctx = { store: a, provider, log, origin: "http://museum.test", client: CLIENT, now: () => NOW };
        const { attempt } = await startCardUpdate(
          ctx,
          { subscriptionId: sub.id, email: donor.email },
          "en",
        );
        await provider.submitCard(attempt.providerRef!, GOOD);
        await Promise.all([
          completeCardUpdate(ctx, attempt),
          completeCardUpdate(ctx, attempt),
          runBillingPass(billing("a")),
          runBillingPass(billing("b")),
          chargeSubscriptionNow(billing("c"), sub.id),
          (async () => {
            await new Promise((r) => setTimeout(r, round * 3));
            await runBillingPass(billing("d"));
          })(),
        ]);
        await completeCardUpdate(ctx, attempt);
        const txs = await a.transactions.listByDonors([donor.id], 20);
        assert.equal(txs.filter((tx) => tx.kind === "success").length, 1, "one charge for the period");
        assert.equal(txs.filter((tx) => tx.kind === "error").length, 1, "the old card's decline");
        assert.match(String(txs.find((tx) => tx.kind === "success")!.resultData?.CreditCardNumber), /9015$/);
        assert.equal((await a.charges.get(sub.id, PERIOD, 1))?.status, "succeeded");
        const after = (await a.subscriptions.get(sub.id))!;
        assert.equal(after.nextPaymentDate, "2026-04-10T09:00:00.000Z");
        assert.equal(after.failedAttempts, 0);
        assert.equal(after.charging, null);
        assert.equal(
          (await a.outbox.listRecent(200)).filter((m) => m.key === `card-updated:${attempt.id}`).length,
          1,
        );
      });
    }
  },
);
