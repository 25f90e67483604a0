import { donorView } from "@/lib/donors/donors.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { HttpError, readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { DonorSchema } from "@/lib/donors/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Get a donor",
    description: "The user fields of the cancel-subscription page. The id is the capability.",
    tags: ["donors"],
    responses: { 200: { description: "The donor", schema: DonorSchema } },
  },
};

/** `GET /api/user/{id}` → the user fields of spec section 3. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const donor = await ctx.state.services.store.donors.get(readId(ctx.params.id, "donor"));
    if (!donor) throw new HttpError(404, "No donor with this id");
    return Response.json(donorView(donor));
  },
};
