/**
 * Pelecard refunds (`services/DebitRegularType` with a negative total on the card's token, §2.5)
 * against the simulator: a partial then the rest, never more than the token paid, a refused credit,
 * a payment without a token refused before any call, a transport failure, and a refund after a card
 * update credited through the token the charge was made with.
 */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import { SIM_TOKEN_LOGIN } from "@/tests/pelecard_simulator.ts";
import { adminFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";
import { refundGift } from "@/lib/refunds/refunds.ts";
import {
  assertLogsClean,
  FULL_PAN,
  GUID,
  paid,
  rejectsWith,
  request,
  setupLogging,
} from "@/tests/helpers/pelecard.ts";

const allLogs: string[] = [];
const setup = setupLogging(allLogs);

Deno.test("refund: a monthly gift's payment credited in part, then the rest; more is refused", async () => {
  await using t = await setup({ tokenTerminal: SIM_TOKEN_LOGIN });
  const { session, expected } = await paid(
    t,
    { statusCode: "000", token: "5550001111" },
    request({ tokenize: true }),
  );
  const first = await t.pelecard.verifyPayment(session.providerRef, expected);
  assert.equal(first.statusCode, "000");
  const refund = (amount: number, reference: string) =>
    t.pelecard.refund({ providerRef: first.providerRef, token: first.token, amount, currency: 1, reference });

  const part = await refund(2500, "refund_a");
  assert.equal(part.statusCode, "000", part.errorMessage ?? "");
  assert.match(part.providerRef, GUID);
  assert.notEqual(part.providerRef, first.providerRef);
  assert.equal(part.reference, "refund_a");
  const body = t.sim.state.bodies("/services/DebitRegularType").at(-1);
  assert.deepEqual(body, {
    terminalNumber: SIM_TOKEN_LOGIN.terminal,
    user: SIM_TOKEN_LOGIN.user,
    password: SIM_TOKEN_LOGIN.password,
    shopNumber: "001",
    token: "5550001111",
    total: -2500,
    currency: 1,
    paramX: "refund_a",
  });
  assert.equal(t.sim.state.charges.at(-1)!.kind, "refund");

  // 75.00 remain: 75.01 is refused by Pelecard (205), 75.00 passes, then nothing is left.
  assert.equal((await refund(7501, "refund_b")).statusCode, "205");
  assert.equal((await refund(7500, "refund_c")).statusCode, "000");
  assert.equal((await refund(1, "refund_d")).statusCode, "205");
  assert.deepEqual(t.sim.state.charges.filter((c) => c.kind === "refund").map((c) => c.total), [
    -2500,
    -7500,
  ]);
});

Deno.test("refund: a declined credit answers its code; no token: refused before any call", async () => {
  await using t = await setup();
  t.sim.state.tokens.set("7770001111", { pan: FULL_PAN, exp: "1230", outcome: "000", refundOutcome: "004" });
  const charge = await t.pelecard.chargeToken({
    token: "7770001111",
    amount: 3000,
    currency: 2,
    reference: "m1",
  });
  assert.equal(charge.statusCode, "000");
  const declined = await t.pelecard.refund({
    providerRef: charge.providerRef,
    token: "7770001111",
    amount: 3000,
    currency: 2,
    reference: "refund_x",
  });
  assert.equal(declined.statusCode, "004");
  assert.ok(declined.errorMessage);

  const calls = t.sim.state.requests.length;
  await rejectsWith(
    () => t.pelecard.refund({ providerRef: "x", token: null, amount: 100, currency: 1, reference: "r" }),
    "refused",
    /token.*back office/,
  );
  assert.equal(t.sim.state.requests.length, calls, "nothing sent to Pelecard");
  await assert.rejects(
    () =>
      t.pelecard.refund({ providerRef: "x", token: "7770001111", amount: 0, currency: 1, reference: "r" }),
    TypeError,
  );
});

Deno.test("refund: Pelecard unreachable or answering nonsense is a ProviderError", async () => {
  await using t = await setup();
  t.sim.state.tokens.set("8880001111", { pan: FULL_PAN, exp: "1230", outcome: "000" });
  await t.pelecard.chargeToken({ token: "8880001111", amount: 3000, currency: 1, reference: "m1" });
  const refund = () =>
    t.pelecard.refund({ providerRef: "p", token: "8880001111", amount: 100, currency: 1, reference: "r1" });
  t.sim.state.failNext("http500", 1, "/services/DebitRegularType");
  await rejectsWith(refund, "unreachable");
  t.sim.state.failNext("garbage", 1, "/services/DebitRegularType");
  await rejectsWith(refund, "invalid-answer");
  assert.equal((await refund()).statusCode, "000", "the next call goes through");
});

Deno.test("refundGift on Pelecard: after a card update, a charge made before it is credited through the first card's token", async () => {
  // Issue 23: the token a charge was made with, recorded on its transaction, not the gift's new one.
  await using t = await setup();
  const store = await openStore({ kvPath: ":memory:" });
  try {
    for (const token of ["5550001111", "5550002222"]) {
      t.sim.state.tokens.set(token, { pan: FULL_PAN, exp: "1230", outcome: "000" });
    }
    const before = await t.pelecard.chargeToken({
      token: "5550001111",
      amount: 5000,
      currency: 1,
      reference: "m1",
    });
    const tx = txFixture({
      provider: "pelecard",
      isMonthly: true,
      amount: 5000,
      providerTransactionId: before.providerRef,
      cardToken: "5550001111",
    });
    await store.transactions.record(tx);
    // The donor's gift is on the new card now.
    await store.subscriptions.create(
      subscriptionFixture({ donorId: tx.donorId, provider: "pelecard", token: "5550002222" }),
    );
    const admin = adminFixture({ status: "approved", role: "finance" });
    await refundGift({ store, provider: t.pelecard }, { admin, address: "203.0.113.5" }, {
      transactionId: tx.id,
      amount: 2000,
      reason: "requested-by-donor",
      note: "",
      key: "k1",
      cancelMonthly: false,
    });
    const body = t.sim.state.bodies("/services/DebitRegularType").at(-1) as { token: string; total: number };
    assert.deepEqual([body.token, body.total], ["5550001111", -2000]);
    assert.equal((await store.refunds.listByTransaction(tx.id))[0].state, "succeeded");
  } finally {
    await store.close();
  }
});

Deno.test("refund log lines name the call, never a password or a card number", () => {
  assertLogsClean(allLogs, 5, ["000", "205"]);
});
