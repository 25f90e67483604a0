/**
 * What every Pelecard call shares: the logins, the transport (one `post`: JSON over HTTPS, a timeout,
 * redirects refused, one log line), reading the services envelope, the success test, the card
 * fields we keep and the redaction of secrets. The protocol is `shared/payments/PELECARD.md`;
 * section numbers below (§1.6, …) point into it.
 *
 * It lives apart from the provider so that the parts built on it (`pelecard_hosted.ts`,
 * `pelecard_terminal.ts`, the token charges of `pelecard.ts`) import it and never each other.
 * Transport failures and answers that cannot be understood throw {@link ProviderError}; answers
 * Pelecard gives about a payment (declines, mismatches) are results, never exceptions.
 *
 * @module
 */
import type { CurrencyCode } from "@/lib/shared/money.ts";
import type { ResultData } from "@/lib/storage/types.ts";
import { ProviderError, type ProviderResult } from "@/lib/providers/provider.ts";

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
 * How to reach Pelecard: the gateway, the logins, and the transport's settings.
 *
 * @example
 * ```ts
 * const connection: PelecardConnection = {
 *   baseUrl: "https://gateway21.pelecard.biz",
 *   terminal: "1234567",
 *   user: "museum",
 *   password: "…",
 *   tokenTerminal: { terminal: "7654321", user: "museum-token", password: "…" },
 * };
 * ```
 */
export interface PelecardConnection extends PelecardCredentials {
  /** The gateway, e.g. `https://gateway21.pelecard.biz` (https; plain http only for a local simulator). */
  baseUrl: string;
  /** The optional second ("hook") terminal for token charges (§0 credentials, §5). */
  tokenTerminal?: PelecardCredentials;
  /** The terminal PinPad sales run on, when it is not the main one (card-present terminals usually differ). */
  emvTerminal?: PelecardCredentials;
  /** Per call, in milliseconds; 15000 by default. */
  timeoutMs?: number;
  /** For tests. */
  fetch?: typeof fetch;
  /** One line per call: `{ call, ms, outcome }` (and `httpStatus` when not 200), never bodies or credentials. */
  log?: (msg: string, fields: Record<string, unknown>) => void;
}

/**
 * The status code of a result Pelecard approved but that is not the attempt we expected (other
 * amount, currency or reference, or a failed ValidateByUniqueKey). Callers treat it as a failure.
 *
 * @example
 * ```ts
 * if (result.statusCode === PELECARD_MISMATCH) log.error("forged or mismatched payment", { ref: result.providerRef });
 * ```
 */
export const PELECARD_MISMATCH = "MISMATCH";

/** A three-digit status code, as Pelecard writes them. */
export const STATUS_CODE = /^\d{3}$/;

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
 * The plumbing every part of the provider shares, made once per provider by {@link createPelecardKit}.
 *
 * @example
 * ```ts
 * const answer = kit.readServiceAnswer("EmvDebit", await kit.post("EmvDebit", "services/EmvDebit", body, 70_000));
 * ```
 */
export interface PelecardKit {
  /** The gateway's origin: where the hosted page is framed from. */
  origin: string;
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
  /** PaymentGW login fields (`terminal`, `user`, `password`) of the main terminal. */
  gatewayLogin(): { terminal: string; user: string; password: string };
  /** Services login fields of the main, token or EMV terminal. */
  serviceLogin(which: "main" | "token" | "emv"): { terminalNumber: string; user: string; password: string };
  /** The default per-call timeout, in milliseconds. */
  timeoutMs: number;
  log(msg: string, fields: Record<string, unknown>): void;
}

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
 * The kit for a connection. Refuses (TypeError) a `baseUrl` that would send the password over plain
 * HTTP to anything but a local simulator.
 *
 * @example
 * ```ts
 * const kit = createPelecardKit({ baseUrl: "https://gateway21.pelecard.biz", terminal: "1234567", user: "museum", password: "…" });
 * const raw = await kit.post("GetTransaction", "PaymentGW/GetTransaction", { ...kit.gatewayLogin(), TransactionId: guid });
 * ```
 */
export function createPelecardKit(options: PelecardConnection): PelecardKit {
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
    // The deadline's own abort is a timeout; a connection's failure (refused) is unreachable, even
    // when a busy machine reports it after the deadline has passed. A body cut off once the
    // deadline passed is a timeout.
    const transport = (e: unknown, timedOut = e === signal.reason) =>
      timedOut
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
        throw transport(e, signal.aborted);
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

  function serviceLogin(which: "main" | "token" | "emv") {
    const l = which === "token"
      ? options.tokenTerminal ?? main
      : which === "emv"
      ? options.emvTerminal ?? main
      : main;
    return { terminalNumber: l.terminal, user: l.user, password: l.password };
  }

  return {
    origin: base.origin,
    post,
    readServiceAnswer,
    judge,
    publicFields,
    redact,
    gatewayLogin: () => ({ terminal: main.terminal, user: main.user, password: main.password }),
    serviceLogin,
    timeoutMs,
    log,
  };
}

/**
 * The card result fields we keep, without personal data; the card number masked for sure.
 *
 * @example
 * ```ts
 * publicFields({ CreditCardNumber: "4580458045804580", CardHolderID: "000000018" });
 * // { CreditCardNumber: "458045******4580" }
 * ```
 */
export function publicFields(rd: Record<string, unknown> | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!rd) return out;
  for (const field of PUBLIC_FIELDS) {
    if (rd[field] === undefined || rd[field] === null) continue;
    out[field] = field === "CreditCardNumber" ? maskPan(text(rd[field])) : text(rd[field]);
  }
  return out;
}

/**
 * The provider's result for a reference, a verdict of {@link PelecardKit.judge} and the ResultData
 * it was about: the amounts, token and public card fields read from it.
 *
 * @example
 * ```ts
 * return toResult(ref, kit.judge("GetTransaction", answer, { amount }), answer.resultData);
 * ```
 */
export function toResult(
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

/** True for a plain object (Pelecard's envelopes and ResultData). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A Pelecard value as trimmed text: they are strings, though numbers turn up (e.g. `ErrCode: 0`). */
export function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
}

/** A three-digit status code, or null; numbers are padded (`33` → `"033"`). */
export function code(value: unknown): string | null {
  const s = typeof value === "number" && Number.isInteger(value)
    ? String(value).padStart(3, "0")
    : text(value);
  return STATUS_CODE.test(s) ? s : null;
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
