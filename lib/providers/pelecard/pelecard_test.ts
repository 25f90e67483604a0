/**
 * The Pelecard provider's token charges for monthly giving (`services/DebitRegularType`) against the
 * simulator. The hosted page, the terminal and the shared plumbing have their own test files.
 */
import assert from "node:assert/strict";
import { SIM_LOGIN, SIM_TOKEN_LOGIN } from "@/tests/pelecard_simulator.ts";
import { assertLogsClean, FULL_PAN, GUID, paid, request, setupLogging } from "@/tests/helpers/pelecard.ts";

/** Every log line of every provider in this file, checked for secrets by the last test. */
const allLogs: string[] = [];
const setup = setupLogging(allLogs);

Deno.test("chargeToken: charges on the token terminal and maps the result", async () => {
  await using t = await setup({ tokenTerminal: SIM_TOKEN_LOGIN });
  t.sim.state.tokens.set("1234567890", { pan: FULL_PAN, exp: "1230", outcome: "000" });
  const result = await t.pelecard.chargeToken({
    token: "1234567890",
    amount: 2000,
    currency: 1,
    reference: "pay_m2",
  });
  assert.equal(result.statusCode, "000", result.errorMessage ?? "");
  assert.match(result.providerRef, GUID);
  assert.equal(result.amount, 2000);
  assert.equal(result.currency, 1);
  assert.equal(result.reference, "pay_m2");
  assert.equal(result.token, "1234567890");
  assert.equal(result.resultData?.CreditCardNumber, "458045******4580");
  assert.deepEqual(t.sim.state.bodies("/services/DebitRegularType"), [{
    terminalNumber: SIM_TOKEN_LOGIN.terminal,
    user: SIM_TOKEN_LOGIN.user,
    password: SIM_TOKEN_LOGIN.password,
    shopNumber: "001",
    token: "1234567890",
    total: 2000,
    currency: 1,
    paramX: "pay_m2",
  }]);
  assert.equal(t.sim.state.charges[0].kind, "debit");
});

Deno.test("chargeToken: the main terminal without a token terminal; declines and unknown tokens", async () => {
  await using t = await setup();
  const { session, expected } = await paid(
    t,
    { statusCode: "000", token: "9990001111" },
    request({ tokenize: true }),
  );
  const first = await t.pelecard.verifyPayment(session.providerRef, expected);
  const charge = () =>
    t.pelecard.chargeToken({ token: first.token!, amount: 10000, currency: 1, reference: "pay_m2" });

  assert.equal((await charge()).statusCode, "000");
  assert.equal(t.sim.state.bodies("/services/DebitRegularType")[0].terminalNumber, SIM_LOGIN.terminal);

  t.sim.state.tokens.get("9990001111")!.outcome = "036";
  const declined = await charge();
  assert.equal(declined.statusCode, "036");
  assert.equal(declined.errorMessage, "card expired.");

  const unknown = await t.pelecard.chargeToken({
    token: "0000000000",
    amount: 10000,
    currency: 1,
    reference: "pay_m3",
  });
  assert.equal(unknown.statusCode, "506");
  assert.equal(unknown.providerRef, "");
  assert.equal(unknown.resultData, null);

  await assert.rejects(
    () => t.pelecard.chargeToken({ token: "9990001111", amount: -100, currency: 1, reference: "x" }),
    TypeError,
  );
});

// Last: every line logged by every test above.
Deno.test("log lines name the call, its duration and outcome, never a password or a card number", () => {
  assertLogsClean(allLogs, 5, ["000", "036", "506"]);
});
