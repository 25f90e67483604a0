/**
 * Replacing a monthly gift's card (`card_update.ts`) on an in-memory store, with the sandbox and
 * with Pelecard against its simulator: the page started as a check only (J2, nothing charged), the
 * result verified with the provider (never the query string), a new token put on the gift once with
 * its email, a decline leaving the old card, a failing gift charged at once through billing's path,
 * and the refusals (another donor's gift, an ended gift, a gift of another provider).
 */
import assert from "node:assert/strict";
import type { Store } from "@/lib/storage/types.ts";
import { SIM_TOKEN_LOGIN } from "@/tests/pelecard_simulator.ts";
import { CLIENT, DANA, GOOD, log, NOW, ORIGIN, sandboxContext, withGift } from "@/tests/helpers/card_gift.ts";
import { paid, request, setupLogging } from "@/tests/helpers/pelecard.ts";
import { chargeSubscriptionNow, runBillingPass } from "./billing.ts";
import {
  type CardUpdateContext,
  CardUpdateUnavailableError,
  CHECK_AMOUNT,
  completeCardUpdate,
  startCardUpdate,
} from "./card_update.ts";
import { PELECARD_MISMATCH } from "@/lib/providers/pelecard/protocol.ts";
import { sandboxRecordNeeded } from "@/lib/providers/sandbox/sandbox.ts";
import { GiftEndedError, NoSuchGiftError } from "./subscription_changes.ts";

const cardUpdatedMessages = async (store: Store) =>
  (await store.outbox.listRecent(50)).filter((m) => m.kind === "card-updated");

Deno.test("sandbox: a confirmed new card replaces the old one once, with one email; nothing charged", async () => {
  await withGift("sandbox", async (store, sub, donorId) => {
    const { ctx, provider } = sandboxContext(store);
    const { attempt, url } = await startCardUpdate(
      ctx,
      { subscriptionId: sub.id, email: DANA.email },
      "he",
    );
    assert.equal(url, `${ORIGIN}/sandbox/pay/${attempt.providerRef}`);
    const hosted = (await store.sandbox.get(attempt.providerRef!))!;
    assert.equal(hosted.amount, CHECK_AMOUNT);
    assert.equal(hosted.data.checkOnly, true);
    assert.equal(hosted.data.returnUrl, `${ORIGIN}/payments/card/${attempt.id}`);

    // Before the donor pays, the attempt is pending, whatever a query string might claim.
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "pending");
    assert.equal((await store.subscriptions.get(sub.id))!.token, "tok_old");

    await provider.submitCard(attempt.providerRef!, GOOD);
    const first = await completeCardUpdate(ctx, (await store.cardUpdates.get(attempt.id))!);
    assert.equal(first.outcome, "applied");
    const after = (await store.subscriptions.get(sub.id))!;
    assert.notEqual(after.token, "tok_old");
    assert.match(after.token, /^tok_/);
    assert.match(after.cardMasked!, /9015$/);
    assert.equal(after.version, sub.version + 1);
    assert.equal(after.nextPaymentDate, sub.nextPaymentDate);

    // The return reloaded and the notification: applied again as stored, nothing written twice.
    const again = await completeCardUpdate(ctx, attempt);
    assert.equal(again.outcome, "applied");
    assert.equal((await store.subscriptions.get(sub.id))!.version, after.version);
    const messages = await cardUpdatedMessages(store);
    assert.equal(messages.length, 1);
    assert.deepEqual(messages[0].data, {
      subscriptionId: sub.id,
      last4: "9015",
      amount: 5_000,
      currency: 1,
      nextPaymentDate: sub.nextPaymentDate,
    });
    // A check only: no charge at the sandbox, no transaction.
    assert.equal(await store.sandbox.findByReference(`${sub.id}:${sub.nextPaymentDate}:0`), null);
    assert.equal((await store.transactions.listByDonors([donorId], 10)).length, 0);
  });
});

Deno.test("sandbox: the return and the notification racing apply the new card once", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx, provider } = sandboxContext(store);
    const { attempt } = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
    await provider.submitCard(attempt.providerRef!, GOOD);
    const results = await Promise.all(Array.from({ length: 6 }, () => completeCardUpdate(ctx, attempt)));
    assert.deepEqual(results.map((r) => r.outcome), Array(6).fill("applied"));
    assert.equal((await store.subscriptions.get(sub.id))!.version, sub.version + 1);
    assert.equal((await cardUpdatedMessages(store)).length, 1);
  });
});

