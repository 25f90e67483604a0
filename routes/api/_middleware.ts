import { errorAnswer, errorResponse } from "@/lib/http/domain_errors.ts";
import type { RouteContext } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * Every `/api` route: known errors (the domain's, a bad request, a refused signature) become their
 * JSON answer (`{ message, statusCode, errors? }`, `lib/http/domain_errors.ts`), and answers are
 * never cached. Unknown errors go on to the app's 500 handler, which logs them.
 */
export async function handler(_req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  let res: Response;
  try {
    res = await ctx.next();
  } catch (e) {
    const answer = errorAnswer(e);
    if (!answer) throw e;
    res = errorResponse(answer);
  }
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  return res;
}
