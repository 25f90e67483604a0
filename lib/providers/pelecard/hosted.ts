/**
 * Pelecard's hosted payment page (`PaymentGW/*`): starting it (`init`), reading where the payer comes
 * back and what the server-side notification names, and verifying the result with Pelecard itself
 * (`GetTransaction`, then `ValidateByUniqueKey`), never from what the browser's query string claims.
 * Section numbers (§1.2, …) point into `shared/payments/PELECARD.md`.
 *
 * Interpretations worth knowing (each also noted where it is coded):
 * - GetTransaction answering 510 ("Data not exist") is `pending`: the payer has not finished, or
 *   the GUID is not one of ours; either way there is nothing to record.
 * - GetTransaction answering a "try again" code (`TRY_AGAIN`) without the transaction's record
 *   is a `ProviderError`: the question failed, not the payment.
 * - `ShvaResultEmv` 041/042 are not failures (see `judge` in `pelecard_protocol.ts`).
 *
 * @module
 */
import type { Lang } from "@/lib/shared/languages.ts";
import {
  code,
  isRecord,
  PELECARD_MISMATCH,
  type PelecardKit,
  STATUS_CODE,
  text,
  toResult,
} from "./protocol.ts";
import {
  type HostedPaymentRequest,
  type HostedPaymentSession,
  type PaymentProvider,
  ProviderError,
  type ProviderResult,
} from "@/lib/providers/provider.ts";

/** The hosted-page part of the provider interface. */
export type PelecardHostedPage = Pick<
  PaymentProvider,
  "startHostedPayment" | "readReturn" | "readNotification" | "verifyPayment"
>;

/** Pelecard's "Data not exist": the transaction is unknown (yet). */
const NO_DATA = "510";

/**
 * Codes whose meaning is "could not do it now, try again" (status-codes.json: no communication,
 * terminal updating, system not ready, clearing unavailable, general error — repeat). Answered to
 * GetTransaction without the transaction's record, they are about the question, not the payment.
 */
const TRY_AGAIN = new Set(["009", "306", "500", "515", "596", "599", "760"]);

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The hosted page's calls, on a kit.
 *
 * @example
 * ```ts
 * const hosted = createPelecardHostedPage(createPelecardKit(connection));
 * const session = await hosted.startHostedPayment({
 *   paymentId: "p1", userKey: "k1", amount: 10000, currency: 1, language: "he", tokenize: false,
 *   returnUrl: "https://donate.museum.org/payments/return/p1", notifyUrl: "https://donate.museum.org/api/payment/notify/pelecard",
 * });
 * ```
 */
export function createPelecardHostedPage(kit: PelecardKit): PelecardHostedPage {
  const { post, readServiceAnswer, judge, redact, log } = kit;
  return {
    async startHostedPayment(request: HostedPaymentRequest): Promise<HostedPaymentSession> {
      // A fractional amount is a bug upstream; a zero one is Pelecard's to refuse (205).
      if (!Number.isSafeInteger(request.amount)) {
        throw new TypeError("amount must be an integer in minor units");
      }
      const body = {
        ...kit.gatewayLogin(),
        GoodURL: request.returnUrl,
        ErrorURL: request.returnUrl,
        CancelURL: request.returnUrl,
        // Monthly giving is still J4: the first month is charged now and the card tokenized with it.
        // A card update is J2 (§1.2): the card is checked and tokenized, nothing is charged.
        ActionType: request.checkOnly ? "J2" : "J4",
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
      if (url.origin !== kit.origin) {
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
        statusCode: STATUS_CODE.test(status) ? status : null,
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
        ...kit.gatewayLogin(),
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

      // JParam tells a J2 check (nothing charged) from a J4 charge (§1.7): a card update must not
      // have charged, and a donation must have.
      const jParam = text(rd!.JParam);
      if (jParam && (jParam === "2") !== (expected.checkOnly === true)) {
        return mismatch(
          `Pelecard answered JParam ${jParam} for a ${expected.checkOnly ? "J2 check" : "charge"}`,
        );
      }
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
