/**
 * The yearly statement's job: in January, one `yearly-statement` message per email address that
 * gave in the past calendar year (UTC), to the donor record of the address's latest gift, in the
 * language of that gift. Safe to run on every instance, every day of January, and twice: each
 * message's key is `yearly:${year}:${email}`, which the outbox stores once, ever. The message is a
 * bare intent; what the statement lists is read when it is sent (`templates/statements.ts`).
 *
 * Reads the success list newest first in batches, from this year's start back to the past
 * year's: work in proportion to the past year's transactions.
 *
 * @module
 */
import type { EnqueueMessage } from "@/lib/donor_portal/mod.ts";
import { FALLBACK_LANG, isLang } from "@/lib/shared/languages.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";

/** Transactions read per storage call. */
const BATCH = 1_000;

/** The key of an address's statement for a year. */
export function yearlyStatementKey(year: number, email: string): string {
  return `yearly:${year}:${email.trim().toLowerCase()}`;
}

/** The language of a gift: its online payment's, else the donor's monthly gift's, else English. */
async function languageOf(
  store: Pick<Store, "payments" | "subscriptions">,
  tx: Transaction,
): Promise<string> {
  const payment = tx.providerTransactionId
    ? await store.payments.getByProviderRef(tx.provider, tx.providerTransactionId)
    : null;
  const language = payment?.language ?? (await store.subscriptions.listByDonor(tx.donorId))[0]?.language;
  return isLang(language) ? language : FALLBACK_LANG;
}

/**
 * Enqueues the past year's statements when `now` is in January (UTC); answers how many addresses
 * got one enqueued (0 outside January). The outbox's enqueue is injected.
 *
 * @example
 * ```ts
 * await enqueueYearlyStatements({ store, enqueue: (m) => store.outbox.enqueue(m) });
 * ```
 */
export async function enqueueYearlyStatements(
  deps: { store: Pick<Store, "transactions" | "payments" | "subscriptions">; enqueue: EnqueueMessage },
  now: Date = new Date(),
): Promise<number> {
  if (now.getUTCMonth() !== 0) return 0;
  const year = now.getUTCFullYear() - 1;
  const from = new Date(Date.UTC(year, 0, 1)).toISOString();
  const to = new Date(Date.UTC(year + 1, 0, 1)).toISOString();
  // Newest first: the first gift seen of an address is its latest, whose donor record and language win.
  const latest = new Map<string, Transaction>();
  let before: string | null = null;
  scan: do {
    const batch = await deps.store.transactions.scan({ kind: "success", before, limit: BATCH });
    for (const tx of batch.data) {
      if (tx.createdAt < from) break scan;
      const email = tx.user.email.trim().toLowerCase();
      if (tx.createdAt < to && email && !latest.has(email)) latest.set(email, tx);
    }
    before = batch.next;
  } while (before !== null);
  for (const [email, tx] of latest) {
    await deps.enqueue({
      key: yearlyStatementKey(year, email),
      kind: "yearly-statement",
      to: { donorId: tx.donorId },
      language: await languageOf(deps.store, tx),
      data: { year },
    });
  }
  return latest.size;
}
