import { donorView, stopMonthlyPayments } from "@/lib/donors/donors.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { HttpError, readId } from "@/lib/http/validation.ts";
import type { AppState } from "@/lib/app/state.ts";

export { offMonthlyPaymentDocs as docs } from "@/lib/donors/api_docs.ts";

/** `PATCH /api/user/off-monthly-payment/{id}` → the updated user. */
export const handler: Handlers<unknown, AppState> = {
  async PATCH(_req, ctx) {
    const donor = await stopMonthlyPayments(ctx.state.services.store, readId(ctx.params.id, "donor"));
    if (!donor) throw new HttpError(404, "No donor with this id");
    ctx.state.log.info("monthly donation stopped"); // not the donor id: it is the cancel key
    return Response.json(donorView(donor));
  },
};
