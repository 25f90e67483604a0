/**
 * The storage contract for card-update attempts (`store.cardUpdates`, issue 15): a signed-in donor
 * replaces the card of a monthly gift through the provider's hosted page in tokenization mode. Each
 * attempt is stored before the provider is asked, so the donor's return and the provider's
 * notification (found by the provider's reference) can be verified with the provider against what
 * was started, and applied once: an attempt moves from `open` to a final state exactly once.
 *
 * Types only; the canonical form both backends store is in `card_update_records.ts`.
 *
 * @module
 */

/** Where an attempt stands: `open` until verified with the provider, then final. */
export type CardUpdateStatus = "open" | "applied" | "declined" | "failed";

/** One attempt to replace a monthly gift's card. */
export interface CardUpdate {
  /** Random id: our reference at the provider (Pelecard `ParamX`) and the return address's key. */
  id: string;
  /** The monthly gift whose card is replaced. */
  subscriptionId: string;
  /** The donor records the signed-in donor could act for when starting it (ownership, again at apply). */
  donorIds: string[];
  /** The provider (`sandbox`, `pelecard`). */
  provider: string;
  /** The provider's id of the hosted page (set once the page is started), or null. */
  providerRef: string | null;
  /** Random key of this attempt (Pelecard `UserKey`), checked by the provider's validation. */
  userKey: string;
  /** The provider's confirmation key (Pelecard `ConfirmationKey`) when it gave one. */
  confirmationKey: string | null;
  /** The page's language (one of the five), for the return and the email. */
  language: string;
  status: CardUpdateStatus;
  /** The provider's status code once final ("000" when applied), else null. */
  statusCode: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
}

/** Card-update attempts. */
export interface CardUpdateRepository {
  /** Stores a new attempt (status `open`, no provider ref yet); an id already stored throws. */
  create(update: CardUpdate): Promise<void>;
  /** The attempt as stored, or null. */
  get(id: string): Promise<CardUpdate | null>;
  /** The attempt the provider knows as `providerRef` (set by {@link setProviderRef}), or null. */
  getByProviderRef(provider: string, providerRef: string): Promise<CardUpdate | null>;
  /**
   * Records the started page's reference and confirmation key on an `open` attempt that has none
   * yet; answers the attempt as stored, or null (nothing written) when unknown, final, or set already.
   */
  setProviderRef(
    id: string,
    providerRef: string,
    confirmationKey: string | null,
    updatedAt: string,
  ): Promise<CardUpdate | null>;
  /**
   * Moves an `open` attempt to its final `status` with the provider's `statusCode`. Of any number of
   * concurrent calls (on any instances) exactly one moves it; answers the attempt as stored and
   * whether this call moved it (false: it was final already, or unknown → null).
   */
  finish(
    id: string,
    status: Exclude<CardUpdateStatus, "open">,
    statusCode: string | null,
    updatedAt: string,
  ): Promise<{ update: CardUpdate; moved: boolean } | null>;
  /**
   * Reconciliation: the `open` attempts created before `createdBefore` (ISO), oldest first, at most
   * `limit` (1..1,000); work in proportion to the answer (final attempts are not read).
   */
  listOpen(createdBefore: string, limit: number): Promise<CardUpdate[]>;
  /**
   * A gift's card-update history: its attempts, oldest first (by `createdAt`, then id), whatever
   * their state, at most `limit` (1..1,000); work in proportion to the answer (an index by gift).
   */
  listBySubscription(subscriptionId: string, limit: number): Promise<CardUpdate[]>;
}