Deno.test("sandbox: a declined card leaves the old one in place and sends nothing", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx, provider } = sandboxContext(store);
    const { attempt } = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
    await provider.submitCard(attempt.providerRef!, { ...GOOD, cardNumber: "4000 0000 0000 0051" });
    const result = await completeCardUpdate(ctx, attempt);
    assert.equal(result.outcome, "declined");
    assert.equal(result.attempt.statusCode, "051");
    assert.deepEqual(await store.subscriptions.get(sub.id), sub);
    assert.equal((await cardUpdatedMessages(store)).length, 0);
    // Final: asked again, still declined, no provider call needed.
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "declined");
  });
});

Deno.test("refusals: another donor's or an unknown gift, an ended gift, a gift of another provider", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx } = sandboxContext(store);
    await assert.rejects(
      () => startCardUpdate(ctx, { subscriptionId: sub.id, email: "someone.else@example.org" }, "en"),
      NoSuchGiftError,
    );
    await assert.rejects(
      () => startCardUpdate(ctx, { subscriptionId: "sub_unknown", email: DANA.email }, "en"),
      NoSuchGiftError,
    );
    await store.subscriptions.updateIfActive(sub.id, { status: "cancelled", cancelledAt: NOW.toISOString() });
    await assert.rejects(
      () => startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en"),
      GiftEndedError,
    );
  });
  await withGift("pelecard", async (store, sub) => {
    const { ctx } = sandboxContext(store);
    await assert.rejects(
      () => startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en"),
      CardUpdateUnavailableError,
    );
  });
});

Deno.test("a gift cancelled while the donor was on the page keeps its card: the attempt ends", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx, provider } = sandboxContext(store);
    const { attempt } = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
    await provider.submitCard(attempt.providerRef!, GOOD);
    await store.subscriptions.updateIfActive(sub.id, { status: "cancelled", cancelledAt: NOW.toISOString() });
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "ended");
    assert.equal((await store.subscriptions.get(sub.id))!.token, "tok_old");
  });
});

Deno.test("a failing gift is charged at once with the new card, once, through billing's path", async () => {
  const period = "2026-03-10T09:00:00.000Z";
  await withGift("sandbox", async (store, sub, donorId) => {
    const { ctx, provider } = sandboxContext(store);
    // The old card declines: the gift's first try of March failed, retried in 3 days.
    await store.sandbox.create({
      ref: "tok_old",
      kind: "token",
      status: "active",
      reference: donorId,
      terminalId: null,
      amount: 5_000,
      currency: 1,
      createdAt: "2026-01-10T09:00:00.000Z",
      updatedAt: "2026-01-10T09:00:00.000Z",
      data: { card: "4580000000004580", declineCode: "051" },
    });
    const billing = { store, provider, log, holder: "runner", now: () => NOW };
    assert.equal((await runBillingPass(billing)).failed, 1);
    const failing = (await store.subscriptions.get(sub.id))!;
    assert.equal(failing.failedAttempts, 1);
    assert.ok(failing.retryAt! > NOW.toISOString());

    const { attempt } = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
    await provider.submitCard(attempt.providerRef!, GOOD);
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "applied");

    const charged = (await store.subscriptions.get(sub.id))!;
    assert.equal(charged.failedAttempts, 0);
    assert.equal(charged.retryAt, null);
    assert.equal(charged.nextPaymentDate, "2026-04-10T09:00:00.000Z");
    assert.equal((await store.charges.get(sub.id, period, 1))?.status, "succeeded");
    const txs = await store.transactions.listByDonors([donorId], 10);
    assert.deepEqual(txs.map((t) => [t.kind, t.amount]).sort(), [["error", 5_000], ["success", 5_000]]);
    const success = txs.find((t) => t.kind === "success")!;
    assert.match(String(success.resultData?.CreditCardNumber), /9015$/);

    // Replays and a billing pass beside them charge nothing more.
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "applied");
    const pass = await runBillingPass(billing);
    assert.equal(pass.charged + pass.failed, 0);
    assert.equal((await store.transactions.listByDonors([donorId], 10)).length, 2);
  }, { paymentDate: "2026-02-10T09:00:00.000Z", nextPaymentDate: period });
});

