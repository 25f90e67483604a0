/**
 * What the public verification page confirms about a receipt: its number, date and amount, and who
 * issued it; nothing about the donor. A code whose signature is wrong, or that names no receipt,
 * confirms nothing.
 *
 * @module
 */

import type { Store } from "@/lib/storage/types.ts";
import { TIME_ZONES } from "./format.ts";
import { readReceiptCode } from "./verify_code.ts";

/** The receipt as the verification page shows it. */
export interface VerifiedReceipt {
  number: string;
  /** ISO 8601. */
  issuedAt: string;
  /** Minor units. */
  amount: number;
  currency: "ILS" | "USD";
  /** The issuing organisation's legal name. */
  issuer: string;
  /** The time zone the receipt's date is written in (its issuer's). */
  timeZone: string;
}

/**
 * The receipt a verification code names, when its signature is valid; null otherwise.
 *
 * @example
 * ```ts
 * const found = await verifyReceipt(store, config.appSecret, url.searchParams.get("c"));
 * ```
 */
export async function verifyReceipt(
  store: Store,
  appSecret: string,
  code: string | null,
): Promise<VerifiedReceipt | null> {
  const id = readReceiptCode(appSecret, code);
  if (id === null) return null;
  const receipt = await store.receipts.get(id);
  if (!receipt) return null;
  return {
    number: receipt.number,
    issuedAt: receipt.issuedAt,
    amount: receipt.amount,
    currency: receipt.currency,
    issuer: receipt.issuer.legalName,
    timeZone: TIME_ZONES[receipt.issuer.organization],
  };
}
