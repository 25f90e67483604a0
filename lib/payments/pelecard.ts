/**
 * The Pelecard provider: the hosted payment page (`PaymentGW/*`), server-side verification, token
 * charges (`services/DebitRegularType`) and, through `pelecard_terminal.ts`, PinPad sales. The
 * protocol is `shared/payments/PELECARD.md`; section numbers below (§1.2, …) point into it.
 *
 * Every call goes through one `post`: JSON over HTTPS, a timeout, redirects refused (a redirected
 * POST would carry the password elsewhere), one log line with the call, its duration and outcome
 * only. Transport failures and answers that cannot be understood throw {@link ProviderError};
 * answers Pelecard gives about a payment (declines, mismatches) are results, never exceptions.
 *
 * @module
 */
import type { Lang } from "../shared/languages.ts";
import type { CurrencyCode } from "../shared/money.ts";
import type { ResultData } from "../storage/types.ts";
import { createPelecardTerminalSale, PELECARD_MISMATCH } from "./pelecard_terminal.ts";
import {
  type HostedPaymentRequest,
  type HostedPaymentSession,
  type PaymentProvider,
  ProviderError,
  type ProviderResult,
  type TerminalResult,
  type TerminalSaleRequest,
} from "./provider.ts";

/**
 * One Pelecard terminal's API login. Server-side only: never logged, never put in an error.
 *
 * @example
 * ```ts
 * const login: PelecardCredentials = { terminal: "1234567", user: "museum", password: Deno.env.get("PELECARD_PASSWORD")! };
 * ```
 */
export interface PelecardCredentials {
  terminal: string;
  user: string;
  password: string;
}

/**
 * How to reach Pelecard.
 *
 * @example
 * ```ts
 * const options: PelecardOptions = {
 *   baseUrl: "https://gateway21.pelecard.biz",
 *   terminal: "1234567",
 *   user: "museum",
 *   password: "…",
 *   tokenTerminal: { terminal: "7654321", user: "museum-token", password: "…" },
 * };
 * ```
 */
export interface PelecardOptions extends PelecardCredentials {
  /** The gateway, e.g. `https://gateway21.pelecard.biz` (https; plain http only for a local simulator). */
  baseUrl: string;
  /** The optional second ("hook") terminal for token charges (§0 credentials, §5). */
  tokenTerminal?: PelecardCredentials;
  /** The terminal PinPad sales run on, when it is not the main one (card-present terminals usually differ). */
  emvTerminal?: PelecardCredentials;
  /** Per call, in milliseconds; 15000 by default. */
  timeoutMs?: number;
  /** How long past a terminal sale's deadline we still wait for Pelecard's own answer; 10000 by default. */
  terminalMarginMs?: number;
  /** For tests. */
  fetch?: typeof fetch;
  /** One line per call: `{ call, ms, outcome }` (and `httpStatus` when not 200), never bodies or credentials. */
  log?: (msg: string, fields: Record<string, unknown>) => void;
  /**
   * Replaces the assumed PinPad contract of `pelecard_terminal.ts` (e.g. once Pelecard documents
   * the real one) while the rest of the provider stays.
   */
  terminalSale?: (request: TerminalSaleRequest) => Promise<TerminalResult>;
}

export { PELECARD_MISMATCH };

/** Pelecard's "Data not exist": the transaction is unknown (yet) — see {@link createPelecardProvider}. */
const NO_DATA = "510";

/**
 * Codes whose meaning is "could not do it now, try again" (status-codes.json: no communication,
 * terminal updating, system not ready, clearing unavailable, general error — repeat). Answered to
 * GetTransaction without the transaction's record, they are about the question, not the payment.
 */
const TRY_AGAIN = new Set(["009", "306", "500", "515", "596", "599", "760"]);

/**
 * What a services call answered, read leniently (codes may come as numbers) but never guessed.
 *
 * @example
 * ```ts
 * const answer: ServiceAnswer = { statusCode: "033", errorMessage: "invalid credit card.", resultData: null };
 * ```
 */
export interface ServiceAnswer {
  statusCode: string;
  errorMessage: string;
  resultData: Record<string, unknown> | null;
}

