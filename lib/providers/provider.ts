/**
 * The payment provider interface: everything the product asks of a card processor. Two
 * implementations: `sandbox.ts` (the default: a local hosted card page and a simulated terminal,
 * so every flow runs end to end with no account anywhere) and `pelecard.ts` (the real gateway,
 * per `../shared/payments/PELECARD.md`). `PAYMENT_PROVIDER` chooses.
 *
 * Rules every implementation keeps:
 * - Amounts are integers in minor units; currencies are codes 1 (NIS) and 2 (USD).
 * - A result is only ever taken from the provider itself (`verifyPayment`), never from what a
 *   browser's query string claims.
 * - Every call has a timeout; a transport failure or an answer that cannot be understood throws
 *   {@link ProviderError}, and the caller records nothing as paid.
 * - No card number, CVV or credential is logged or stored; only masked numbers and tokens.
 *
 * @module
 */
import type { Lang } from "@/lib/shared/languages.ts";
import type { CurrencyCode } from "@/lib/shared/money.ts";
import type { ResultData } from "@/lib/storage/types.ts";

/** The provider could not be reached or answered something unusable. Nothing was paid. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: "unreachable" | "timeout" | "invalid-answer" | "refused" = "unreachable",
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** What starting a hosted-page payment needs. */
export interface HostedPaymentRequest {
  /** Our payment id; sent as the merchant reference (Pelecard `ParamX`) and echoed back. */
  paymentId: string;
  /** A random key unique to this attempt (Pelecard `UserKey`), used to validate the result. */
  userKey: string;
  amount: number;
  currency: CurrencyCode;
  language: Lang;
  /** Monthly giving: ask the provider for a reusable card token. */
  tokenize: boolean;
  /**
   * Check the card and tokenize it without charging it (Pelecard's J2): the donor portal's card
   * update. `amount` is then only the check's nominal total, never charged.
   */
  checkOnly?: boolean;
  /** Absolute URL the browser returns to (success, error and cancel alike). */
  returnUrl: string;
  /** Absolute URL for the provider's server-to-server notification. */
  notifyUrl: string;
}

/** A started hosted-page payment. */
export interface HostedPaymentSession {
  /** The page to show in the payment frame. */
  url: string;
  /** The provider's id of this payment (Pelecard's transaction GUID). */
  providerRef: string;
  /** Pelecard's ConfirmationKey, kept for validation when the provider gives one. */
  confirmationKey: string | null;
}

/** The provider's authoritative account of one payment or charge. */
export interface ProviderResult {
  providerRef: string;
  /** "000" is success; anything else is the provider's status code. */
  statusCode: string;
  errorMessage: string | null;
  /** What the provider says was charged (minor units), when it says. */
  amount: number | null;
  currency: CurrencyCode | null;
  /** Our reference echoed back (the payment id), when present. */
  reference: string | null;
  /** The reusable card token, when one was created. */
  token: string | null;
  /** Card result fields (masked card number, CreditType, DebitTotal, VoucherId, ShvaResult, …). */
  resultData: ResultData | null;
  /** True when the payment is not finished yet: there is nothing to record (yet). */
  pending?: boolean;
}

/** The result of a terminal (EMV) sale, in the envelope of spec section 3 "Terminal feedback". */
export interface TerminalResult {
  StatusCode: string;
  ErrorMessage: string;
  ResultData: {
    TransactionId: string;
    ShvaResult: string;
    VoucherId: string;
    PelecardTransactionId: string;
    [field: string]: unknown;
  };
}

/** What a terminal sale needs. */
export interface TerminalSaleRequest {
  /** The terminal (PinPad) serving the shop. */
  terminalId: string;
  shopNumber: string;
  amount: number;
  currency: CurrencyCode;
  /** Our payment id, as the merchant reference. */
  reference: string;
  language: Lang;
  /** Give up (and make sure nothing is charged) after this many milliseconds. */
  deadlineMs: number;
}

