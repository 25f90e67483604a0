/**
 * PinPad sales through Pelecard (`pelecard_terminal.ts`, an assumed contract) against the simulator:
 * the EmvDebit body, device answers, reversals when we stop waiting or Pelecard approved another sale.
 */
import assert from "node:assert/strict";
import { PELECARD_MISMATCH } from "./protocol.ts";
import { SIM_LOGIN } from "@/tests/pelecard_simulator.ts";
import { assertLogsClean, GUID, rejectsWith, setupLogging } from "@/tests/helpers/pelecard.ts";

/** Every log line of every provider in this file, checked for secrets by the last test. */
const allLogs: string[] = [];
const setup = setupLogging(allLogs);

Deno.test("terminalSale: approved, with the assumed EmvDebit body", async () => {
  await using t = await setup({}, { pinpads: { "PP-1": { kind: "approve" } } });
  const result = await t.pelecard.terminalSale({
    terminalId: "PP-1",
    shopNumber: "002",
    amount: 5000,
    currency: 2,
    reference: "pay_t1",
    language: "en",
    deadlineMs: 60_000,
  });
  assert.equal(result.StatusCode, "000", result.ErrorMessage);
  assert.equal(result.ErrorMessage, "");
  assert.match(result.ResultData.TransactionId, GUID);
  assert.match(result.ResultData.PelecardTransactionId, GUID);
  assert.equal(result.ResultData.ShvaResult, "000");
  assert.match(result.ResultData.VoucherId, /^\d{2}-\d{3}-\d{3}$/);
  assert.equal(result.ResultData.DebitTotal, "5000");
  assert.equal(result.ResultData.CreditCardNumber, "458045******4580");
  assert.equal(result.ResultData.CardHolderID, undefined);
  assert.deepEqual(t.sim.state.bodies("/services/EmvDebit"), [{
    terminalNumber: SIM_LOGIN.terminal,
    user: SIM_LOGIN.user,
    password: SIM_LOGIN.password,
    pinpadId: "PP-1",
    shopNumber: "002",
    total: 5000,
    currency: 2,
    paramX: "pay_t1",
    timeoutSec: 60,
  }]);
  assert.deepEqual(t.sim.state.reversals, []);
});

const sale = (terminalId: string, deadlineMs = 60_000) => ({
  terminalId,
  shopNumber: "001",
  amount: 2000,
  currency: 1 as const,
  reference: `pay_${terminalId}`,
  language: "he" as const,
  deadlineMs,
});

Deno.test("terminalSale: declines and device answers are the provider's", async () => {
  await using t = await setup({}, {
    pinpads: { "PP-D": { kind: "decline", code: "004" }, "PP-T": { kind: "device-timeout" } },
  });
  const declined = await t.pelecard.terminalSale(sale("PP-D"));
  assert.equal(declined.StatusCode, "004");
  assert.equal(declined.ResultData.ShvaResult, "004");
  assert.equal((await t.pelecard.terminalSale(sale("PP-T"))).StatusCode, "512");
  const missing = await t.pelecard.terminalSale(sale("PP-404"));
  assert.equal(missing.StatusCode, "550");
  assert.equal(missing.ErrorMessage, "Pinpad not found");
  assert.deepEqual(missing.ResultData, {
    TransactionId: "",
    ShvaResult: "",
    VoucherId: "",
    PelecardTransactionId: "",
  });
  assert.equal((await t.pelecard.terminalSale(sale("no such pinpad!"))).StatusCode, "516");
  assert.deepEqual(t.sim.state.reversals, [], "nothing to undo when Pelecard answered");
});

Deno.test("terminalSale: a terminal that never answers ends in 512 after a reversal", async () => {
  await using t = await setup({ terminalMarginMs: 100 }, { pinpads: { "PP-H": { kind: "hang" } } });
  const started = performance.now();
  const result = await t.pelecard.terminalSale(sale("PP-H", 150));
  assert.ok(performance.now() - started < 2000);
  assert.equal(result.StatusCode, "512");
  assert.equal(result.ErrorMessage, "The terminal did not answer in time; nothing was charged");
  assert.deepEqual(t.sim.state.reversals, ["pay_PP-H"]);
  assert.equal(t.sim.state.sales[0].status, "reversed");
  const [reversal] = t.sim.state.bodies("/services/EmvReversal");
  assert.deepEqual(reversal, {
    terminalNumber: SIM_LOGIN.terminal,
    user: SIM_LOGIN.user,
    password: SIM_LOGIN.password,
    paramX: "pay_PP-H",
  });
});

Deno.test("terminalSale: an unconfirmed reversal says so; transport failures reverse and throw", async () => {
  await using t = await setup({ terminalMarginMs: 100, timeoutMs: 150 }, {
    pinpads: { "PP-H": { kind: "hang" }, "PP-1": { kind: "approve" } },
  });
  t.sim.state.failNext("http500", 2, "/services/EmvReversal");
  const result = await t.pelecard.terminalSale(sale("PP-H", 150));
  assert.equal(result.StatusCode, "512");
  assert.match(result.ErrorMessage, /cancellation was not confirmed.*pay_PP-H/);
  assert.equal(t.sim.state.bodies("/services/EmvReversal").length, 2, "one retry");

  t.sim.state.failNext("http500", 1, "/services/EmvDebit");
  await rejectsWith(
    () => t.pelecard.terminalSale(sale("PP-1")),
    "unreachable",
    /reversed, nothing was charged/,
  );
  t.sim.state.failNext("garbage", 1, "/services/EmvDebit");
  await rejectsWith(() => t.pelecard.terminalSale(sale("PP-1")), "invalid-answer");
  assert.equal(t.sim.state.reversals.filter((r) => r === "pay_PP-1").length, 2);
});

Deno.test("terminalSale: an approval for another amount is reversed and a MISMATCH", async () => {
  await using t = await setup({}, { pinpads: { "PP-X": { kind: "approve", debitTotal: 1 } } });
  const result = await t.pelecard.terminalSale(sale("PP-X"));
  assert.equal(result.StatusCode, PELECARD_MISMATCH);
  assert.match(result.ErrorMessage, /reversed/);
  assert.equal(t.sim.state.sales[0].status, "reversed");
});

// Last: every line logged by every test above.
Deno.test("log lines name the call, its duration and outcome, never a password or a card number", () => {
  assertLogsClean(allLogs, 10, ["000", "512", "timeout", "unreachable", "invalid-answer"]);
});
