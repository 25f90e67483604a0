/**
 * The donors' API operations as the OpenAPI document describes them: one export per route, which the route
 * re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import {
  CancelReasonsSchema,
  CreateDonorSchema,
  DonorQuerySchema,
  DonorSchema,
  DonorViewSchema,
} from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

const CreatedSchema = z.object({ id: z.string().describe("The new donor's id (unguessable)") });

/** `GET /api/donor`. */
export const donorGiftsDocs: RouteDocs = {
  GET: {
    summary: "A donor's gifts, by email address",
    description: "Everything under one email address, across every donor record with it: each gift " +
      "and declined attempt (newest first), the lifetime total per currency of the successful gifts, " +
      "the first and last gift, and every monthly gift with its state (active, paused until its next " +
      "charge, failing, cancelled with the donor's reason, ended). A declined attempt has the error " +
      "catalogue's text for its code in `lang` beside the provider's own message. Never a donor id or " +
      "a card token.",
    tags: ["donors"],
    auth: "bearer",
    query: DonorQuerySchema,
    responses: {
      200: { description: "The donor view", schema: DonorViewSchema },
      400: { description: "Missing or invalid email" },
      403: { description: "The admin is not approved yet" },
      404: { description: "No donor record has this email address" },
    },
  },
};

/** `GET /api/donor/cancel-reasons`. */
export const cancelReasonsDocs: RouteDocs = {
  GET: {
    summary: "Why donors cancelled their monthly gifts",
    description: "How many monthly gifts were cancelled with each reason the donor's cancel form " +
      "offers (every reason listed, in the form's order, 0 when none), and their total. Cancellations " +
      "without a reason are not counted here.",
    tags: ["donors"],
    auth: "bearer",
    responses: {
      200: { description: "The counts", schema: CancelReasonsSchema },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** `POST /api/user`. */
export const createDonorDocs: RouteDocs = {
  POST: {
    summary: "Create a donor",
    description:
      "Each call creates a new donor with a new id, even for a known email; past 20 records under " +
      "one email, up to two of its unused records over an hour old (no payment ever started) are deleted. " +
      "Limited per client address and globally (RATE_LIMIT_*): 429 with Retry-After beyond.",
    tags: ["donors"],
    body: CreateDonorSchema,
    responses: {
      201: { description: "Created", schema: CreatedSchema },
      429: { description: "Too many donors created from this address, or from everyone; see Retry-After" },
    },
  },
};

/** `PATCH /api/user/off-monthly-payment/{id}`. */
export const offMonthlyPaymentDocs: RouteDocs = {
  PATCH: {
    summary: "Stop a donor's monthly donation",
    description: "Stops all future monthly charges at once. Idempotent.",
    tags: ["donors"],
    responses: { 200: { description: "The updated donor", schema: DonorSchema } },
  },
};

/** `GET /api/user/{id}`. */
export const donorDocs: RouteDocs = {
  GET: {
    summary: "Get a donor",
    description: "The user fields of the cancel-subscription page. The id is the capability.",
    tags: ["donors"],
    responses: { 200: { description: "The donor", schema: DonorSchema } },
  },
};
