import { z } from "zod";
import { createDonor } from "@/lib/donors/donors.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clientAdmission, loggingRefusal } from "@/lib/http/rate_limit.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { CreateDonorSchema } from "@/lib/donors/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

const CreatedSchema = z.object({ id: z.string().describe("The new donor's id (unguessable)") });

export const docs: RouteDocs = {
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

/** `POST /api/user` {firstName, lastName, email, country, israeliId?} → `{ id }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const input = await readJson(req, CreateDonorSchema);
    // Counted in the same storage call that stores the donor.
    const donor = await loggingRefusal(
      ctx,
      "donor",
      () => createDonor(ctx.state.services.store, input, new Date(), clientAdmission(ctx, "donor")),
    );
    // Not its id: a donor id is the key to the donor's data and cancel button (lib/core/log.ts).
    ctx.state.log.info("donor created");
    return Response.json({ id: donor.id }, { status: 201 });
  },
};
