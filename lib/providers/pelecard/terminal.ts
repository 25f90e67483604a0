/**
 * PinPad (EMV) sales through Pelecard's servers.
 *
 * **The contract below is ASSUMED.** No public Pelecard document describes how to start a sale on
 * a physical PinPad (PELECARD.md §3). What is public: the device is addressed by an id through
 * Pelecard's servers (codes 512 PinPad timeout, 516 invalid PINPAD ID, 550 not found, 551 busy,
 * 7xx device results), services named `EmvReversal` / `EmvFinishDebit` exist, and every service
 * shares one envelope. This module keeps that envelope and guesses the rest; get the real
 * "EMV/PinPad" manual from Pelecard support and adjust here (or pass `terminalSale` to
 * `createPelecardProvider`) before taking real money at a terminal.
 *
 * Assumed sale:
 * ```
 * POST {baseUrl}/services/EmvDebit
 * { terminalNumber, user, password,   // the EMV terminal (or the main one)
 *   pinpadId,                         // the device: TerminalSaleRequest.terminalId
 *   shopNumber,                       // "001" unless the kiosk names another
 *   total, currency,                  // minor units; 1 NIS, 2 USD
 *   paramX,                           // our payment id
 *   timeoutSec }                      // how long the device waits for a card
 * → 200 { StatusCode, ErrorMessage,
 *         ResultData: { TransactionId, ShvaResult, VoucherId, PelecardTransactionId, DebitTotal,
 *                       DebitCurrency, CreditCardNumber (masked), DebitApproveNumber, … } | null }
 * ```
 * answered once the card is used, declined, or the device gives up (`512`); a bad or unknown
 * device answers `516` / `550` at once, a busy one `551`.
 *
 * Assumed reversal, used whenever we stop waiting or cannot read the answer, so that nothing stays
 * charged that we did not record:
 * ```
 * POST {baseUrl}/services/EmvReversal
 * { terminalNumber, user, password, paramX }
 * → 200 { StatusCode: "000" | "226", … }   // nothing stays charged for paramX (also when nothing was)
 * ```
 * (Public notes name `Uid` / `DebitTrxId` as its keys; we only know `paramX` when the sale never
 * answered, so the reversal by `paramX` is part of the assumption.)
 *
 * @module
 */
import { PELECARD_MISMATCH, type PelecardKit, type ServiceAnswer } from "./protocol.ts";
import { ProviderError, type TerminalResult, type TerminalSaleRequest } from "@/lib/providers/provider.ts";

/**
 * What the terminal sale needs from the provider.
 *
 * @example
 * ```ts
 * const options: PelecardTerminalOptions = { kit, marginMs: 10_000 };
 * ```
 */
export interface PelecardTerminalOptions {
  /** Transport, envelope reading and the success test (`pelecard_protocol.ts`), shared with the provider. */
  kit: PelecardKit;
  /** How long past the device's deadline we wait for Pelecard's own (512) answer. */
  marginMs: number;
}

/** Reversal answers that mean nothing stays charged: OK, and "transaction cancelled successfully". */
const REVERSED = new Set(["000", "226"]);

/**
 * A `terminalSale` for {@link PelecardTerminalOptions} under the assumed contract above.
 *
 * The HTTP wait is `deadlineMs + marginMs`: the device gets `deadlineMs` to read a card and
 * Pelecard should answer 512 itself by then. When we stop waiting, or the answer is unreadable, or
 * Pelecard approved something other than what we asked, we call `EmvReversal` before answering.
 *
 * @example
 * ```ts
 * const sale = createPelecardTerminalSale({ kit, marginMs: 10_000 });
 * const result = await sale({
 *   terminalId: "PP-1", shopNumber: "001", amount: 2000, currency: 1, reference: "pay_1",
 *   language: "he", deadlineMs: 60_000,
 * });
 * result.StatusCode; // "000", a decline code, or "512" when the terminal did not answer in time
 * ```
 */
export function createPelecardTerminalSale(
  options: PelecardTerminalOptions,
): (request: TerminalSaleRequest) => Promise<TerminalResult> {
  const { kit, marginMs } = options;

  /** True when Pelecard confirmed nothing stays charged for the reference. */
  async function reverse(reference: string): Promise<boolean> {
    // Two tries: a lost reversal means money taken that we did not record.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const raw = await kit.post("EmvReversal", "services/EmvReversal", {
          ...kit.serviceLogin("emv"),
          paramX: reference,
        });
        return REVERSED.has(kit.readServiceAnswer("EmvReversal", raw).statusCode);
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
      }
    }
    return false;
  }

  return async function terminalSale(request: TerminalSaleRequest): Promise<TerminalResult> {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) {
      throw new TypeError("amount must be a positive integer in minor units");
    }
    if (!(request.deadlineMs > 0)) throw new TypeError("deadlineMs must be positive");
    const body = {
      ...kit.serviceLogin("emv"),
      pinpadId: request.terminalId,
      shopNumber: request.shopNumber || "001",
      total: request.amount,
      currency: request.currency,
      paramX: request.reference,
      timeoutSec: Math.max(1, Math.ceil(request.deadlineMs / 1000)),
    };
    let answer: ServiceAnswer;
    try {
      answer = kit.readServiceAnswer(
        "EmvDebit",
        await kit.post("EmvDebit", "services/EmvDebit", body, request.deadlineMs + marginMs),
      );
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      // The sale may have gone through on the device even though we have no readable answer.
      const reversed = await reverse(request.reference);
      if (e.code === "timeout") {
        return envelope(
          "512",
          reversed
            ? "The terminal did not answer in time; nothing was charged"
            : `The terminal did not answer in time and the cancellation was not confirmed; check the terminal's report for reference ${request.reference} before charging again`,
          {},
        );
      }
      throw new ProviderError(
        `${e.message}; ${reversed ? "reversed, nothing was charged" : "the reversal was not confirmed"}`,
        e.code,
      );
    }
    const verdict = kit.judge("EmvDebit", answer, {
      amount: request.amount,
      currency: request.currency,
      reference: request.reference,
    });
    const fields = kit.publicFields(answer.resultData);
    if (verdict.statusCode === PELECARD_MISMATCH) {
      // Pelecard approved a charge, but not the one asked (other amount, currency or reference):
      // undo it rather than keep money we record as failed.
      const reversed = await reverse(request.reference);
      const note = reversed ? "reversed" : "the reversal was not confirmed; check the terminal's report";
      return envelope(verdict.statusCode, `${verdict.errorMessage}; ${note}`, fields);
    }
    return envelope(verdict.statusCode, verdict.errorMessage ?? "", fields);
  };
}

function envelope(statusCode: string, errorMessage: string, fields: Record<string, string>): TerminalResult {
  return {
    StatusCode: statusCode,
    ErrorMessage: errorMessage,
    ResultData: {
      ...fields,
      TransactionId: fields.TransactionId ?? "",
      ShvaResult: fields.ShvaResult ?? "",
      VoucherId: fields.VoucherId ?? "",
      PelecardTransactionId: fields.PelecardTransactionId ?? "",
    },
  };
}
