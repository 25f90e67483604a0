/**
 * A local simulator of Pelecard's protocol (`shared/payments/PELECARD.md`, §6 "Simulator
 * checklist"), for testing the `pelecard` provider with no account anywhere: `PaymentGW/init`, the
 * hosted page and its return, the server-to-server notification, `GetTransaction`,
 * `ValidateByUniqueKey`, token services, and the PinPad calls as `lib/providers/pelecard/terminal.ts`
 * assumes them. Everything it answers is shaped like the real gateway's answers as far as they
 * are known; where they are not (ConfirmationKey, the PinPad), the choice is written down here.
 *
 * Tests drive it through `state`: complete a hosted payment, program a PinPad or a token, inject
 * faults, and read every request it received.
 *
 * @module
 */
import { Hono } from "hono";

/**
 * A terminal's API login the simulator accepts.
 *
 * @example
 * ```ts
 * const login: SimLogin = { terminal: "1234567", user: "museum", password: "sim-password-main" };
 * ```
 */
export interface SimLogin {
  terminal: string;
  user: string;
  password: string;
}

/**
 * The main terminal's login (hosted page, GetTransaction, PinPad). Made up: never a real one.
 *
 * @example
 * ```ts
 * createPelecardProvider({ baseUrl: sim.url, ...SIM_LOGIN });
 * ```
 */
export const SIM_LOGIN: SimLogin = { terminal: "1234567", user: "museum", password: "sim-password-main" };

/**
 * The second ("hook") terminal's login, for token charges.
 *
 * @example
 * ```ts
 * createPelecardProvider({ baseUrl: sim.url, ...SIM_LOGIN, tokenTerminal: SIM_TOKEN_LOGIN });
 * ```
 */
export const SIM_TOKEN_LOGIN: SimLogin = {
  terminal: "7654321",
  user: "museum-token",
  password: "sim-password-token",
};

/**
 * Test cards for the hosted page's form: card number → the status code it ends with. Any other
 * number passing the Luhn check is approved, one failing it answers 033 (bad card).
 *
 * @example
 * ```ts
 * TEST_CARDS["4000000000000002"]; // "004"
 * ```
 */
export const TEST_CARDS: Readonly<Record<string, string>> = {
  "4580458045804580": "000",
  "4000000000000002": "004",
  "4000000000000036": "036",
  "4000000000000006": "006",
};

/**
 * How a programmed PinPad behaves on its next sales.
 *
 * @example
 * ```ts
 * sim.state.setPinpad("PP-1", { kind: "decline", code: "004" });
 * ```
 */
export type PinpadBehaviour =
  | {
    kind: "approve"; /** Charge this instead of the total asked (to test mismatches). */
    debitTotal?: number;
  }
  | { kind: "decline"; code: string }
  /** Never answers: the request is held until the simulator closes (or `holdMs` passes). */
  | { kind: "hang" }
  /** The device's own timeout: answers 512 at once. */
  | { kind: "device-timeout" };

/**
 * Faults for the next API calls: HTTP 500, a 200 that is not JSON, no answer at all, or a
 * well-formed error answer (code 500 "terminal busy broadcasting"; 0 from ValidateByUniqueKey).
 *
 * @example
 * ```ts
 * sim.state.failNext("hang", 1, "/PaymentGW/GetTransaction");
 * ```
 */
export type FaultKind = "http500" | "garbage" | "hang" | "errcode";

/**
 * Simulator settings.
 *
 * @example
 * ```ts
 * const sim = await startPelecardSimulator({ pinpads: { "PP-1": { kind: "approve" } } });
 * ```
 */
export interface SimulatorOptions {
  /** Accepted logins; {@link SIM_LOGIN} and {@link SIM_TOKEN_LOGIN} by default. */
  logins?: SimLogin[];
  /** Key of the ConfirmationKey HMAC; random by default. */
  secret?: string;
  /** How long a hanging request is held at most, in milliseconds; 30000 by default. */
  holdMs?: number;
  /** Known PinPads and their behaviour; any other id answers 550. */
  pinpads?: Record<string, PinpadBehaviour>;
}

/**
 * One request the simulator received: path and parsed JSON body (credentials included, on purpose:
 * tests assert what was sent).
 *
 * @example
 * ```ts
 * const init = sim.state.requests.find((r) => r.path === "/PaymentGW/init")!;
 * ```
 */
