/**
 * What the back office sees of a gift's refunds (issues 16 and 23): each refund without what staff
 * need not see (its idempotency key, who asked by id), with a reported failure and whether the one
 * asking may confirm it; the gift's sums; and the card a new refund credits, by its last four
 * digits only (the token it goes through never leaves the server).
 *
 * @module
 */
import { NoSuchTransactionError } from "@/lib/receipts/mod.ts";
import type { Admin, Refund, Store } from "@/lib/storage/types.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";
import { refundCardOf, type RefundCardRefusal } from "./refund_card.ts";
import { mayConfirmFailure } from "./refund_outcome.ts";
import { otherProviderMessage } from "./refunds.ts";

/** A refund as the API answers it: without the idempotency key, the actor's id and the reporter's. */
export type PublicRefund = Omit<Refund, "key" | "actorId" | "failureReport"> & {
  /** "It did not go through", recorded by `actorEmail` at `at`, awaiting an owner's confirmation. */
  failureReport: { actorEmail: string; at: string; confirmable: boolean } | null;
};

/**
 * Drops what the API does not answer; `viewer`, when given, is who asks (whether they may confirm
 * a reported failure).
 */
export function publicRefund(
  { key: _key, actorId: _actor, failureReport, ...rest }: Refund,
  viewer?: Pick<Admin, "id" | "role">,
): PublicRefund {
  const report = failureReport ?? null;
  return {
    ...rest,
    failureReport: report === null ? null : {
      actorEmail: report.actorEmail,
      at: report.at,
      confirmable: viewer !== undefined && rest.state === "pending" && mayConfirmFailure(viewer, report),
    },
  };
}

/** The card a new refund of the gift credits: its last four digits, or why it cannot be refunded here. */
export type RefundCardView =
  | { available: true; last4: string | null }
  | { available: false; reason: RefundCardRefusal | "other-provider"; message: string };

/** A gift's refunds as the API answers them. */
export interface RefundList {
  data: PublicRefund[];
  paid: number;
  refunded: number;
  pending: number;
  /** Null for a gift that cannot be refunded at all (a failed payment). */
  card: RefundCardView | null;
}

/**
 * A gift's refunds, oldest first, with what it paid, its refunded and pending sums, and the card a
 * new refund through `provider` credits, as `viewer` sees them.
 *
 * @example
 * ```ts
 * const { data, paid, refunded, card } = await refundsOf(store, provider, admin, "tx_1");
 * ```
 */
export async function refundsOf(
  store: Store,
  provider: Pick<PaymentProvider, "id" | "displayName" | "refundsWithoutToken">,
  viewer: Pick<Admin, "id" | "role">,
  transactionId: string,
): Promise<RefundList> {
  const tx = await store.transactions.get(transactionId);
  if (!tx) throw new NoSuchTransactionError();
  const list = await store.refunds.listByTransaction(transactionId);
  const sum = (state: Refund["state"]) =>
    list.filter((r) => r.state === state).reduce((total, r) => total + r.amount, 0);
  let card: RefundCardView | null = null;
  if (tx.kind === "success") {
    if (tx.provider !== provider.id) {
      card = { available: false, reason: "other-provider", message: otherProviderMessage(tx) };
    } else {
      const found = await refundCardOf(store, provider, tx);
      card = found.available ? { available: true, last4: found.last4 } : found;
    }
  }
  return {
    data: list.map((r) => publicRefund(r, viewer)),
    paid: tx.kind === "success" ? tx.amount ?? 0 : 0,
    refunded: sum("succeeded"),
    pending: sum("pending"),
    card,
  };
}
