/**
 * The back office's outbox list (`GET /api/outbox`): its query and page.
 *
 * @module
 */
import { z } from "zod";
import { atMost } from "@/lib/core/schema_fields.ts";
import { isDay } from "@/lib/shared/calendar_day.ts";

/** `GET /api/outbox` query. */
export const OutboxQuerySchema = z.object({
  cursor: z.string().max(2000, atMost("cursor", 2000)).optional().describe(
    "The previous page's nextCursor; none for the newest messages",
  ),
  limit: z.string().regex(/^\d{1,3}$/, "limit must be a whole number from 1 to 100").transform(Number)
    .refine((n) => n >= 1 && n <= 100, "limit must be a whole number from 1 to 100").optional().default(20),
  failingSince: z.string().refine(
    isDay,
    "failingSince must be a day written YYYY-MM-DD (2000 to 2999), e.g. 2026-11-23",
  ).optional().describe(
    "Only the messages enqueued from this museum day on (MUSEUM_TIME_ZONE) that failed for good or " +
      "wait to be tried again after a failed attempt (the overview's link)",
  ),
});

/** One page of `GET /api/outbox`. */
export const OutboxPageSchema = z.object({
  data: z.array(
    z.object({
      id: z.string().describe("A stable reference to the message (not its key)"),
      kind: z.string().describe("receipt, monthly-welcome, charge-failed, monthly-cancelled, ..."),
      recipient: z.enum(["donor", "admins"]),
      language: z.string(),
      state: z.enum(["queued", "sent", "skipped", "failed"]),
      attempts: z.number().int(),
      lastError: z.string().nullable().describe(
        "Why the last attempt failed or it was skipped; addresses masked",
      ),
      createdAt: z.string(),
      settledAt: z.string().nullable().describe("When it was sent, skipped or failed for good"),
      nextAttemptAt: z.string().nullable().describe("While queued: when it is next tried"),
    }).meta({ id: "OutboxMessage" }),
  ),
  nextCursor: z.string().nullable().describe("The next (older) page's cursor, or null at the end"),
}).meta({ id: "OutboxPage" });