Deno.test("a failing gift's new card beside billing runners: charged exactly once for the period", async () => {
  const period = "2026-03-10T09:00:00.000Z";
  for (let round = 0; round < 5; round++) {
    await withGift("sandbox", async (store, sub, donorId) => {
      const { ctx, provider } = sandboxContext(store);
      await store.sandbox.create({
        ref: "tok_old",
        kind: "token",
        status: "active",
        reference: donorId,
        terminalId: null,
        amount: 5_000,
        currency: 1,
        createdAt: "2026-01-10T09:00:00.000Z",
        updatedAt: "2026-01-10T09:00:00.000Z",
        data: { card: "4580000000004580", declineCode: "051" },
      });
      const billing = (holder: string) => ({ store, provider, log, holder, now: () => NOW });
      assert.equal((await runBillingPass(billing("first"))).failed, 1);
      const { attempt } = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
      await provider.submitCard(attempt.providerRef!, GOOD);
      // The return, the notification, two runners' passes and direct charges, all at once.
      await Promise.all([
        completeCardUpdate(ctx, attempt),
        completeCardUpdate(ctx, attempt),
        runBillingPass(billing("a")),
        runBillingPass(billing("b")),
        chargeSubscriptionNow(billing("c"), sub.id),
        (async () => {
          await new Promise((r) => setTimeout(r, round));
          await runBillingPass(billing("d"));
        })(),
      ]);
      // Whatever order they ran in, the new card is charged now (the last word is this one).
      await completeCardUpdate(ctx, attempt);
      const txs = await store.transactions.listByDonors([donorId], 20);
      assert.equal(txs.filter((t) => t.kind === "success").length, 1, `round ${round}: one charge`);
      assert.equal(txs.filter((t) => t.kind === "error").length, 1, `round ${round}: the old card's decline`);
      assert.equal((await store.charges.get(sub.id, period, 1))?.status, "succeeded");
      const after = (await store.subscriptions.get(sub.id))!;
      assert.equal(after.nextPaymentDate, "2026-04-10T09:00:00.000Z");
      assert.equal(after.charging, null);
    }, { paymentDate: "2026-02-10T09:00:00.000Z", nextPaymentDate: period });
  }
});

Deno.test("sandbox retention keeps a card update's check page while open and its token while charged", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx: fixed, provider } = sandboxContext(store);
    // Retention judges by the real clock.
    const ctx = { ...fixed, now: () => new Date() };
    const ref = { subscriptionId: sub.id, email: DANA.email };
    const first = await startCardUpdate(ctx, ref, "en");
    const page = (await store.sandbox.get(first.attempt.providerRef!))!;
    assert.equal(await sandboxRecordNeeded(store, page), true, "the open attempt's page");
    await provider.submitCard(first.attempt.providerRef!, GOOD);
    await completeCardUpdate(ctx, first.attempt);
    assert.equal(await sandboxRecordNeeded(store, page), false, "the finished attempt's page");
    const token = (await store.sandbox.get((await store.subscriptions.get(sub.id))!.token))!;
    assert.equal(token.kind, "token");
    assert.equal(await sandboxRecordNeeded(store, token), true, "the token the gift charges");
    // Replaced by a later update: the first token is no longer needed.
    const second = await startCardUpdate(ctx, ref, "en");
    await provider.submitCard(second.attempt.providerRef!, { ...GOOD, cardNumber: "4111 1111 1111 1111" });
    assert.equal((await completeCardUpdate(ctx, second.attempt)).outcome, "applied");
    assert.equal(await sandboxRecordNeeded(store, token), false, "a replaced token");
    // An attempt abandoned on its page for more than a day: its page is no longer kept.
    const abandoned = await startCardUpdate(
      { ...ctx, now: () => new Date(Date.now() - 2 * 86_400_000) },
      ref,
      "en",
    );
    const old = (await store.sandbox.get(abandoned.attempt.providerRef!))!;
    assert.equal(await sandboxRecordNeeded(store, old), false, "an abandoned page");
  });
});

