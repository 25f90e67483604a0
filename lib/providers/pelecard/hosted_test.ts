/**
 * The hosted payment page of the Pelecard provider (`pelecard_hosted.ts`) against the simulator: the
 * init body, refusals, the return and the notification, and verification with Pelecard itself.
 */
import assert from "node:assert/strict";
import type { Lang } from "@/lib/shared/languages.ts";
import { createPelecardProvider } from "./pelecard.ts";
import { pageLanguage } from "./hosted.ts";
import { PELECARD_MISMATCH } from "./protocol.ts";
import { SIM_LOGIN } from "@/tests/pelecard_simulator.ts";
import { assertLogsClean, GUID, paid, rejectsWith, request, setupLogging } from "@/tests/helpers/pelecard.ts";

/** Every log line of every provider in this file, checked for secrets by the last test. */
const allLogs: string[] = [];
const setup = setupLogging(allLogs);

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

// Last: every line logged by every test above.
Deno.test("log lines name the call, its duration and outcome, never a password or a card number", () => {
  assertLogsClean(allLogs, 40, ["000", "timeout", "unreachable", "invalid-answer", "ErrCode 501", "1", "0"]);
});
