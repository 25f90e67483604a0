/**
 * Reconciliation: online payments the donor may have paid although nothing told us.
 *
 * A hosted-page payment is normally recorded within seconds of paying, by the donor's return
 * (`routes/payments/return/[paymentId].ts`) or the provider's server notification. When both are
 * lost (the app down or unreachable at that moment, the donor closing the tab) the card was
 * charged and the payment stays `pending`: a donation missing from the back office. A pass here
 * asks the provider about such payments through the same verification and recording as the
 * return route ({@link completePayment}: Pelecard's GetTransaction plus ValidateByUniqueKey, the
 * sandbox's own books), so a payment is recorded once, with its monthly subscription, however the
 * pass, the return and the notification interleave: recording is idempotent per provider
 * transaction, the subscription's id is derived from the payment's.
 *
 * Which payments, and how often:
 * - pending online (and test-terminal) payments created more than {@link RECONCILE_GRACE_MS} ago;
 * - each is asked about again at doubling intervals (15 min, 30 min, 1 h, … after it was created;
 *   `updatedAt` records the last question), so donors who abandoned the page cost a few provider
 *   calls each, not one per pass;
 * - still unknown to the provider {@link RECONCILE_CUTOFF_MS} after it was created, a payment is
 *   marked failed (a warning line asks a person to check it at the provider) and never asked
 *   about again; a late return or notification can still record it, as a failed payment is
 *   verified again (at most once per quarter hour, `completion.ts`), with a warning line;
 * - a provider that cannot be reached leaves the payment pending for the next pass, however old.
 *
 * One pass at a time across instances (a lease, as billing has); two at once would still record
 * each payment once, only asking the provider twice. The pass has the shape every reconciliation
 * pass shares (`pass.ts`).
 *
 * Kiosk (terminal) payments are not reconciled here: a repeat of the donation looks its sale up
 * (`terminal_sales.ts`), and Pelecard offers no look-up of a PinPad sale.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import type { RateLimitSettings } from "@/lib/rate_limits/mod.ts";
import type { Payment, Store } from "@/lib/storage/types.ts";
import { completePayment } from "./completion.ts";
import { runPass } from "@/lib/providers/mod.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";

const MINUTE_MS = 60_000;

/**
 * A payment younger than this is left alone: longer than a donor normally spends on the hosted
 * page, and than the return and the notification take to arrive, so a pass never races a donor
 * who is still typing (a payment still open is only asked about again later, at no harm).
 */
export const RECONCILE_GRACE_MS = 15 * MINUTE_MS;

/**
 * A payment the provider still does not know this long after it was created was abandoned
 * (Pelecard's page session ended long before): it is marked failed and no longer asked about.
 */
export const RECONCILE_CUTOFF_MS = 7 * 24 * 60 * MINUTE_MS;

/** The lease's name and length: a pass renews it before every question to the provider. */
export const RECONCILE_LEASE = "reconcile";
export const RECONCILE_LEASE_MS = 5 * MINUTE_MS;

/** What a pass needs. */
export interface ReconcileContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** This runner's name in the lease (e.g. host and process id). */
  holder: string;
  /** The decline caps' settings: a decline this pass records counts as the return's would. */
  rateLimits?: RateLimitSettings;
  /** Days of grace after a membership's end (`MEMBERSHIP_GRACE_DAYS`); 30 when not given. */
  membershipGraceDays?: number;
  now?: () => Date;
}

/** What a pass did, per payment looked at. */
export interface ReconcileReport {
  /** False when another instance holds the lease (nothing was done). */
  ran: boolean;
  /** Paid, and now recorded (or found recorded by a return or notification meanwhile). */
  recorded: number;
  /** Declined (or a mismatch), recorded as an error transaction. */
  declined: number;
  /** Still unknown or unfinished at the provider: asked again later. */
  pending: number;
  /** Still unknown after {@link RECONCILE_CUTOFF_MS}: marked failed. */
  expired: number;
  /** Never reached the provider's page (the request starting it failed): marked failed. */
  closed: number;
  /** The provider could not be reached: left pending for the next pass. */
  unreachable: number;
  /** Not due for a question in this pass, or not ours to ask about (kiosk, another provider). */
  skipped: number;
  /** False when the pass stopped before the end: at `maxChecks` with more left, or its lease lost. */
  complete: boolean;
}

/** What became of one payment in a pass. */
type Outcome = Exclude<keyof ReconcileReport, "ran" | "complete">;

/**
 * Runs one reconciliation pass and logs one line with its counts (`reconcile pass`).
 *
 * @example Every 15 minutes, next to billing
 * ```ts
 * import { runReconcilePass } from "./reconcile.ts";
 * await runReconcilePass({
 *   store: services.store,
 *   provider: services.providerFor(config.publicUrl ?? "http://localhost:8000"),
 *   log,
 *   holder: `${Deno.hostname()}-${Deno.pid}`,
 * });
 * ```
 */