/**
 * The plumbing `pelecard_terminal.ts` shares with this module, handed over by
 * {@link createPelecardProvider} (so the two modules import each other's types only).
 *
 * @example
 * ```ts
 * const answer = kit.readServiceAnswer("EmvDebit", await kit.post("EmvDebit", "services/EmvDebit", body, 70_000));
 * ```
 */
export interface PelecardKit {
  /** POSTs JSON to `{baseUrl}/{path}`; the parsed answer, or a {@link ProviderError}. Logs one line. */
  post(call: string, path: string, body: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** The `{StatusCode, ErrorMessage, ResultData}` envelope, or a `invalid-answer` ProviderError. */
  readServiceAnswer(call: string, answer: unknown): ServiceAnswer;
  /** The §1.6 success test plus the expected amount/currency/reference: "000", a provider code or MISMATCH. */
  judge(
    call: string,
    answer: ServiceAnswer,
    expected: { amount: number; currency?: CurrencyCode; reference?: string },
  ): { statusCode: string; errorMessage: string | null };
  /** The card result fields we keep, without personal data; the card number masked for sure. */
  publicFields(resultData: Record<string, unknown> | null): Record<string, string>;
  /** Removes logins and anything card-number-like from provider text before it travels further. */
  redact(text: string): string;
  /** Services login fields of the main, token or EMV terminal. */
  serviceLogin(which: "main" | "token" | "emv"): { terminalNumber: string; user: string; password: string };
  /** The default per-call timeout, in milliseconds. */
  timeoutMs: number;
  log(msg: string, fields: Record<string, unknown>): void;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE = /^\d{3}$/;

/** The ResultData fields worth keeping; personal fields (CardHolderID, names, e-mail, phone) never are. */
const PUBLIC_FIELDS = [
  "TransactionId",
  "PelecardTransactionId",
  "TransactionPelecardId",
  "ShvaResult",
  "ShvaResultEmv",
  "DebitApproveNumber",
  "VoucherId",
  "JParam",
  "CreditCardNumber",
  "CreditCardExpDate",
  "CreditType",
  "CreditCardBrand",
  "CreditCardCompanyIssuer",
  "DebitTotal",
  "DebitCurrency",
  "AdditionalDetailsParamX",
] as const;

/**
 * The Pelecard provider.
 *
 * Interpretations worth knowing (each also noted where it is coded):
 * - GetTransaction answering 510 ("Data not exist") is `pending`: the payer has not finished, or
 *   the GUID is not one of ours; either way there is nothing to record.
 * - GetTransaction answering a "try again" code (`TRY_AGAIN`) without the transaction's record
 *   is a `ProviderError`: the question failed, not the payment.
 * - `ShvaResultEmv` 041/042 are not failures (Pelecard's plugin ignores them: they concern J2
 *   queries); any other non-empty, non-000 value becomes the status code.
 *
 * @example
 * ```ts
 * const pelecard = createPelecardProvider({
 *   baseUrl: "https://gateway21.pelecard.biz",
 *   terminal: "1234567",
 *   user: "museum",
 *   password: Deno.env.get("PELECARD_PASSWORD")!,
 *   log: (msg, fields) => log.info(msg, fields),
 * });
 * const session = await pelecard.startHostedPayment({
 *   paymentId: "p1", userKey: "k1", amount: 10000, currency: 1, language: "he", tokenize: false,
 *   returnUrl: "https://donate.museum.org/he/success", notifyUrl: "https://donate.museum.org/api/payment/notify/pelecard",
 * });
 * ```
 */
export function createPelecardProvider(options: PelecardOptions): PaymentProvider {
  const base = new URL(options.baseUrl);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(base.hostname);
  // The body carries the password: never over plain HTTP to anything but a local simulator.
  if (base.protocol !== "https:" && !(base.protocol === "http:" && local)) {
    throw new TypeError(`Pelecard baseUrl must be https (got ${base.protocol}//${base.host})`);
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 15_000;
  const doFetch = options.fetch ?? fetch;
  const log = options.log ?? (() => {});
  const main: PelecardCredentials = {
    terminal: options.terminal,
    user: options.user,
    password: options.password,
  };
  const logins = [main, options.tokenTerminal, options.emvTerminal].filter((l): l is PelecardCredentials =>
    !!l
  );
  const secrets = [...new Set(logins.flatMap((l) => [l.password, l.user]))]
    .filter((s) => s.length >= 3)
    .sort((a, b) => b.length - a.length);

  function redact(text: string): string {
    let out = text;
    for (const secret of secrets) out = out.split(secret).join("***");
    // A provider message echoing a full card number must not travel into logs or records.
    return out.replace(/\d{13,19}/g, maskPan);
  }

  async function post(
    call: string,
    path: string,
    body: Record<string, unknown>,
    ms = timeoutMs,
  ): Promise<unknown> {
    const started = performance.now();
    let outcome = "ok";
    let httpStatus: number | undefined;
    const signal = AbortSignal.timeout(ms);
    const transport = (e: unknown) =>
      signal.aborted
        ? new ProviderError(`Pelecard ${call}: no answer within ${ms} ms`, "timeout")
        : new ProviderError(
          `Pelecard ${call}: ${redact(e instanceof Error ? e.message : String(e))}`,
          "unreachable",
        );
    try {
      let res: Response;
      try {
        res = await doFetch(`${baseUrl}/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          signal,
          redirect: "manual",
        });
      } catch (e) {
        throw transport(e);
      }
      httpStatus = res.status;
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => {});
        // Pelecard reports errors inside a 200 body, so anything else is the transport failing (§0).
        throw new ProviderError(`Pelecard ${call}: HTTP ${res.status}`, "unreachable");
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw transport(e);
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new ProviderError(`Pelecard ${call}: the answer is not JSON`, "invalid-answer");
      }
      outcome = outcomeOf(value);
      return value;
    } catch (e) {
      outcome = e instanceof ProviderError ? e.code : "error";
      throw e;
    } finally {
      const fields: Record<string, unknown> = { call, ms: Math.round(performance.now() - started), outcome };
      if (httpStatus !== undefined && httpStatus !== 200) fields.httpStatus = httpStatus;
      log("pelecard call", fields);
    }
  }

  function readServiceAnswer(call: string, answer: unknown): ServiceAnswer {
    if (!isRecord(answer)) {
      throw new ProviderError(`Pelecard ${call}: the answer is not an object`, "invalid-answer");
    }
    const statusCode = code(answer.StatusCode);
    if (!statusCode) {
      throw new ProviderError(`Pelecard ${call}: the answer has no status code`, "invalid-answer");
    }
    const resultData = isRecord(answer.ResultData) ? answer.ResultData : null;
    return { statusCode, errorMessage: redact(text(answer.ErrorMessage)), resultData };
  }

  function judge(
    call: string,
    answer: ServiceAnswer,
    expected: { amount: number; currency?: CurrencyCode; reference?: string },
  ): { statusCode: string; errorMessage: string | null } {
    const rd = answer.resultData;
    const failed = (statusCode: string, fallback: string) => ({
      statusCode,
      errorMessage: answer.errorMessage || fallback,
    });
    if (answer.statusCode !== "000") {
      return failed(answer.statusCode, `Pelecard answered ${answer.statusCode}`);
    }
    if (!rd) throw new ProviderError(`Pelecard ${call}: success without ResultData`, "invalid-answer");
    // Pelecard's plugin lets ShvaResultEmv override the status, except 041/042, which only concern
    // J2 queries (§1.6); we follow it rather than fail a charge Shva approved.
    const emv = text(rd.ShvaResultEmv);
    if (emv && emv !== "000" && emv !== "041" && emv !== "042") {
      return {
        statusCode: emv,
        errorMessage: redact(text(rd.ShvaResultEmvMessage)) || `Shva EMV result ${emv}`,
      };
    }
    const shva = code(rd.ShvaResult);
    if (!shva) throw new ProviderError(`Pelecard ${call}: success without a Shva result`, "invalid-answer");
    if (shva !== "000") return failed(shva, `Shva answered ${shva}`);
    const charged = minor(rd.DebitTotal);
    if (charged !== expected.amount) {
      return {
        statusCode: PELECARD_MISMATCH,
        errorMessage: `Pelecard charged ${
          charged ?? "an unknown amount"
        }, this attempt expected ${expected.amount}`,
      };
    }
    const currency = currencyOf(rd.DebitCurrency);
    if (currency === null || (expected.currency !== undefined && currency !== expected.currency)) {
      return {
        statusCode: PELECARD_MISMATCH,
        errorMessage: `Pelecard charged currency ${text(rd.DebitCurrency) || "?"}, this attempt expected ${
          expected.currency ?? "1 or 2"
        }`,
      };
    }
    const echoed = text(rd.AdditionalDetailsParamX);
    if (expected.reference !== undefined && echoed && echoed !== expected.reference) {
      return { statusCode: PELECARD_MISMATCH, errorMessage: "Pelecard echoed another reference (ParamX)" };
    }
    return { statusCode: "000", errorMessage: null };
  }

  function publicFields(rd: Record<string, unknown> | null): Record<string, string> {
    const out: Record<string, string> = {};
    if (!rd) return out;
    for (const field of PUBLIC_FIELDS) {
      if (rd[field] === undefined || rd[field] === null) continue;
      out[field] = field === "CreditCardNumber" ? maskPan(text(rd[field])) : text(rd[field]);
    }
    return out;
  }

  function login(l: PelecardCredentials) {
    return { terminalNumber: l.terminal, user: l.user, password: l.password };
  }

  const kit: PelecardKit = {
    post,
    readServiceAnswer,
    judge,
    publicFields,
    redact,
    serviceLogin: (which) =>
      login(
        which === "token"
          ? options.tokenTerminal ?? main
          : which === "emv"
          ? options.emvTerminal ?? main
          : main,
      ),
    timeoutMs,
    log,
  };

  function toResultData(rd: Record<string, unknown> | null): ResultData | null {
    const currency = rd ? currencyOf(rd.DebitCurrency) : null;
    if (!rd || currency === null) return null;
    const fields = publicFields(rd);
    const optional = (name: string) => fields[name] ?? null;
    return {
      CreditCardNumber: fields.CreditCardNumber ?? "",
      CreditType: fields.CreditType ?? "",
      DebitTotal: fields.DebitTotal ?? "",
      DebitCurrency: currency,
      VoucherId: optional("VoucherId"),
      ShvaResult: optional("ShvaResult"),
      DebitApproveNumber: optional("DebitApproveNumber"),
      CreditCardExpDate: optional("CreditCardExpDate"),
      TransactionPelecardId: optional("TransactionPelecardId"),
    };
  }

  function toResult(
    providerRef: string,
    verdict: { statusCode: string; errorMessage: string | null },
    rd: Record<string, unknown> | null,
  ): ProviderResult {
    return {
      providerRef,
      statusCode: verdict.statusCode,
      errorMessage: verdict.statusCode === "000" ? null : verdict.errorMessage,
      amount: rd ? minor(rd.DebitTotal) : null,
      currency: rd ? currencyOf(rd.DebitCurrency) : null,
      reference: rd ? text(rd.AdditionalDetailsParamX) || null : null,
      token: rd ? text(rd.Token) || null : null,
      resultData: toResultData(rd),
    };
  }

  const terminalSale = options.terminalSale ??
    createPelecardTerminalSale({ kit, marginMs: options.terminalMarginMs ?? 10_000 });

  return {
    id: "pelecard",
    displayName: "Pelecard",
    frameOrigins: [base.origin],

    async startHostedPayment(request: HostedPaymentRequest): Promise<HostedPaymentSession> {
      // A fractional amount is a bug upstream; a zero one is Pelecard's to refuse (205).
      if (!Number.isSafeInteger(request.amount)) {
        throw new TypeError("amount must be an integer in minor units");
      }
      const body = {
        terminal: main.terminal,
        user: main.user,
        password: main.password,
        GoodURL: request.returnUrl,
        ErrorURL: request.returnUrl,
        CancelURL: request.returnUrl,
        // Monthly giving is still J4: the first month is charged now and the card tokenized with it.
        ActionType: "J4",
        Currency: request.currency,
        Total: request.amount,
        FreeTotal: false,
        CreateToken: request.tokenize,
        Language: pageLanguage(request.language),
        MaxPayments: 1,
        MinPayments: 1,
        ParamX: request.paymentId,
        UserKey: request.userKey,
        ShopNo: "001",
        FeedbackDataTransferMethod: "GET",
        FeedbackOnTop: true,
        ServerSideGoodFeedbackURL: request.notifyUrl,
        ServerSideErrorFeedbackURL: request.notifyUrl,
      };
      const answer = await post("init", "PaymentGW/init", body);
      if (!isRecord(answer)) {
        throw new ProviderError("Pelecard init: the answer is not an object", "invalid-answer");
      }
      const error = isRecord(answer.Error) ? answer.Error : {};
      // ErrCode comes as a number (501); padded, it reads like every other status code ("065").
      const errCode = code(error.ErrCode) ?? text(error.ErrCode);
      const pageUrl = text(answer.URL);
      if ((errCode && errCode !== "000" && errCode !== "0") || !pageUrl) {
        const errMsg = redact(text(error.ErrMsg));
        throw new ProviderError(
          `Pelecard init refused: ErrCode ${errCode || "?"}${errMsg ? ` ${errMsg}` : ""}`,
          "refused",
        );
      }
      let url: URL;
      try {
        url = new URL(pageUrl);
      } catch {
        throw new ProviderError("Pelecard init: the page URL is not a URL", "invalid-answer");
      }
      const providerRef = url.searchParams.get("transactionId") ?? "";
      if (!GUID.test(providerRef)) {
        throw new ProviderError("Pelecard init: the page URL carries no transaction GUID", "invalid-answer");
      }
      if (url.origin !== base.origin) {
        // The CSP's frame-src only allows baseUrl's origin: the frame would stay blank.
        log("pelecard page on another origin", { call: "init", origin: url.origin });
      }
      const confirmationKey = text(answer.ConfirmationKey) || null;
      return { url: url.href, providerRef: providerRef.toLowerCase(), confirmationKey };
    },

    readReturn(params: URLSearchParams) {
      const ref = params.get("PelecardTransactionId") ?? "";
      const status = params.get("PelecardStatusCode") ?? "";
      return {
        providerRef: GUID.test(ref) ? ref.toLowerCase() : null,
        statusCode: CODE.test(status) ? status : null,
      };
    },

    readNotification(body: unknown) {
      let value = body;
      if (typeof value === "string") {
        try {
          value = JSON.parse(value);
        } catch {
          return { providerRef: null };
        }
      }
      // §1.5: the GUID is nested, at ResultData.TransactionId.
      const ref = isRecord(value) && isRecord(value.ResultData) ? text(value.ResultData.TransactionId) : "";
      return { providerRef: GUID.test(ref) ? ref.toLowerCase() : null };
    },

    async verifyPayment(providerRef, expected): Promise<ProviderResult> {
      const ref = providerRef.toLowerCase();
      if (!GUID.test(ref)) {
        // Pelecard's own plugin only asks about GUIDs; anything else cannot be one of our payments.
        return toResult(
          ref,
          { statusCode: PELECARD_MISMATCH, errorMessage: "Not a Pelecard transaction id" },
          null,
        );
      }
      const raw = await post("GetTransaction", "PaymentGW/GetTransaction", {
        terminal: main.terminal,
        user: main.user,
        password: main.password,
        TransactionId: ref,
      });
      const answer = readServiceAnswer("GetTransaction", raw);
      if (answer.statusCode === NO_DATA) {
        // Unknown (yet): the payer is still on the page, or the GUID is not ours. Recording a
        // failure now would block the real result that may follow.
        return {
          ...toResult(ref, { statusCode: NO_DATA, errorMessage: answer.errorMessage }, null),
          pending: true,
        };
      }
      const rd = answer.resultData;
      if (TRY_AGAIN.has(answer.statusCode) && text(rd?.TransactionId).toLowerCase() !== ref) {
        // Recording this as the payment's failure would block its real result: the return route
        // shows the donor a "try again", and reconciliation asks again later.
        throw new ProviderError(
          `Pelecard GetTransaction: answered ${answer.statusCode} (${answer.errorMessage || "try again"})`,
          "unreachable",
        );
      }
      const verdict = judge("GetTransaction", answer, { amount: expected.amount });
      if (verdict.statusCode !== "000") return toResult(ref, verdict, rd);
      const mismatch = (errorMessage: string) =>
        toResult(ref, { statusCode: PELECARD_MISMATCH, errorMessage }, rd);

      const recordId = text(rd!.TransactionId).toLowerCase();
      if (recordId && recordId !== ref) return mismatch("GetTransaction answered about another transaction");
      // The transaction's own key binds it to the UserKey it was started with; ours (kept from
      // init) must be the same one, or this GUID belongs to another attempt.
      const theirs = text(rd!.ConfirmationKey).toLowerCase();
      const ours = (expected.confirmationKey ?? "").toLowerCase();
      if (theirs && ours && theirs !== ours) {
        return mismatch("The transaction's ConfirmationKey is not this attempt's");
      }
      const confirmationKey = theirs || ours;
      if (!confirmationKey) return mismatch("No ConfirmationKey to validate the payment with");
      const valid = await post("ValidateByUniqueKey", "PaymentGW/ValidateByUniqueKey", {
        ConfirmationKey: confirmationKey,
        UniqueKey: expected.userKey,
        TotalX100: text(rd!.DebitTotal),
      });
      if (valid !== 1 && valid !== "1") {
        return mismatch("ValidateByUniqueKey did not confirm the payment belongs to this attempt");
      }
      return toResult(ref, verdict, rd);
    },

    async chargeToken(request): Promise<ProviderResult> {
      // A negative total is a refund at Pelecard (§2.5): never let a monthly charge become one.
      if (!Number.isSafeInteger(request.amount) || request.amount <= 0) {
        throw new TypeError("amount must be a positive integer in minor units");
      }
      const raw = await post("DebitRegularType", "services/DebitRegularType", {
        ...kit.serviceLogin("token"),
        shopNumber: "001",
        token: request.token,
        total: request.amount,
        currency: request.currency,
        paramX: request.reference,
      });
      const answer = readServiceAnswer("DebitRegularType", raw);
      const rd = answer.resultData;
      const verdict = judge("DebitRegularType", answer, {
        amount: request.amount,
        currency: request.currency,
        reference: request.reference,
      });
      const ref = rd ? text(rd.PelecardTransactionId) || text(rd.TransactionId) : "";
      if (verdict.statusCode === "000" && !ref) {
        throw new ProviderError(
          "Pelecard DebitRegularType: success without a transaction id",
          "invalid-answer",
        );
      }
      return toResult(ref, verdict, rd);
    },

    terminalSale,
  };
}

/**
 * The language of Pelecard's page for ours: Hebrew, Russian, English for the rest (§1.2).
 *
 * @example
 * ```ts
 * pageLanguage("he"); // "HE"
 * pageLanguage("pt"); // "EN"
 * ```
 */
export function pageLanguage(lang: Lang): "HE" | "RU" | "EN" {
  return lang === "he" ? "HE" : lang === "ru" ? "RU" : "EN";
}

/**
 * Masks a card number to first six and last four digits; already-masked input is kept.
 *
 * @example
 * ```ts
 * maskPan("4580458045804580"); // "458045******4580"
 * maskPan("458045******4580"); // "458045******4580"
 * ```
 */
export function maskPan(pan: string): string {
  const digits = pan.replace(/[\s-]/g, "");
  if (!/^\d{13,19}$/.test(digits)) return pan;
  return `${digits.slice(0, 6)}${"*".repeat(digits.length - 10)}${digits.slice(-4)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Pelecard's values are strings, though numbers turn up (e.g. `ErrCode: 0`). */
function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
}

/** A three-digit status code; numbers are padded (`33` → `"033"`). */
function code(value: unknown): string | null {
  const s = typeof value === "number" && Number.isInteger(value)
    ? String(value).padStart(3, "0")
    : text(value);
  return CODE.test(s) ? s : null;
}

function minor(value: unknown): number | null {
  const s = text(value);
  return /^-?\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : null;
}

function currencyOf(value: unknown): CurrencyCode | null {
  const s = text(value);
  return s === "1" ? 1 : s === "2" ? 2 : null;
}

function outcomeOf(value: unknown): string {
  if (typeof value === "number" || typeof value === "string") return String(value).slice(0, 8);
  if (!isRecord(value)) return "ok";
  if (value.StatusCode !== undefined) return code(value.StatusCode) ?? "?";
  if (isRecord(value.Error)) return `ErrCode ${text(value.Error.ErrCode) || "?"}`;
  return "ok";
}