// ---- Pelecard, against the simulator ----

const allLogs: string[] = [];
const setup = setupLogging(allLogs);

Deno.test("pelecard: a card update starts a J2 check with CreateToken (nothing charged)", async () => {
  await using t = await setup();
  await t.pelecard.startHostedPayment(request({ tokenize: true, checkOnly: true, amount: CHECK_AMOUNT }));
  const [body] = t.sim.state.bodies("/PaymentGW/init");
  assert.equal(body.ActionType, "J2");
  assert.equal(body.CreateToken, true);
  assert.equal(body.Total, CHECK_AMOUNT);
});

Deno.test("pelecard: verification refuses a charge for a check, and a check for a charge (JParam)", async () => {
  await using t = await setup();
  // A J4 charge presented as a card update's check.
  const charge = await paid(t, { statusCode: "000" }, request({ tokenize: true }));
  const asCheck = await t.pelecard.verifyPayment(charge.session.providerRef, {
    ...charge.expected,
    checkOnly: true,
  });
  assert.equal(asCheck.statusCode, PELECARD_MISMATCH);
  // A J2 check presented as a donation's payment.
  const check = await paid(t, { statusCode: "000" }, request({ tokenize: true, checkOnly: true }));
  const asCharge = await t.pelecard.verifyPayment(check.session.providerRef, check.expected);
  assert.equal(asCharge.statusCode, PELECARD_MISMATCH);
  const ok = await t.pelecard.verifyPayment(check.session.providerRef, {
    ...check.expected,
    checkOnly: true,
  });
  assert.equal(ok.statusCode, "000");
  assert.ok(ok.token);
});

Deno.test("pelecard: the whole card update, applied once; a declined check keeps the old card", async () => {
  await using t = await setup({ tokenTerminal: SIM_TOKEN_LOGIN });
  await withGift("pelecard", async (store, sub) => {
    const ctx: CardUpdateContext = {
      store,
      provider: t.pelecard,
      log,
      origin: ORIGIN,
      client: CLIENT,
      now: () => NOW,
    };
    const { attempt, url } = await startCardUpdate(
      ctx,
      { subscriptionId: sub.id, email: DANA.email },
      "he",
    );
    assert.equal(url, `${t.sim.url}/PaymentGW?transactionId=${attempt.providerRef}`);
    const [init] = t.sim.state.bodies("/PaymentGW/init");
    assert.equal(init.ParamX, attempt.id);
    assert.equal(init.GoodURL, `${ORIGIN}/payments/card/${attempt.id}`);
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "pending");
    const done = await t.sim.state.complete(attempt.providerRef!, {
      statusCode: "000",
      pan: "4111111111111111",
    });
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "applied");
    const after = (await store.subscriptions.get(sub.id))!;
    assert.equal(after.token, done.fields.Token);
    assert.equal(after.cardMasked, "411111******1111");
    assert.equal((await completeCardUpdate(ctx, attempt)).outcome, "applied");
    assert.equal((await store.subscriptions.get(sub.id))!.version, after.version);
    assert.equal((await cardUpdatedMessages(store)).length, 1);
    // No token charge was made for the check.
    assert.equal(t.sim.state.bodies("/services/DebitRegularType").length, 0);

    const second = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "he");
    await t.sim.state.complete(second.attempt.providerRef!, { statusCode: "033" });
    assert.equal((await completeCardUpdate(ctx, second.attempt)).outcome, "declined");
    assert.equal((await store.subscriptions.get(sub.id))!.token, after.token);

    // The payer pressed Cancel on Pelecard's page (555): said so, the card kept.
    const third = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
    await t.sim.state.complete(third.attempt.providerRef!, { statusCode: "555" });
    assert.equal((await completeCardUpdate(ctx, third.attempt)).outcome, "cancelled");
    assert.equal((await store.subscriptions.get(sub.id))!.token, after.token);
  });
});

Deno.test("no log line of this file carries a secret or a card number", () => {
  for (const line of allLogs) {
    assert.ok(!/\d{13,19}/.test(line), line);
    assert.ok(!line.includes(SIM_TOKEN_LOGIN.password), line);
  }
});
