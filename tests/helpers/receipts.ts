/**
 * A receipt for tests and benchmarks: an Israeli receipt of the museum, every field set.
 *
 * @module
 */
import type { Receipt } from "../../lib/storage/types.ts";

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