/** What a refund (a credit to the card of an earlier payment) needs. */
export interface RefundRequest {
  /** The provider's id of the refunded payment (the transaction's `providerTransactionId`). */
  providerRef: string;
  /**
   * The card token the payment was charged with (the transaction's `cardToken`), or null for a
   * payment made without one: the money goes back through it, and only it (issue 23). Pelecard
   * credits a card only through its token (`DebitRegularType` with a negative total, §2.5).
   */
  token: string | null;
  /** Minor units to give back, > 0. */
  amount: number;
  currency: CurrencyCode;
  /** Our refund id, as the merchant reference. */
  reference: string;
}

/** The interface. */
export interface PaymentProvider {
  /** `sandbox` or `pelecard`. */
  readonly id: "sandbox" | "pelecard";
  /**
   * The name result query parameters carry (spec: the provider's name followed by
   * `TransactionId` / `StatusCode`), e.g. `Pelecard` → `PelecardTransactionId`.
   */
  readonly displayName: string;
  /** Origins the payment frame loads from, for the CSP `frame-src`. */
  readonly frameOrigins: string[];
  /**
   * Whether `refund` can credit a payment made without a card token, by the payment's own
   * reference (always to the card that paid it). Pelecard cannot: such a gift is refunded in its
   * back office.
   */
  readonly refundsWithoutToken: boolean;

  /** Starts a hosted-page payment and answers the page to frame. */
  startHostedPayment(request: HostedPaymentRequest): Promise<HostedPaymentSession>;
  /** Reads the provider's reference (and claimed status) from the browser's return parameters. */
  readReturn(params: URLSearchParams): { providerRef: string | null; statusCode: string | null };
  /** Reads the provider's reference from a server-to-server notification body. */
  readNotification(body: unknown): { providerRef: string | null };
  /**
   * Asks the provider for the authoritative result of a hosted payment and checks it belongs to
   * the attempt (`userKey`, `confirmationKey`, amount, and a check-only page for `checkOnly`: a
   * charge where a check was started, or the reverse, is a mismatch). A mismatch answers a non-"000"
   * result.
   */
  verifyPayment(
    providerRef: string,
    expected: { userKey: string; amount: number; confirmationKey: string | null; checkOnly?: boolean },
  ): Promise<ProviderResult>;
  /** Charges a stored card token (monthly giving). */
  chargeToken(
    request: { token: string; amount: number; currency: CurrencyCode; reference: string },
  ): Promise<ProviderResult>;
  /**
   * Finds a token charge by the reference it was sent with, or null when the provider has none:
   * how billing learns what happened to a charge whose pass died midway. Optional; without it such
   * a charge is left for a person to check.
   */
  lookupCharge?(reference: string): Promise<ProviderResult | null>;
  /**
   * Gives `amount` back to the card of an earlier payment. Answers the provider's result ("000":
   * credited; its `providerRef` is the credit's id); throws {@link ProviderError} when the provider
   * cannot be reached, answers nonsense or cannot credit this payment at all (`refused`).
   */
  refund(request: RefundRequest): Promise<ProviderResult>;
  /** Runs a sale on a physical terminal and waits for its result, up to the deadline. */
  terminalSale(request: TerminalSaleRequest): Promise<TerminalResult>;
  /**
   * Finds the terminal sale sent with `reference` (our payment id): its result once finished
   * (a sale past its deadline is closed and answered as timed out), `"waiting"` while the terminal
   * still waits for the card, or null when no sale reached the provider. How a retried kiosk
   * donation learns what happened to an attempt whose request died midway. Optional; without it
   * such an attempt blocks its retries for the dedupe window.
   */
  lookupTerminalSale?(reference: string): Promise<TerminalResult | "waiting" | null>;
}

/**
 * Builds the provider for a public origin (the sandbox's pages live on our origin). The app keeps one
 * in its services (`Services.providerFor`); `mod.ts` makes it from the configuration.
 */
export type ProviderFactory = (origin: string) => PaymentProvider;
