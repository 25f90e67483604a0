import assert from "node:assert/strict";
import type { Lang } from "../shared/languages.ts";
import {
  createPelecardProvider,
  maskPan,
  pageLanguage,
  PELECARD_MISMATCH,
  type PelecardOptions,
} from "./pelecard.ts";
import { type HostedPaymentRequest, type PaymentProvider, ProviderError } from "./provider.ts";
import {
  type PelecardSimulator,
  SIM_LOGIN,
  SIM_TOKEN_LOGIN,
  type SimulatorOptions,
  startPelecardSimulator,
} from "../../tests/pelecard_simulator.ts";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FULL_PAN = "4580458045804580";

/** Every log line of every provider in this file, checked for secrets by the last test. */
const allLogs: string[] = [];

interface Setup extends AsyncDisposable {
  sim: PelecardSimulator;
  pelecard: PaymentProvider;
  logs: string[];
}

async function setup(
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
}

function request(overrides: Partial<HostedPaymentRequest> = {}): HostedPaymentRequest {
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
async function paid(
  t: Setup,
  outcome: Parameters<PelecardSimulator["state"]["complete"]>[1],
  req = request(),
) {
  const session = await t.pelecard.startHostedPayment(req);
  const completion = await t.sim.state.complete(session.providerRef, outcome);
  const expected = { userKey: req.userKey, amount: req.amount, confirmationKey: session.confirmationKey };
  return { session, completion, expected, req };
}

async function rejectsWith(fn: () => Promise<unknown>, code: ProviderError["code"], message?: RegExp) {
  await assert.rejects(fn, (e) => {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

Deno.test("startHostedPayment sends the museum body (§1.2) with the amount in agorot", async () => {
  await using t = await setup();
  const req = request({ amount: 12550, currency: 2 });
  const session = await t.pelecard.startHostedPayment(req);

  assert.equal(t.pelecard.id, "pelecard");
  assert.equal(t.pelecard.displayName, "Pelecard");
  assert.deepEqual(t.pelecard.frameOrigins, [t.sim.url]);
  assert.match(session.providerRef, GUID);
  assert.equal(session.url, `${t.sim.url}/PaymentGW?transactionId=${session.providerRef}`);
  const sim = t.sim.state.sessions.get(session.providerRef)!;
  assert.equal(session.confirmationKey, sim.confirmationKey);
  assert.equal(session.confirmationKey, await t.sim.state.confirmationKey(req.userKey, "12550"));

  const [body] = t.sim.state.bodies("/PaymentGW/init");
  assert.deepEqual(body, {
    terminal: SIM_LOGIN.terminal,
    user: SIM_LOGIN.user,
    password: SIM_LOGIN.password,
    GoodURL: req.returnUrl,
    ErrorURL: req.returnUrl,
    CancelURL: req.returnUrl,
    ActionType: "J4",
    Currency: 2,
    Total: 12550,
    FreeTotal: false,
    CreateToken: false,
    Language: "HE",
    MaxPayments: 1,
    MinPayments: 1,
    ParamX: "pay_1",
    UserKey: req.userKey,
    ShopNo: "001",
    FeedbackDataTransferMethod: "GET",
    FeedbackOnTop: true,
    ServerSideGoodFeedbackURL: req.notifyUrl,
    ServerSideErrorFeedbackURL: req.notifyUrl,
  });
});

Deno.test("monthly giving is still J4, with CreateToken", async () => {
  await using t = await setup();
  await t.pelecard.startHostedPayment(request({ tokenize: true }));
  const [body] = t.sim.state.bodies("/PaymentGW/init");
  assert.equal(body.ActionType, "J4");
  assert.equal(body.CreateToken, true);
});

Deno.test("page language: he → HE, ru → RU, everything else → EN", async () => {
  await using t = await setup();
  const langs: Lang[] = ["he", "ru", "en", "pt", "es"];
  for (const language of langs) await t.pelecard.startHostedPayment(request({ language }));
  assert.deepEqual(t.sim.state.bodies("/PaymentGW/init").map((b) => b.Language), [
    "HE",
    "RU",
    "EN",
    "EN",
    "EN",
  ]);
  assert.equal(pageLanguage("es"), "EN");
});

Deno.test("init refusals are ProviderError 'refused' naming the code, never the credentials", async (s) => {
  await s.step("501: wrong password", async () => {
    await using t = await setup({ password: "wrong-password-42" });
    await rejectsWith(() => t.pelecard.startHostedPayment(request()), "refused", /ErrCode 501/);
    await t.pelecard.startHostedPayment(request()).catch((e: Error) => {
      assert.ok(!e.message.includes("wrong-password-42"));
      // The simulator's message names the user, as Pelecard's does ("Login for user x failed").
      assert.ok(!e.message.includes(SIM_LOGIN.user), e.message);
      assert.match(e.message, /Login for user \*\*\* failed/);
    });
  });
  await s.step("205: zero total", async () => {
    await using t = await setup();
    await rejectsWith(
      () => t.pelecard.startHostedPayment(request({ amount: 0 })),
      "refused",
      /ErrCode 205 Bad total/,
    );
  });
  await s.step("065: a currency the terminal does not take", async () => {
    await using t = await setup();
    // deno-lint-ignore no-explicit-any
    await rejectsWith(() => t.pelecard.startHostedPayment(request({ currency: 3 as any })), "refused", /065/);
  });
  await s.step("an error envelope from a busy gateway", async () => {
    await using t = await setup();
    t.sim.state.failNext("errcode");
    await rejectsWith(() => t.pelecard.startHostedPayment(request()), "refused", /ErrCode 500/);
  });
  await s.step("fractional agorot are a bug, not a request", async () => {
    await using t = await setup();
    await assert.rejects(() => t.pelecard.startHostedPayment(request({ amount: 12.5 })), TypeError);
    assert.equal(t.sim.state.requests.length, 0);
  });
});

Deno.test("init transport failures: HTTP 500, garbage, no answer, nobody listening", async () => {
  await using t = await setup({ timeoutMs: 150 });
  t.sim.state.failNext("http500");
  await rejectsWith(() => t.pelecard.startHostedPayment(request()), "unreachable", /HTTP 500/);
  t.sim.state.failNext("garbage");
  await rejectsWith(() => t.pelecard.startHostedPayment(request()), "invalid-answer");
  t.sim.state.failNext("hang");
  await rejectsWith(() => t.pelecard.startHostedPayment(request()), "timeout");

  const closed = await startPelecardSimulator();
  await closed.close();
  const gone = createPelecardProvider({ baseUrl: closed.url, ...SIM_LOGIN, timeoutMs: 500 });
  await rejectsWith(() => gone.startHostedPayment(request()), "unreachable");
});

Deno.test("redirects are not followed: a redirected POST would carry the password elsewhere", async () => {
  const seen: RequestInit[] = [];
  const pelecard = createPelecardProvider({
    baseUrl: "https://gateway21.pelecard.biz",
    ...SIM_LOGIN,
    fetch: (_input, init) => {
      seen.push(init!);
      return Promise.resolve(
        new Response(null, { status: 307, headers: { location: "https://elsewhere.example/" } }),
      );
    },
  });
  await rejectsWith(() => pelecard.startHostedPayment(request()), "unreachable", /HTTP 307/);
  assert.equal(seen[0].redirect, "manual");
  assert.ok(seen[0].signal instanceof AbortSignal);
});

Deno.test("credentials never travel over plain HTTP to a remote host", () => {
  assert.throws(
    () => createPelecardProvider({ baseUrl: "http://gateway21.pelecard.biz", ...SIM_LOGIN }),
    TypeError,
  );
  const p = createPelecardProvider({ baseUrl: "https://gateway21.pelecard.biz/", ...SIM_LOGIN });
  assert.deepEqual(p.frameOrigins, ["https://gateway21.pelecard.biz"]);
});

Deno.test("readReturn takes the GUID and the claimed code, and nothing malformed", () => {
  const p = createPelecardProvider({ baseUrl: "https://gateway21.pelecard.biz", ...SIM_LOGIN });
  const id = crypto.randomUUID();
  const read = (q: string) => p.readReturn(new URLSearchParams(q));
  assert.deepEqual(read(`PelecardTransactionId=${id}&PelecardStatusCode=000`), {
    providerRef: id,
    statusCode: "000",
  });
  assert.deepEqual(read(`PelecardTransactionId=${id.toUpperCase()}&PelecardStatusCode=033`), {
    providerRef: id,
    statusCode: "033",
  });
  assert.deepEqual(read(""), { providerRef: null, statusCode: null });
  assert.deepEqual(read("PelecardTransactionId=123&PelecardStatusCode=0000"), {
    providerRef: null,
    statusCode: null,
  });
  assert.deepEqual(read(`PelecardTransactionId=${id}x&PelecardStatusCode=ok`), {
    providerRef: null,
    statusCode: null,
  });
});

Deno.test("readNotification reads ResultData.TransactionId of the simulator's notification (§1.5)", async () => {
  const received: unknown[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    received.push(await req.json());
    return new Response("ok");
  });
  try {
    await using t = await setup();
    const notifyUrl = `http://127.0.0.1:${hook.addr.port}/api/payment/notify/pelecard`;
    const { session, completion } = await paid(t, { statusCode: "000" }, request({ notifyUrl }));
    assert.equal(completion.notification?.status, 200);
    assert.equal(received.length, 1);
    assert.deepEqual(t.pelecard.readNotification(received[0]), { providerRef: session.providerRef });
    assert.deepEqual(t.pelecard.readNotification(JSON.stringify(received[0])), {
      providerRef: session.providerRef,
    });
  } finally {
    await hook.shutdown();
  }
  const p = createPelecardProvider({ baseUrl: "https://gateway21.pelecard.biz", ...SIM_LOGIN });
  for (
    const bad of [null, "{", [], { TransactionId: crypto.randomUUID() }, {
      ResultData: { TransactionId: "42" },
    }]
  ) {
    assert.deepEqual(p.readNotification(bad), { providerRef: null }, JSON.stringify(bad));
  }
});

Deno.test("the hosted page: a form whose test card returns the payer with the return fields", async () => {
  await using t = await setup();
  const req = request();
  const session = await t.pelecard.startHostedPayment(req);
  const pageHtml = await (await fetch(session.url)).text();
  assert.match(pageHtml, /<form method="post" action="\/PaymentGW\/submit">/);
  assert.match(pageHtml, /₪100\.00/);
  const res = await fetch(`${t.sim.url}/PaymentGW/submit`, {
    method: "POST",
    body: new URLSearchParams({
      transactionId: session.providerRef,
      cardNumber: "4000000000000002",
      action: "pay",
    }),
  });
  const html = await res.text();
  // FeedbackOnTop: the simulator navigates the top window to ErrorURL with the fields in the query.
  const href = html.match(/<a href="([^"]+)" target="_top">/)![1].replaceAll("&#38;", "&");
  const back = new URL(href);
  assert.equal(back.origin + back.pathname, "https://donate.example/he/payment-return");
  assert.equal(back.searchParams.get("p"), "pay_1");
  assert.deepEqual(t.pelecard.readReturn(back.searchParams), {
    providerRef: session.providerRef,
    statusCode: "004",
  });
  assert.equal(back.searchParams.get("ParamX"), "pay_1");
  assert.equal(back.searchParams.get("UserKey"), req.userKey);
});

Deno.test("verifyPayment: an approved payment, checked and validated, with only public card fields", async () => {
  await using t = await setup();
  const { session, expected, req } = await paid(t, { statusCode: "000" });
  const result = await t.pelecard.verifyPayment(session.providerRef, expected);

  assert.equal(result.statusCode, "000", result.errorMessage ?? "");
  assert.equal(result.errorMessage, null);
  assert.equal(result.providerRef, session.providerRef);
  assert.equal(result.amount, 10000);
  assert.equal(result.currency, 1);
  assert.equal(result.reference, "pay_1");
  assert.equal(result.token, null);
  assert.equal(result.pending, undefined);
  const rd = result.resultData!;
  assert.deepEqual(Object.keys(rd).sort(), [
    "CreditCardExpDate",
    "CreditCardNumber",
    "CreditType",
    "DebitApproveNumber",
    "DebitCurrency",
    "DebitTotal",
    "ShvaResult",
    "TransactionPelecardId",
    "VoucherId",
  ]);
  assert.equal(rd.CreditCardNumber, "458045******4580");
  assert.equal(rd.DebitTotal, "10000");
  assert.equal(rd.DebitCurrency, 1);
  assert.equal(rd.ShvaResult, "000");
  assert.match(rd.VoucherId!, /^\d{2}-\d{3}-\d{3}$/);
  assert.match(String(rd.DebitApproveNumber), /^\d{7}$/);
  assert.match(String(rd.CreditCardExpDate), /^\d{4}$/);
  assert.ok(!JSON.stringify(result).includes("000000018"), "the card holder's ID is never kept");

  assert.deepEqual(t.sim.state.bodies("/PaymentGW/GetTransaction"), [{
    terminal: SIM_LOGIN.terminal,
    user: SIM_LOGIN.user,
    password: SIM_LOGIN.password,
    TransactionId: session.providerRef,
  }]);
  assert.deepEqual(t.sim.state.bodies("/PaymentGW/ValidateByUniqueKey"), [{
    ConfirmationKey: session.confirmationKey,
    UniqueKey: req.userKey,
    TotalX100: "10000",
  }]);
});

Deno.test("verifyPayment: a monthly first payment answers its token", async () => {
  await using t = await setup();
  const { session, expected } = await paid(
    t,
    { statusCode: "000", token: "5550001111" },
    request({ tokenize: true }),
  );
  const result = await t.pelecard.verifyPayment(session.providerRef, expected);
  assert.equal(result.statusCode, "000");
  assert.equal(result.token, "5550001111");
});

Deno.test("verifyPayment: a declined payment answers its code, without validating", async () => {
  await using t = await setup();
  const { session, expected } = await paid(t, { statusCode: "033" });
  const result = await t.pelecard.verifyPayment(session.providerRef, expected);
  assert.equal(result.statusCode, "033");
  assert.equal(result.errorMessage, "invalid credit card.");
  assert.equal(t.sim.state.bodies("/PaymentGW/ValidateByUniqueKey").length, 0);
});

Deno.test("verifyPayment: a forged return claiming 000 gets the provider's 004", async () => {
  await using t = await setup();
  const { session, completion, expected } = await paid(t, { statusCode: "004" });
  const forged = new URL(completion.location);
  forged.searchParams.set("PelecardStatusCode", "000");
  const claimed = t.pelecard.readReturn(forged.searchParams);
  assert.deepEqual(claimed, { providerRef: session.providerRef, statusCode: "000" });
  const result = await t.pelecard.verifyPayment(claimed.providerRef!, expected);
  assert.equal(result.statusCode, "004");
});

Deno.test("verifyPayment: another amount than the attempt's is a MISMATCH", async (s) => {
  await s.step("the provider charged another amount", async () => {
    await using t = await setup();
    const { session, expected } = await paid(t, { statusCode: "000", debitTotal: 100 });
    const result = await t.pelecard.verifyPayment(session.providerRef, expected);
    assert.equal(result.statusCode, PELECARD_MISMATCH);
    assert.match(result.errorMessage!, /charged 100, this attempt expected 10000/);
    assert.equal(result.amount, 100, "what was really charged is still reported");
  });
  await s.step("the attempt expected another amount", async () => {
    await using t = await setup();
    const { session, expected } = await paid(t, { statusCode: "000" });
    const result = await t.pelecard.verifyPayment(session.providerRef, { ...expected, amount: 20000 });
    assert.equal(result.statusCode, PELECARD_MISMATCH);
  });
});

Deno.test("verifyPayment: a payment that does not validate as this attempt's is a MISMATCH", async (s) => {
  await s.step("another UserKey: ValidateByUniqueKey answers 0", async () => {
    await using t = await setup();
    const { session, expected } = await paid(t, { statusCode: "000" });
    const result = await t.pelecard.verifyPayment(session.providerRef, {
      ...expected,
      userKey: "someone-else",
    });
    assert.equal(result.statusCode, PELECARD_MISMATCH);
    assert.match(result.errorMessage!, /ValidateByUniqueKey/);
    assert.equal(t.sim.state.bodies("/PaymentGW/ValidateByUniqueKey").length, 1);
  });
  await s.step("another attempt's GUID: the ConfirmationKeys differ", async () => {
    await using t = await setup();
    const mine = await t.pelecard.startHostedPayment(request());
    const { session } = await paid(t, { statusCode: "000" });
    const result = await t.pelecard.verifyPayment(session.providerRef, {
      userKey: "mine",
      amount: 10000,
      confirmationKey: mine.confirmationKey,
    });
    assert.equal(result.statusCode, PELECARD_MISMATCH);
    assert.match(result.errorMessage!, /ConfirmationKey/);
  });
  await s.step("the validation call answers an error", async () => {
    await using t = await setup();
    const { session, expected } = await paid(t, { statusCode: "000" });
    t.sim.state.failNext("errcode", 1, "/PaymentGW/ValidateByUniqueKey");
    const result = await t.pelecard.verifyPayment(session.providerRef, expected);
    assert.equal(result.statusCode, PELECARD_MISMATCH);
  });
});

Deno.test("verifyPayment: unfinished or unknown is pending; a non-GUID is refused without a call", async () => {
  await using t = await setup();
  const session = await t.pelecard.startHostedPayment(request());
  const open = await t.pelecard.verifyPayment(session.providerRef, {
    userKey: "k",
    amount: 10000,
    confirmationKey: session.confirmationKey,
  });
  assert.equal(open.pending, true);
  assert.equal(open.statusCode, "510");
  const unknown = await t.pelecard.verifyPayment(crypto.randomUUID(), {
    userKey: "k",
    amount: 1,
    confirmationKey: null,
  });
  assert.equal(unknown.pending, true);
  const calls = t.sim.state.requests.length;
  const junk = await t.pelecard.verifyPayment("../../etc", {
    userKey: "k",
    amount: 1,
    confirmationKey: null,
  });
  assert.equal(junk.statusCode, PELECARD_MISMATCH);
  assert.equal(t.sim.state.requests.length, calls);
});

Deno.test("verifyPayment: ShvaResultEmv overrides the status, except 041/042 (§1.6)", async () => {
  await using t = await setup();
  const j2Only = await paid(t, { statusCode: "000", shvaResultEmv: "041" });
  assert.equal(
    (await t.pelecard.verifyPayment(j2Only.session.providerRef, j2Only.expected)).statusCode,
    "000",
  );
  const refused = await paid(t, { statusCode: "000", shvaResultEmv: "003" });
  assert.equal(
    (await t.pelecard.verifyPayment(refused.session.providerRef, refused.expected)).statusCode,
    "003",
  );
});

Deno.test("verifyPayment: GetTransaction failures are ProviderErrors with the right code", async () => {
  await using t = await setup({ timeoutMs: 150 });
  const { session, expected } = await paid(t, { statusCode: "000" });
  const verify = () => t.pelecard.verifyPayment(session.providerRef, expected);
  const path = "/PaymentGW/GetTransaction";
  t.sim.state.failNext("http500", 1, path);
  await rejectsWith(verify, "unreachable", /GetTransaction: HTTP 500/);
  t.sim.state.failNext("garbage", 1, path);
  await rejectsWith(verify, "invalid-answer", /not JSON/);
  t.sim.state.failNext("hang", 1, path);
  const started = performance.now();
  await rejectsWith(verify, "timeout", /within 150 ms/);
  assert.ok(performance.now() - started < 1000);
  // A "try again later" answer without the transaction's record is about the question: recording
  // it as the payment's failure would block the real result.
  t.sim.state.failNext("errcode", 1, path);
  await rejectsWith(verify, "unreachable", /GetTransaction: answered 500/);
  // And after all that, the payment still verifies.
  assert.equal((await verify()).statusCode, "000");
});

Deno.test("verifyPayment: a payment that itself failed with a 'try again' code is that failure", async () => {
  await using t = await setup();
  // The card page's attempt failed for lack of communication: its record says so.
  const { session, expected } = await paid(t, { statusCode: "009" });
  const result = await t.pelecard.verifyPayment(session.providerRef, expected);
  assert.equal(result.statusCode, "009");
  assert.ok(!result.pending);
});

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

Deno.test("maskPan keeps six and four, and leaves masked numbers alone", () => {
  assert.equal(maskPan(FULL_PAN), "458045******4580");
  assert.equal(maskPan("458045******4580"), "458045******4580");
  assert.equal(maskPan("5326-1003-0000-0015"), "532610******0015");
});

// Last: every line logged by every test above.
Deno.test("log lines name the call, its duration and outcome, never a password or a card number", () => {
  assert.ok(allLogs.length > 40, `only ${allLogs.length} lines`);
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
  const outcomes = new Set(allLogs.map((l) => JSON.parse(l).outcome));
  for (const o of ["000", "timeout", "unreachable", "invalid-answer", "ErrCode 501", "1", "0"]) {
    assert.ok(outcomes.has(o), `no line with outcome ${o}`);
  }
});