export async function runReconcilePass(
  ctx: ReconcileContext,
  options: { batch?: number; maxChecks?: number } = {},
): Promise<ReconcileReport> {
  const clock = () => ctx.now?.() ?? new Date();
  const lease = () =>
    ctx.store.leases.acquire(RECONCILE_LEASE, ctx.holder, clock().getTime(), RECONCILE_LEASE_MS);
  const outcomes: Outcome[] = [
    "recorded",
    "declined",
    "pending",
    "expired",
    "closed",
    "unreachable",
    "skipped",
  ];
  if (!await lease()) {
    const none = { recorded: 0, declined: 0, pending: 0, expired: 0, closed: 0, unreachable: 0, skipped: 0 };
    return { ran: false, ...none, complete: true };
  }
  const maxChecks = options.maxChecks ?? 200;
  const now = clock();
  let checks = 0;
  try {
    const { counts, complete } = await runPass({
      name: "reconcile pass",
      log: ctx.log,
      outcomes,
      unreachable: "unreachable",
      // Every pending payment past the grace, however old: those past the cut-off are asked once
      // more, then closed, so none stays pending forever.
      items: pendingPayments(ctx, new Date(now.getTime() - RECONCILE_GRACE_MS), options.batch ?? 100),
      describe,
      async proceed(payment) {
        if (checks >= maxChecks) return false;
        if (!needsProvider(ctx, payment, now)) return true;
        if (!await lease()) {
          ctx.log.warn("reconcile lease lost; stopping this pass", { holder: ctx.holder });
          return false;
        }
        checks++;
        return true;
      },
      each: (payment) => reconcileOne(ctx, payment, now, needsProvider(ctx, payment, now)),
      summary: () => ({ holder: ctx.holder, ran: true }),
    });
    return { ran: true, ...counts, complete };
  } finally {
    await ctx.store.leases.release(RECONCILE_LEASE, ctx.holder);
  }
}

/** The pending payments created before `before`, oldest first, read `batch` at a time. */
async function* pendingPayments(ctx: ReconcileContext, before: Date, batch: number): AsyncGenerator<Payment> {
  const range = { from: new Date(0).toISOString(), to: before.toISOString() };
  let after: Payment | null = null;
  for (;;) {
    const payments: Payment[] = await ctx.store.payments.listPending(range, batch, after);
    yield* payments;
    if (payments.length < batch) return;
    after = payments[payments.length - 1];
  }
}

/** A payment's fields on the pass's log lines. */
const describe = (payment: Payment) => ({
  paymentId: payment.id,
  provider: payment.provider,
  createdAt: payment.createdAt,
  amount: payment.amount,
  currency: payment.currency,
});

/** Whether a payment is ours to ask the provider about in this pass. */
function needsProvider(ctx: ReconcileContext, payment: Payment, now: Date): boolean {
  if (!isHosted(ctx, payment) || !payment.providerRef) return false;
  const created = Date.parse(payment.createdAt);
  const asked = Date.parse(payment.updatedAt);
  if (now.getTime() - created >= RECONCILE_CUTOFF_MS) return true;
  // Doubling intervals: next question once as much time has passed since the last one as had
  // passed from creation to it (at least the grace).
  return now.getTime() >= asked + Math.max(RECONCILE_GRACE_MS, asked - created);
}

/** A hosted-page payment of the current provider: one `completePayment` can verify. */
const isHosted = (ctx: ReconcileContext, payment: Payment) =>
  payment.channel !== "terminal" && payment.provider === ctx.provider.id;

async function reconcileOne(
  ctx: ReconcileContext,
  payment: Payment,
  now: Date,
  asks: boolean,
): Promise<Outcome> {
  const fields = describe(payment);
  if (!isHosted(ctx, payment)) return "skipped";
  if (!payment.providerRef) {
    // Its start failed before the provider answered with a page: the donor never saw one, so
    // nothing can have been charged.
    const closed = await ctx.store.payments.updateIfPending(payment.id, {
      status: "failed",
      updatedAt: now.toISOString(),
    });
    if (!closed) return "skipped";
    ctx.log.warn("payment that never started closed by reconciliation", fields);
    return "closed";
  }
  if (!asks) return "skipped";
  // A provider that cannot be reached throws: the pass counts it `unreachable`, the payment pending.
  const completion = await completePayment(ctx, payment);
  const { outcome } = completion;
  const transactionId = completion.transaction?.id;
  if (outcome === "succeeded") {
    // Warned: the return and the notification both failed for a paid donation.
    ctx.log.warn("paid payment recorded by reconciliation", { ...fields, transactionId });
    return "recorded";
  }
  if (outcome === "failed") {
    ctx.log.info("declined payment recorded by reconciliation", { ...fields, transactionId });
    return "declined";
  }
  if (now.getTime() - Date.parse(payment.createdAt) >= RECONCILE_CUTOFF_MS) {
    const expired = await ctx.store.payments.updateIfPending(payment.id, {
      status: "failed",
      updatedAt: now.toISOString(),
    });
    if (!expired) return "skipped"; // finished meanwhile by a return or notification
    ctx.log.warn(
      "payment still unknown to the provider after 7 days marked failed; check it at the provider",
      {
        ...fields,
        providerRef: payment.providerRef,
      },
    );
    return "expired";
  }
  // Remembered as asked now, which spaces out the next question.
  await ctx.store.payments.updateIfPending(payment.id, { updatedAt: now.toISOString() });
  return "pending";
}
