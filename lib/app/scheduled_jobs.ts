/**
 * The app's scheduled jobs: what runs, when, and how one run is made safe to schedule.
 *
 * | job                    | schedule (UTC)   | what                                                        |
 * | ---------------------- | ---------------- | ----------------------------------------------------------- |
 * | `monthly billing`      | every 15 minutes | charges due monthly gifts (`lib/monthly_gifts/billing.ts`)       |
 * | `reconcile payments`   | every 15 minutes | pending payments, card updates and refunds left unanswered  |
 * | `retention sweep`      | daily, 03:17     | deletes what can no longer matter (`lib/retention/retention.ts`)      |
 * | `yearly statements`    | January, 06:41   | the past year's statement per donor email (`lib/outbox/…`)    |
 * | `sign-in summaries`    | hourly, at :07   | one audit entry per hour of sign-ins on unknown emails      |
 * | `membership renewals`  | hourly, at :23   | reminders, lapse and win-back emails (`lib/memberships/…`)  |
 *
 * `main.ts` registers them with `Deno.cron` before anything else, which is where Deno Deploy looks
 * for crons; where cron is unavailable it runs them on intervals. Every instance schedules every
 * job: billing, reconciliation and the membership renewals take a lease in storage (the renewals'
 * messages also have idempotent keys), the sign-in summaries claim each hour's
 * entry in storage, and the retention sweep and the yearly statements (whose messages have
 * idempotent keys) are safe to run twice. A run never throws: a failure (storage or the provider unreachable) is logged, and the
 * next run carries on. Each job's module loads with its first run, not with the server.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import type { PaymentProvider } from "@/lib/providers/provider.ts";
import type { RateLimitSettings } from "@/lib/rate_limits/rate_limits.ts";
import type { Store } from "@/lib/storage/types.ts";

/** A job's name (its `Deno.cron` name) and schedule. */
export interface JobSchedule {
  name: JobName;
  /** A cron expression, UTC. */
  cron: string;
  /** The interval used where `Deno.cron` is unavailable, in ms. */
  everyMs: number;
}

export type JobName =
  | "monthly billing"
  | "reconcile payments"
  | "retention sweep"
  | "yearly statements"
  | "sign-in summaries"
  | "membership renewals";

const MINUTE_MS = 60_000;

/** Every job, with its schedule. */
export const JOB_SCHEDULES: readonly JobSchedule[] = [
  { name: "monthly billing", cron: "*/15 * * * *", everyMs: 15 * MINUTE_MS },
  { name: "reconcile payments", cron: "*/15 * * * *", everyMs: 15 * MINUTE_MS },
  // A quiet hour for museums in Europe and Israel; off the quarter hours the other jobs take.
  { name: "retention sweep", cron: "17 3 * * *", everyMs: 24 * 60 * MINUTE_MS },
  // Every day of January (the job does nothing in other months), so a failed run is made up the
  // next day; the messages' keys make the reruns enqueue nothing new.
  { name: "yearly statements", cron: "41 6 * 1 *", everyMs: 24 * 60 * MINUTE_MS },
  // Past each hour's end, off the quarter hours; a missed run is made up by the next (a day back).
  { name: "sign-in summaries", cron: "7 * * * *", everyMs: 60 * MINUTE_MS },
  // Hourly, so a reminder due on a UTC day goes out early that day; most runs find nothing new.
  { name: "membership renewals", cron: "23 * * * *", everyMs: 60 * MINUTE_MS },
];

/** What the jobs need. */
export interface JobContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** Who holds the leases: unique per process. */
  holder: string;
  /** The decline caps' settings, for the declines reconciliation records. */
  rateLimits?: RateLimitSettings;
  /** Days of grace after a membership's end (`MEMBERSHIP_GRACE_DAYS`), for the gifts these jobs record. */
  membershipGraceDays?: number;
  /** Days before a membership's end that reminders go out (`MEMBERSHIP_REMINDER_DAYS`). */
  membershipReminderDays?: readonly number[];
  /** Stores a message in the outbox (the yearly statements'); without it that job only logs. */
  enqueueMessage?: (message: MessageInput) => Promise<void>;
  /** The clock of the jobs that look at the date (the yearly statements, the summaries); tests set it. */
  now?: () => Date;
}

/**
 * The jobs, by name; each resolves when its run is over and never rejects.
 *
 * @example
 * ```ts
 * const jobs = createJobs({ store, provider, log, holder: `${Deno.hostname()}-${Deno.pid}` });
 * for (const { name, cron } of JOB_SCHEDULES) Deno.cron(name, cron, jobs[name]);
 * ```
 */
export function createJobs(context: JobContext): Record<JobName, () => Promise<void>> {
  const { store, provider, log, holder, rateLimits, membershipGraceDays, enqueueMessage, now } = context;
  const { membershipReminderDays } = context;
  const guarded = (name: JobName, run: () => Promise<unknown>) => async () => {
    try {
      await run();
    } catch (e) {
      log.error("scheduled job failed", { job: name, error: e });
    }
  };
  return {
    "monthly billing": guarded("monthly billing", async () => {
      const { runBillingPass } = await import("@/lib/monthly_gifts/billing.ts");
      await runBillingPass({ store, provider, log, holder, membershipGraceDays });
      const { runAutoRenewalPass } = await import("@/lib/monthly_gifts/auto_renewal.ts");
      await runAutoRenewalPass({ store, provider, log, holder, membershipGraceDays, now });
    }),
    "reconcile payments": guarded("reconcile payments", async () => {
      const { runReconcilePass } = await import("@/lib/donations/reconcile.ts");
      await runReconcilePass({ store, provider, log, holder, rateLimits, membershipGraceDays });
      const { reconcileCardUpdates } = await import("@/lib/monthly_gifts/card_update_reconcile.ts");
      await reconcileCardUpdates({ store, provider, log, rateLimits });
      const { reconcileRefunds } = await import("@/lib/refunds/refund_reconcile.ts");
      await reconcileRefunds({ store, provider, log });
    }),
    "retention sweep": guarded("retention sweep", async () => {
      const { runRetentionSweep } = await import("@/lib/retention/retention.ts");
      await runRetentionSweep({ store, log });
    }),
    "yearly statements": guarded("yearly statements", async () => {
      if (!enqueueMessage) return log.warn("yearly statements: no outbox wired (enqueueMessage)");
      const { enqueueYearlyStatements } = await import("@/lib/outbox/yearly_statements.ts");
      const addresses = await enqueueYearlyStatements({ store, enqueue: enqueueMessage }, now?.());
      if (addresses > 0) log.info("yearly statements enqueued", { addresses });
    }),
    "sign-in summaries": guarded("sign-in summaries", async () => {
      const { writeUnknownEmailSummaries } = await import("@/lib/staff/login_throttle.ts");
      const written = await writeUnknownEmailSummaries(store, now?.() ?? new Date());
      if (written > 0) log.info("sign-in summaries written", { hours: written });
    }),
    "membership renewals": guarded("membership renewals", async () => {
      const { runRenewalPass } = await import("@/lib/memberships/mod.ts");
      await runRenewalPass({
        store,
        log,
        holder,
        now,
        reminderDays: membershipReminderDays,
        graceDays: membershipGraceDays,
      });
    }),
  };
}
