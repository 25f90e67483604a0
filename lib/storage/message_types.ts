/**
 * What the product says to people, as data: the kinds of message, what each carries, and the
 * shape of a message once rendered for sending. Types only, shared by the outbox (which stores and
 * sends messages), the domain code that enqueues them with their cause, and the renderers.
 *
 * A message is stored as an intent (its kind, recipient and a few ids), not as rendered text: it is
 * rendered when it is sent, from what storage holds then, so an erased donor's queued emails stop
 * and a receipt's PDF carries the number issued for it.
 *
 * @module
 */

/** Every kind of message, and the data each one carries (ids and figures, never rendered text). */
export interface MessageData {
  /** A successful gift's receipt: one-time, or one monthly charge (`transaction.isMonthly`). */
  "receipt": { transactionId: string };
  /** A new monthly gift: thanks, its amount and next charge date, and the manage link. */
  "monthly-welcome": { subscriptionId: string };
  /** A monthly charge was declined: what happens next (`retryAt`, or null when the gift stopped). */
  "charge-failed": { subscriptionId: string; transactionId: string; retryAt: string | null };
  /** The donor's monthly gifts were cancelled (`at`, ISO 8601). */
  "monthly-cancelled": { at: string };
  /** January: everything the donor gave in `year` (gifts found by the donor's email address). */
  "yearly-statement": { year: number };
  /** A new manage link, asked for from an expired one's page. */
  "manage-link": Record<string, never>;
  /** To the approved admins: an account is awaiting approval. */
  "admin-pending": { adminId: string };
  /**
   * A donor portal sign-in link (`lib/donor_portal/sign_in.ts`): only the link's id; the renderer signs
   * it into the token, so no usable token is stored in the outbox.
   */
  "sign-in-link": { signInId: string };
  /**
   * The donor changed a monthly gift (issue 15): what changed, and the gift as it now stands (its
   * amount in minor units and the next charge date, the resume date of a pause).
   */
  "monthly-changed": {
    subscriptionId: string;
    change: "amount" | "pause" | "skip" | "resume";
    amount: number;
    currency: 1 | 2;
    nextPaymentDate: string;
  };
  /**
   * The donor replaced a monthly gift's card (issue 15, `lib/monthly_gifts/card_update.ts`): the new
   * card's last four digits, and the gift as it stood then (amount in minor units, next charge date).
   */
  /**
   * The museum gave money back on a gift (issue 16, `lib/refunds/refunds.ts`): the refund, read at
   * send time, with its credit receipt (referencing the gift's receipt) attached.
   */
  "refund": { transactionId: string; refundId: string };
  /**
   * A renewal reminder (issue 27, `lib/memberships/renewals.ts`): the membership of `email` ends at
   * `end`, in `days` days. Skipped when sent if the membership is gone, ended elsewhere (renewed) or
   * a monthly gift keeps it.
   */
  "membership-reminder": { email: string; end: string; days: number };
  /** The membership of `email` that ended at `end` lapsed (its grace is over); skipped as above. */
  "membership-lapsed": { email: string; end: string };
  /** One win-back email, 30 days after the membership of `email` (ended at `end`) lapsed. */
  "membership-winback": { email: string; end: string };
  /**
   * 7 days before the membership of `email` is renewed automatically at its end `end` (issue 27,
   * `lib/memberships/renewals.ts`): the amount, date and card, and the link that turns it off.
   * Skipped when sent if auto-renewal is off by then or the end moved.
   */
  "membership-autorenew-notice": { email: string; end: string };
  /**
   * An automatic renewal charge of the membership of `email` (ending `end`) was declined
   * (`lib/monthly_gifts/auto_renewal.ts`): when it is tried again (`retryAt`), or null when
   * auto-renewal stopped; with the link to renew by hand.
   */
  "membership-autorenew-failed": {
    email: string;
    end: string;
    transactionId: string;
    retryAt: string | null;
  };
  /**
   * A gift at a membership level was recorded (issue 27, `lib/memberships/messages.ts`): enqueued
   * with every such transaction; the renderer reads the membership's term of `transactionId` when
   * it sends: a join is welcomed with the card(s) attached, a renewal or an upgrade says until when
   * the membership now runs (cards attached), a monthly charge after the first and a membership
   * gone (erased) send nothing.
   */
  "membership": { email: string; transactionId: string };
  /** Staff resent a member's card(s) (`POST /api/memberships/{number}/resend-card`). */
  "member-card": { email: string };
  /**
   * A gift membership's welcome with the card (issue 28), to the recipient on the delivery date
   * (`notBefore`): the membership of `email`, the term of `transactionId` (its gift names the giver).
   * Skipped when sent if the membership or its term is gone (erased, refunded).
   */
  "gift-membership-delivery": { email: string; transactionId: string };
  "card-updated": {
    subscriptionId: string;
    last4: string | null;
    amount: number;
    currency: 1 | 2;
    nextPaymentDate: string;
  };
}

export type MessageKind = keyof MessageData;

/** Who a message goes to: a donor (address read at send time) or the museum's approved admins. */
export type Recipient = { donorId: string } | { admins: true };

/** A message to enqueue, in the same atomic step as its cause. */
export interface MessageInput<K extends MessageKind = MessageKind> {
  /**
   * The idempotency key: the same key is stored once, ever (e.g. `receipt:${transactionId}`).
   * Also the id of the stored message.
   */
  key: string;
  kind: K;
  to: Recipient;
  /** The recipient's language (one of the five); admins' messages use the language given. */
  language: string;
  data: MessageData[K];
  /**
   * ISO 8601: not sent before then (a gift membership's delivery date, issue 28); the outbox queues
   * it due at the later of this and its cause's time. Not kept once stored: `dueAt` says it.
   */
  notBefore?: string;
}

/** A file attached to a message. */
export interface Attachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** A message rendered for one recipient, ready for the transport. */
export interface RenderedMessage {
  /** One or more addresses. */
  to: string[];
  subject: string;
  html: string;
  text: string;
  attachments: Attachment[];
  /** `rtl` for Hebrew: the transport may not need it, the dev mailbox does. */
  dir: "ltr" | "rtl";
  language: string;
}