export interface SimRequest {
  path: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * A hosted-page payment the simulator started.
 *
 * @example
 * ```ts
 * sim.state.sessions.get(transactionId)!.status; // "open"
 * ```
 */
export interface SimSession {
  transactionId: string;
  init: Record<string, unknown>;
  confirmationKey: string;
  status: "open" | "done";
  statusCode: string | null;
  resultData: Record<string, string> | null;
}

/**
 * A stored card token.
 *
 * @example
 * ```ts
 * sim.state.tokens.set("1234567890", { pan: "4580458045804580", exp: "1230", outcome: "036" });
 * ```
 */
export interface SimToken {
  pan: string;
  exp: string;
  /** What charging it answers: "000" or a decline code. */
  outcome: string;
  /** What a refund (a negative total) on it answers when it fits: "000" (the default) or a code. */
  refundOutcome?: string;
}

/**
 * A token charge, authorization or refund the simulator answered.
 *
 * @example
 * ```ts
 * sim.state.charges.at(-1)!.statusCode; // "000"
 * ```
 */
export interface SimCharge {
  kind: "debit" | "refund" | "authorize";
  token: string;
  total: number;
  currency: number;
  paramX: string;
  statusCode: string;
  transactionId: string;
}

/**
 * A PinPad sale.
 *
 * @example
 * ```ts
 * sim.state.sales.at(-1)!.status; // "reversed"
 * ```
 */
export interface SimSale {
  pinpadId: string;
  paramX: string;
  total: number;
  currency: number;
  status: "waiting" | "approved" | "declined" | "timeout" | "reversed";
  statusCode: string | null;
}

/**
 * What completing a hosted payment did: where the browser was sent, with which fields, and the
 * server-side notification's delivery.
 *
 * @example
 * ```ts
 * const done = await sim.state.complete(id, { statusCode: "000" });
 * new URL(done.location).searchParams.get("PelecardStatusCode"); // "000"
 * ```
 */
export interface SimCompletion {
  /** The return address; with GET, the fields are already in its query. */
  location: string;
  method: "GET" | "POST";
  fields: Record<string, string>;
  notification: { url: string; status: number | null; body: unknown; error?: string } | null;
}

/**
 * How a hosted payment ends.
 *
 * @example
 * ```ts
 * const outcome: SimOutcome = { statusCode: "000", token: "1234567890" };
 * ```
 */
export interface SimOutcome {
  statusCode: string;
  /** The token to issue when the init asked for one (random otherwise). */
  token?: string;
  /** Charge this instead of the init's Total (a payer-changed amount, to test mismatches). */
  debitTotal?: number;
  shvaResultEmv?: string;
  /** Full test card number; masked in every answer. */
  pan?: string;
}

/**
 * The simulator's state and controls.
 *
 * @example
 * ```ts
 * sim.state.failNext("http500");
 * ```
 */
export interface SimulatorState {
  requests: SimRequest[];
  sessions: Map<string, SimSession>;
  tokens: Map<string, SimToken>;
  charges: SimCharge[];
  sales: SimSale[];
  /** The paramX of every EmvReversal call. */
  reversals: string[];
  /** Ends a hosted payment: sends the browser back and the notification out. */
  complete(transactionId: string, outcome: SimOutcome): Promise<SimCompletion>;
  /** The next `count` API calls (to `path` only, when given) fail as `kind`. */
  failNext(kind: FaultKind, count?: number, path?: string): void;
  setPinpad(id: string, behaviour: PinpadBehaviour): void;
  /** The bodies received on a path, oldest first. */
  // deno-lint-ignore no-explicit-any
  bodies(path: string): any[];
  /** The ConfirmationKey the simulator gives for a UniqueKey and amount. */
  confirmationKey(uniqueKey: string, totalX100: string): Promise<string>;
}

/**
 * A running simulator.
 *
 * @example
 * ```ts
 * const sim: PelecardSimulator = await startPelecardSimulator();
 * await sim.close();
 * ```
 */
export interface PelecardSimulator {
  /** `http://127.0.0.1:<port>`: the provider's baseUrl. */
  url: string;
  state: SimulatorState;
  close(): Promise<void>;
}

const MESSAGES: Record<string, string> = {
  "000": "operation success",
  "004": "transaction refused.",
  "006": "wrong CVV or ID.",
  "033": "invalid credit card.",
  "036": "card expired.",
  "065": "currency invalid.",
  "205": "Bad total.",
  "500": "Terminal executes broadcast and/or updating data. Please try again later.",
  "501": "User name and/or password not correct. Please call support team.",
  "506": "Token number abnormal.",
  "510": "Data does not exist",
  "512": "Time out on pinpad",
  "516": "Invalid PINPAD ID",
  "550": "Pinpad not found",
  "551": "PINPAD busy",
  "555": "Operation was Canceled",
};

/**
 * Starts the simulator on a free local port.
 *
 * Choices where the real gateway is not documented: ConfirmationKey = the first 32 hex characters
 * of HMAC-SHA256(secret, `UniqueKey|TotalX100`) (§1.6); GetTransaction of an unfinished or unknown
 * transaction answers 510; a declined payment's GetTransaction answers its code as StatusCode and
 * ShvaResult; CheckGoodParamX answers 000 with the transaction when the reference was paid and 510
 * otherwise; the PinPad calls follow the envelope assumed in `lib/providers/pelecard/terminal.ts`.
 *
 * @example
 * ```ts
 * const sim = await startPelecardSimulator();
 * const pelecard = createPelecardProvider({ baseUrl: sim.url, ...SIM_LOGIN });
 * // …
 * await sim.close();
 * ```
 */
export async function startPelecardSimulator(options: SimulatorOptions = {}): Promise<PelecardSimulator> {
  const logins = options.logins ?? [SIM_LOGIN, SIM_TOKEN_LOGIN];
  const hmacKey = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(options.secret ?? crypto.randomUUID()),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const pinpads = new Map(Object.entries(options.pinpads ?? {}));
  const faults: { kind: FaultKind; path?: string }[] = [];
  const holds = new Set<() => void>();
  let pelecardId = 504338834;
  let receipt = 0;

  async function confirmationKey(uniqueKey: string, totalX100: string): Promise<string> {
    const mac = await crypto.subtle.sign(
      "HMAC",
      hmacKey,
      new TextEncoder().encode(`${uniqueKey}|${totalX100}`),
    );
    return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 32);
  }

