import { createDonor } from "@/lib/donors/donors.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clientAdmission, loggingRefusal } from "@/lib/http/rate_limit.ts";
import { readJson } from "@/lib/http/validation.ts";
import { CreateDonorSchema } from "@/lib/donors/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { createDonorDocs as docs } from "@/lib/donors/api_docs.ts";

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
