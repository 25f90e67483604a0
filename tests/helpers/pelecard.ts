/**
 * Helpers for the Pelecard provider's tests (`lib/providers/pelecard/*_test.ts`): a provider on a fresh
 * simulator whose log lines are kept, a hosted-payment request, paying it on the simulator, and the
 * check that no log line carries a secret.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createPelecardProvider, type PelecardOptions } from "@/lib/providers/pelecard/pelecard.ts";
import { type HostedPaymentRequest, type PaymentProvider, ProviderError } from "@/lib/providers/provider.ts";
import {
  type PelecardSimulator,
  SIM_LOGIN,
  SIM_TOKEN_LOGIN,
  type SimulatorOptions,
  startPelecardSimulator,
} from "@/tests/pelecard_simulator.ts";

/** A Pelecard transaction id. */
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The simulator's approved test card, in full: it must never reach a log line or a record. */
export const FULL_PAN = "4580458045804580";

/** A provider on its own simulator; disposing of it closes the simulator. */
export interface Setup extends AsyncDisposable {
  sim: PelecardSimulator;
  pelecard: PaymentProvider;
  logs: string[];
}

/**
 * A `setup` whose providers also write every log line into `allLogs`, for a test file's last check
 * ({@link assertLogsClean}).
 *
 * @example
 * ```ts
 * const allLogs: string[] = [];
 * const setup = setupLogging(allLogs);
 * await using t = await setup({ tokenTerminal: SIM_TOKEN_LOGIN });
 * ```
 */
export function setupLogging(allLogs: string[]) {
  return async function setup(
    options: Partial<PelecardOptions> = {},
    simOptions: SimulatorOptions = {},
  ): Promise<Setup> {
    const sim = await startPelecardSimulator(simOptions);
    const logs: string[] = [];
    const pelecard = createPelecardProvider({
      baseUrl: sim.url,
      ...SIM_LOGIN,
      timeoutMs: 2000,
      log: (msg, fields) => {
        const line = JSON.stringify({ msg, ...fields });
        logs.push(line);
        allLogs.push(line);
      },
      ...options,
    });
    return { sim, pelecard, logs, [Symbol.asyncDispose]: () => sim.close() };
  };
}

/** A hosted-payment request of 100.00 NIS in Hebrew, with a fresh user key. */
export function request(overrides: Partial<HostedPaymentRequest> = {}): HostedPaymentRequest {
  return {
    paymentId: "pay_1",
    userKey: `uk_${crypto.randomUUID()}`,
    amount: 10000,
    currency: 1,
    language: "he",
    tokenize: false,
    returnUrl: "https://donate.example/he/payment-return?p=pay_1",
    notifyUrl: "http://127.0.0.1:9/api/payment/notify/pelecard",
    ...overrides,
  };
}

/** Starts a payment and completes it on the simulator; answers what verifyPayment needs. */
export async function paid(
  t: Setup,
  outcome: Parameters<PelecardSimulator["state"]["complete"]>[1],
  req = request(),
) {
  const session = await t.pelecard.startHostedPayment(req);
  const completion = await t.sim.state.complete(session.providerRef, outcome);
  const expected = { userKey: req.userKey, amount: req.amount, confirmationKey: session.confirmationKey };
  return { session, completion, expected, req };
}

/** Asserts that `fn` rejects with a ProviderError of `code` (and a message matching `message`). */
export async function rejectsWith(fn: () => Promise<unknown>, code: ProviderError["code"], message?: RegExp) {
  await assert.rejects(fn, (e) => {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

/**
 * Every line names the call, its duration and outcome, never a password or a card number; there are
 * more than `minLines` of them, and `outcomes` are all among them.
 */
export function assertLogsClean(allLogs: string[], minLines: number, outcomes: string[]) {
  assert.ok(allLogs.length > minLines, `only ${allLogs.length} lines`);
  const secrets = [SIM_LOGIN.password, SIM_TOKEN_LOGIN.password, "wrong-password-42", FULL_PAN, "000000018"];
  for (const line of allLogs) {
    for (const secret of secrets) assert.ok(!line.includes(secret), `${line} contains ${secret}`);
    assert.ok(!/\d{13,19}/.test(line), line);
    const fields = JSON.parse(line);
    if (fields.msg !== "pelecard call") continue;
    assert.equal(typeof fields.call, "string");
    assert.equal(typeof fields.ms, "number");
    assert.equal(typeof fields.outcome, "string");
  }
  const seen = new Set(allLogs.map((l) => JSON.parse(l).outcome));
  for (const o of outcomes) assert.ok(seen.has(o), `no line with outcome ${o}`);
}
