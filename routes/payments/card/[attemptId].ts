import type { Handlers, RouteContext } from "@/lib/framework/mod.ts";
import { completeCardUpdate } from "@/lib/monthly_gifts/card_update.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { ProviderError } from "@/lib/providers/provider.ts";
import { isLang } from "@/lib/shared/languages.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * Where the browser comes back from the provider's page of a card update (success, decline and
 * cancel alike). The result is asked of the provider (`completeCardUpdate`), never read from the
 * query string, applied once however often this is loaded or the notification arrives, and the
 * donor is sent to the account page saying what happened: `/{lang}/account?card=applied`,
 * `declined`, `cancelled`, `pending`, `ended` or `unavailable` (the provider could not be asked; nothing changed).
 * Outside `/{lang}/` so a provider posting its result back (a cross-site POST) is answered too; it
 * needs no session: the attempt says which gift, and who could act for it.
 */
async function handle(req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  const { services, log } = ctx.state;
  await req.body?.cancel();
  const id = ctx.params.attemptId;
  const attempt = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await services.store.cardUpdates.get(id) : null;
  if (!attempt) return ctx.renderNotFound();
  const lang = isLang(attempt.language) ? attempt.language : "en";
  const to = (notice: string) =>
    new Response(null, {
      status: 303,
      headers: { location: `/${lang}/account?card=${notice}`, "cache-control": "no-store" },
    });
  try {
    const { outcome } = await completeCardUpdate(paymentsContext(services, false, ctx.url, log), attempt);
    return to(outcome);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.error("card update: could not verify the result with the provider", {
      attemptId: attempt.id,
      error: e.message,
    });
    return to("unavailable");
  }
}

export const handler: Handlers<unknown, AppState> = { GET: handle, POST: handle };
