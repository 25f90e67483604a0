import { z } from "zod";
import { createDonor } from "@/lib/donors.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { CreateDonorSchema } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";

const CreatedSchema = z.object({ id: z.string().describe("The new donor's id (unguessable)") });

export const docs: RouteDocs = {
  POST: {
    summary: "Create a donor",
    description: "Each call creates a new donor with a new id, even for a known email.",
    tags: ["donors"],
    body: CreateDonorSchema,
    responses: { 201: { description: "Created", schema: CreatedSchema } },
  },
};

/** `POST /api/user` {firstName, lastName, email, country} → `{ id }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const input = await readJson(req, CreateDonorSchema);
    const donor = await createDonor(ctx.state.services.store, input);
    // Not its id: a donor id is the key to the donor's data and cancel button (lib/log.ts).
    ctx.state.log.info("donor created");
    return Response.json({ id: donor.id }, { status: 201 });
  },
};
