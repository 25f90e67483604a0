/**
 * Receipts for tests and benchmarks: an Israeli receipt of the museum, every field set, and a US
 * receipt of the Friends organisation; and a receipt's PDF, drawn as the app draws it, by a receipt
 * worker.
 *
 * @module
 */
import type { ReceiptPdfOptions } from "@/lib/receipts/pdf.ts";
import { ReceiptPdfPool } from "@/lib/receipts/pdf_pool.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Receipt } from "@/lib/storage/types.ts";

/** The receipt, with `overrides`. */
export function receiptFixture(overrides: Partial<Receipt> = {}): Receipt {
  return {
    id: "q2V0bUoHx3f1k8Zr0aTQ9w_L",
    series: "IL-2026",
    sequence: 123,
    number: "IL-2026-000123",
    transactionId: "tx1",
    donorId: "d1",
    email: "ada@example.com",
    issuedAt: "2026-05-10T08:00:00.000Z",
    giftDate: "2026-05-09T08:00:00.000Z",
    donorName: "Ada Lovelace",
    donorTaxId: "000000018",
    amount: 18_050,
    currency: "ILS",
    isMonthly: false,
    paymentMethod: "card",
    cardLast4: "4580",
    reportNumber: null,
    issuer: {
      organization: "museum",
      legalName: "Example Museum Association",
      address: "1 Museum Road, Jerusalem",
      nonprofitNumber: "580000000",
      section46Approval: "4567",
      section46ValidUntil: "2026-12-31",
      ein: null,
    },
    ...overrides,
  };
}

/** A USD receipt of the museum's US Friends organisation (EIN, no Israeli ID, card unknown), with `overrides`. */
export function usReceiptFixture(overrides: Partial<Receipt> = {}): Receipt {
  return receiptFixture({
    number: "US-2026-000007",
    series: "US-2026",
    currency: "USD",
    amount: 25_000,
    donorTaxId: null,
    cardLast4: null,
    issuer: {
      organization: "friends",
      legalName: "American Friends of the Example Museum, Inc.",
      address: "1 Broadway, New York, NY",
      nonprofitNumber: null,
      section46Approval: null,
      section46ValidUntil: null,
      ein: "12-3456789",
    },
    ...overrides,
  });
}

/** The level a membership receipt fixture was at: Family, as a museum might name it in every language. */
export const FAMILY_LEVEL = { en: "Family", he: "משפחה", ru: "Семья", pt: "Família", es: "Familia" };

/**
 * A receipt of a gift at a membership level: a US one (benefits worth $40 of a $250 payment) or an
 * Israeli one (60% of ₪180.50 a donation), with `overrides`.
 */
export function membershipReceiptFixture(country: "us" | "il", overrides: Partial<Receipt> = {}): Receipt {
  return country === "us"
    ? usReceiptFixture({
      membership: {
        levelId: 3,
        levelName: FAMILY_LEVEL,
        benefitsValue: 4_000,
        donationShare: 100,
        donation: 21_000,
      },
      ...overrides,
    })
    : receiptFixture({
      membership: {
        levelId: 3,
        levelName: FAMILY_LEVEL,
        benefitsValue: 0,
        donationShare: 60,
        donation: 10_830,
      },
      ...overrides,
    });
}

let pool: ReceiptPdfPool | null = null;

/**
 * The receipt's PDF, drawn by a receipt worker (one pool for the test process: its worker starts
 * with the first receipt and ends with the process).
 *
 * @example
 * ```ts
 * const pdf = await drawReceiptPdf(receiptFixture(), "he", { verifyUrl });
 * ```
 */
export function drawReceiptPdf(
  receipt: Receipt,
  language: Lang,
  options: ReceiptPdfOptions,
): Promise<Uint8Array> {
  pool ??= new ReceiptPdfPool({ workers: 1 });
  return pool.render(receipt, language, options);
}
