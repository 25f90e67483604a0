/**
 * The memberships' API schemas (zod, with their OpenAPI ids).
 *
 * @module
 */
import { z } from "zod";

/** What `POST /api/memberships/{number}/resend-card` answers. */
export const ResendMemberCardSchema = z.object({
  key: z.string().describe("The queued message's outbox key"),
  repeated: z.boolean().describe("True when a resend asked for within the last 10 seconds answered instead"),
}).meta({ id: "ResendMemberCard" });