  const state: SimulatorState = {
    requests: [],
    sessions: new Map(),
    tokens: new Map(),
    charges: [],
    sales: [],
    reversals: [],
    complete,
    failNext(kind, count = 1, path) {
      for (let i = 0; i < count; i++) faults.push({ kind, path });
    },
    setPinpad(id, behaviour) {
      pinpads.set(id, behaviour);
    },
    bodies: (path) => state.requests.filter((r) => r.path === path).map((r) => r.body),
    confirmationKey,
  };

  /**
   * A request that never answers: resolves when the simulator closes, or after `holdMs` so a
   * long-lived simulator does not pile them up. (Not on the client giving up: Deno.serve's
   * request.signal also fires on ordinary responses and warns about it.)
   */
  function hold(): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        holds.delete(release);
        resolve();
      };
      const timer = setTimeout(release, options.holdMs ?? 30_000);
      holds.add(release);
    });
  }

  const loginOk = (terminal: unknown, user: unknown, password: unknown) =>
    logins.some((l) => l.terminal === terminal && l.user === user && l.password === password);

  function card(pan: string, exp: string) {
    return {
      CreditCardNumber: mask(pan),
      CreditCardExpDate: exp,
      CreditCardCompanyClearer: "6",
      CreditCardCompanyIssuer: "6",
      CreditCardBrand: "2",
      CardHebrewName: "לאומי קארד",
      CreditCardAbroadCard: "0",
    };
  }

  /** A ResultData as §1.7 lists it; personal fields included, as Pelecard sends them. */
  function resultData(fields: {
    transactionId: string;
    statusCode: string;
    total: number;
    currency: number;
    paramX: string;
    pan: string;
    exp: string;
    token?: string;
    jParam?: string;
    shvaResultEmv?: string;
    confirmationKey?: string;
  }): Record<string, string> {
    const ok = fields.statusCode === "000";
    const now = new Date();
    const stamp = `${pad(now.getDate())}/${pad(now.getMonth() + 1)}/${now.getFullYear()} ${
      pad(now.getHours())
    }:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
    if (ok) receipt++;
    return {
      TransactionId: fields.transactionId,
      PelecardTransactionId: fields.transactionId,
      TransactionPelecardId: String(pelecardId++),
      ShvaResult: fields.statusCode === "555" ? "" : fields.statusCode,
      ShvaResultEmv: fields.shvaResultEmv ?? "",
      ShvaResultEmvMessage: "",
      DebitApproveNumber: ok ? digits(7) : "",
      ConfirmationKey: fields.confirmationKey ?? "",
      VoucherId: ok ? `05-001-${String(receipt % 1000).padStart(3, "0")}` : "",
      ShvaFileNumber: ok ? "05" : "",
      StationNumber: "1",
      Reciept: ok ? String(receipt) : "",
      JParam: fields.jParam ?? "4",
      ...card(fields.pan, fields.exp),
      CreditType: "1",
      CreditCardStarsDiscountTotal: "0",
      DebitType: fields.total < 0 ? "51" : "1",
      DebitCode: "50",
      DebitTotal: String(fields.total),
      DebitCurrency: String(fields.currency),
      TotalPayments: "1",
      FirstPaymentTotal: "0",
      FixedPaymentTotal: "0",
      AdditionalDetailsParamX: fields.paramX,
      Token: fields.token ?? "",
      CardHolderID: "000000018",
      CardHolderName: "Dana Levi",
      CardHolderEmail: "dana@example.org",
      CardHolderPhone: "0501234567",
      ApprovedBy: "1",
      CallReason: "0",
      TransactionInitTime: stamp,
      TransactionUpdateTime: stamp,
    };
  }

  async function complete(transactionId: string, outcome: SimOutcome): Promise<SimCompletion> {
    const session = state.sessions.get(transactionId);
    if (!session) throw new Error(`no such transaction ${transactionId}`);
    if (session.status !== "open") throw new Error(`transaction ${transactionId} is already done`);
    if (!/^\d{3}$/.test(outcome.statusCode)) throw new Error(`not a status code: ${outcome.statusCode}`);
    const init = session.init;
    const code = outcome.statusCode;
    const ok = code === "000";
    const token = ok && isTrue(init.CreateToken) ? outcome.token ?? digits(10) : undefined;
    const pan = outcome.pan ?? "4580458045804580";
    if (token) state.tokens.set(token, { pan, exp: "1230", outcome: "000" });
    const rd = resultData({
      transactionId,
      statusCode: code,
      total: outcome.debitTotal ?? Number(init.Total),
      currency: Number(init.Currency),
      paramX: str(init.ParamX),
      pan,
      exp: "1230",
      token,
      // J2 (a check, nothing charged) reports JParam 2; J4 (the default) 4.
      jParam: str(init.ActionType).toUpperCase() === "J2" ? "2" : "4",
      shvaResultEmv: outcome.shvaResultEmv,
      confirmationKey: session.confirmationKey,
    });
    Object.assign(session, { status: "done", statusCode: code, resultData: rd });

    const fields: Record<string, string> = {
      PelecardTransactionId: transactionId,
      PelecardStatusCode: code,
      ApprovalNo: rd.DebitApproveNumber,
      ConfirmationKey: session.confirmationKey,
      UserKey: str(init.UserKey),
      ParamX: str(init.ParamX),
      Token: token ?? "",
    };
    const target = ok
      ? str(init.GoodURL)
      : code === "555"
      ? str(init.CancelURL) || str(init.ErrorURL) || str(init.GoodURL)
      : str(init.ErrorURL) || str(init.GoodURL);
    const method = str(init.FeedbackDataTransferMethod).toUpperCase() === "POST" ? "POST" : "GET";
    let location = target;
    if (method === "GET" && target) {
      const url = new URL(target);
      for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
      location = url.href;
    }

    let notification: SimCompletion["notification"] = null;
    const notifyUrl = str(ok ? init.ServerSideGoodFeedbackURL : init.ServerSideErrorFeedbackURL);
    if (notifyUrl) {
      const body = { StatusCode: code, ErrorMessage: MESSAGES[code] ?? "", ResultData: rd };
      notification = { url: notifyUrl, status: null, body };
      try {
        const res = await fetch(notifyUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(5000),
        });
        await res.body?.cancel();
        notification.status = res.status;
      } catch (e) {
        notification.error = e instanceof Error ? e.message : String(e);
      }
    }
    return { location, method, fields, notification };
  }

  type Env = { Variables: { body: Record<string, unknown> } };
  const app = new Hono<Env>();

  // API calls: record, then apply any injected fault.
  app.use("*", async (c, next) => {
    const path = c.req.path;
    if (c.req.method !== "POST" || path === "/PaymentGW/submit") return next();
    const raw = await c.req.text();
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    state.requests.push({ path, body });
    const at = faults.findIndex((f) => !f.path || f.path === path);
    if (at >= 0) {
      const [fault] = faults.splice(at, 1);
      if (fault.kind === "http500") return c.text("Internal Server Error", 500);
      if (fault.kind === "garbage") {
        return c.html("<html><body>Service temporarily unavailable</body></html>");
      }
      if (fault.kind === "hang") {
        await hold();
        return c.text("too late", 504);
      }
      if (path === "/PaymentGW/init") return c.json(initError("500"));
      if (path === "/PaymentGW/ValidateByUniqueKey") return c.json(0);
      return c.json(envelope("500"));
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return c.text("Bad request", 400);
    c.set("body", body as Record<string, unknown>);
    await next();
  });

  app.post("/PaymentGW/init", async (c) => {
    const b = c.get("body");
    if (!loginOk(b.terminal, b.user, b.password)) {
      return c.json(initError("501", `Login for user ${str(b.user)} failed`));
    }
    const total = Number(b.Total);
    if (!Number.isSafeInteger(total) || total <= 0) return c.json(initError("205"));
    const currency = Number(b.Currency);
    if (currency !== 1 && currency !== 2) return c.json(initError("065"));
    const transactionId = crypto.randomUUID();
    const key = await confirmationKey(str(b.UserKey) || transactionId, String(total));
    state.sessions.set(transactionId, {
      transactionId,
      init: b,
      confirmationKey: key,
      status: "open",
      statusCode: null,
      resultData: null,
    });
    const url = new URL("/PaymentGW", c.req.url);
    url.searchParams.set("transactionId", transactionId);
    return c.json({ URL: url.href, ConfirmationKey: key, Error: { ErrCode: 0, ErrMsg: "" } });
  });

  // The hosted page: a plain form (card number and expiry), as little as a test needs.
  app.get("/PaymentGW", (c) => {
    const id = c.req.query("transactionId") ?? "";
    const session = state.sessions.get(id);
    if (!session) return c.html(page("Payment", "<p>Unknown transaction.</p>"), 404);
    if (session.status !== "open") return c.html(page("Payment", "<p>This payment is finished.</p>"), 410);
    const init = session.init;
    const amount = `${Number(init.Currency) === 2 ? "$" : "₪"}${(Number(init.Total) / 100).toFixed(2)}`;
    const cancel = str(init.CancelURL) ? `<button name="action" value="cancel">Cancel</button>` : "";
    return c.html(page(
      "Payment",
      `<form method="post" action="/PaymentGW/submit">
  <input type="hidden" name="transactionId" value="${esc(id)}">
  <p><label>Card number <input name="cardNumber" inputmode="numeric" autocomplete="cc-number" required></label></p>
  <p><label>Expiry (MMYY) <input name="expiry" inputmode="numeric" autocomplete="cc-exp" value="1230"></label></p>
  <p><button name="action" value="pay">Pay ${esc(amount)}</button> ${cancel}</p>
</form>`,
      str(init.Language).toUpperCase() === "HE" ? "he" : "en",
    ));
  });

  app.post("/PaymentGW/submit", async (c) => {
    const form = await c.req.parseBody();
    const id = str(form.transactionId);
    const session = state.sessions.get(id);
    if (!session || session.status !== "open") {
      return c.html(page("Payment", "<p>Unknown transaction.</p>"), 404);
    }
    const pan = str(form.cardNumber).replace(/\D/g, "");
    const qa = str(session.init.QAResultStatus);
    const statusCode = form.action === "cancel"
      ? "555"
      : /^\d{3}$/.test(qa)
      ? qa
      : TEST_CARDS[pan] ?? (luhn(pan) ? "000" : "033");
    const done = await complete(id, { statusCode, pan: luhn(pan) ? pan : undefined });
    const top = isTrue(session.init.FeedbackOnTop);
    if (done.method === "GET") {
      if (!top) return c.redirect(done.location, 303);
      // FeedbackOnTop: leave the iframe, i.e. navigate the top window.
      return c.html(page(
        "Redirecting",
        `<p><a href="${esc(done.location)}" target="_top">Continue</a></p>
<script>window.top.location.href = ${JSON.stringify(done.location).replaceAll("<", "\\u003c")};</script>`,
      ));
    }
    const inputs = Object.entries(done.fields)
      .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
      .join("\n");
    return c.html(page(
      "Redirecting",
      `<form id="back" method="post" action="${esc(done.location)}" target="${top ? "_top" : "_self"}">
${inputs}
<button>Continue</button>
</form>
<script>document.getElementById("back").submit();</script>`,
    ));
  });

  app.post("/PaymentGW/GetTransaction", (c) => {
    const b = c.get("body");
    if (!loginOk(b.terminal, b.user, b.password)) return c.json(envelope("501"));
    const session = state.sessions.get(str(b.TransactionId).toLowerCase());
    if (!session || session.status !== "done") return c.json(envelope("510"));
    return c.json({ ...envelope(session.statusCode!, session.resultData), UserData: {} });
  });

  app.post("/PaymentGW/ValidateByUniqueKey", async (c) => {
    const b = c.get("body");
    const expected = await confirmationKey(str(b.UniqueKey), str(b.TotalX100));
    return c.json(str(b.ConfirmationKey).toLowerCase() === expected ? 1 : 0);
  });

  /** What the token paid (successful debits and hosted payments) less what was credited to it. */
  function refundable(token: string): number {
    let sum = 0;
    for (const charge of state.charges) {
      if (charge.token === token && charge.statusCode === "000" && charge.kind !== "authorize") {
        sum += charge.total;
      }
    }
    for (const session of state.sessions.values()) {
      if (session.statusCode === "000" && session.resultData?.Token === token) {
        sum += Number(session.resultData.DebitTotal);
      }
    }
    return sum;
  }

  // Token charges (J4), holds (J5) and refunds (negative total), §2.1–2.2, §2.5.
  for (const name of ["DebitRegularType", "AuthorizeCreditCard"] as const) {
    app.post(`/services/${name}`, (c) => {
      const b = c.get("body");
      if (!loginOk(b.terminalNumber, b.user, b.password)) return c.json(envelope("501"));
      const token = state.tokens.get(str(b.token));
      if (!token) return c.json(envelope("506"));
      const total = Number(b.total);
      if (!Number.isSafeInteger(total) || total === 0 || (name === "AuthorizeCreditCard" && total < 0)) {
        return c.json(envelope("205"));
      }
      const currency = Number(b.currency);
      if (currency !== 1 && currency !== 2) return c.json(envelope("065"));
      // A credit may not exceed what the token paid (its debits and hosted payments) less its credits.
      if (total < 0 && -total > refundable(str(b.token))) return c.json(envelope("205"));
      const transactionId = crypto.randomUUID();
      const statusCode = total < 0 ? token.refundOutcome ?? "000" : token.outcome;
      const rd = resultData({
        transactionId,
        statusCode,
        total,
        currency,
        paramX: str(b.paramX),
        pan: token.pan,
        exp: token.exp,
        token: str(b.token),
        jParam: name === "AuthorizeCreditCard" ? "5" : "4",
      });
      state.charges.push({
        kind: name === "AuthorizeCreditCard" ? "authorize" : total < 0 ? "refund" : "debit",
        token: str(b.token),
        total,
        currency,
        paramX: str(b.paramX),
        statusCode,
        transactionId,
      });
      return c.json(envelope(statusCode, rd));
    });
  }

  app.post("/services/ConvertToToken", (c) => {
    const b = c.get("body");
    if (!loginOk(b.terminalNumber, b.user, b.password)) return c.json(envelope("501"));
    const pan = str(b.creditCard).replace(/\D/g, "");
    if (!luhn(pan)) return c.json(envelope("033"));
    const token = digits(10);
    state.tokens.set(token, { pan, exp: str(b.creditCardDateMmYy) || "1230", outcome: "000" });
    return c.json(envelope("000", { Token: token, ...card(pan, str(b.creditCardDateMmYy) || "1230") }));
  });

  app.post("/services/CheckGoodParamX", (c) => {
    const b = c.get("body");
    if (!loginOk(b.terminalNumber, b.user, b.password)) return c.json(envelope("501"));
    const paid = [...state.sessions.values()].find((s) =>
      s.statusCode === "000" && s.init.ParamX === b.paramX
    );
    return c.json(paid ? envelope("000", paid.resultData) : envelope("510"));
  });

  for (const lang of ["En", "He"]) {
    app.post(
      `/services/GetErrorMessage${lang}`,
      (c) => c.json(MESSAGES[str(c.get("body").ErrorCode)] ?? "Unknown error"),
    );
  }

  // PinPad sale and reversal, as assumed in lib/providers/pelecard/terminal.ts.
  app.post("/services/EmvDebit", async (c) => {
    const b = c.get("body");
    if (!loginOk(b.terminalNumber, b.user, b.password)) return c.json(envelope("501"));
    const pinpadId = str(b.pinpadId);
    if (!/^[\w-]{1,40}$/.test(pinpadId)) return c.json(envelope("516"));
    const behaviour = pinpads.get(pinpadId);
    if (!behaviour) return c.json(envelope("550"));
    if (state.sales.some((s) => s.pinpadId === pinpadId && s.status === "waiting")) {
      return c.json(envelope("551"));
    }
    const total = Number(b.total);
    if (!Number.isSafeInteger(total) || total <= 0) return c.json(envelope("205"));
    const currency = Number(b.currency);
    if (currency !== 1 && currency !== 2) return c.json(envelope("065"));
    const sale: SimSale = {
      pinpadId,
      paramX: str(b.paramX),
      total,
      currency,
      status: "waiting",
      statusCode: null,
    };
    state.sales.push(sale);
    if (behaviour.kind === "hang") {
      await hold();
      return c.text("too late", 504);
    }
    if (behaviour.kind === "device-timeout") {
      Object.assign(sale, { status: "timeout", statusCode: "512" });
      return c.json(envelope("512"));
    }
    const statusCode = behaviour.kind === "decline" ? behaviour.code : "000";
    Object.assign(sale, { status: statusCode === "000" ? "approved" : "declined", statusCode });
    const rd = resultData({
      transactionId: crypto.randomUUID(),
      statusCode,
      total: behaviour.kind === "approve" ? behaviour.debitTotal ?? total : total,
      currency,
      paramX: sale.paramX,
      pan: "4580458045804580",
      exp: "1230",
    });
    rd.DebitCode = "00";
    return c.json(envelope(statusCode, rd));
  });

  app.post("/services/EmvReversal", (c) => {
    const b = c.get("body");
    if (!loginOk(b.terminalNumber, b.user, b.password)) return c.json(envelope("501"));
    const paramX = str(b.paramX);
    state.reversals.push(paramX);
    for (const sale of state.sales) {
      if (sale.paramX === paramX && (sale.status === "waiting" || sale.status === "approved")) {
        sale.status = "reversed";
      }
    }
    return c.json(envelope("000"));
  });

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    state,
    async close() {
      for (const release of [...holds]) release();
      await server.shutdown();
    },
  };
}

function envelope(statusCode: string, resultData: Record<string, string> | null = null) {
  return { StatusCode: statusCode, ErrorMessage: MESSAGES[statusCode] ?? "", ResultData: resultData };
}

function initError(code: string, message = MESSAGES[code] ?? "") {
  return { URL: "", ConfirmationKey: "", Error: { ErrCode: Number(code), ErrMsg: message } };
}

function page(title: string, body: string, lang = "en"): string {
  return `<!doctype html>
<html lang="${lang}" dir="${lang === "he" ? "rtl" : "ltr"}"><head><meta charset="utf-8"><title>${
    esc(title)
  }</title></head>
<body><h1>Pelecard simulator</h1>
${body}
</body></html>`;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === "string" && value.toLowerCase() === "true");
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function digits(n: number): string {
  return [...crypto.getRandomValues(new Uint8Array(n))].map((b) => String(b % 10)).join("");
}

function mask(pan: string): string {
  return `${pan.slice(0, 6)}${"*".repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;
}

function luhn(pan: string): boolean {
  if (!/^\d{13,19}$/.test(pan)) return false;
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
