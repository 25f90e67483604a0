import { donorView } from "@/lib/donors/donors.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { HttpError, readId } from "@/lib/http/validation.ts";
import type { AppState } from "@/lib/app/state.ts";

export { donorDocs as docs } from "@/lib/donors/api_docs.ts";

/** `GET /api/user/{id}` → the user fields of spec section 3. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const donor = await ctx.state.services.store.donors.get(readId(ctx.params.id, "donor"));
    if (!donor) throw new HttpError(404, "No donor with this id");
    return Response.json(donorView(donor));
  },
};
