import { errorBody } from "../../lib/http/errors.ts";
import { HttpError } from "../../lib/http/validation.ts";
import type { RouteContext } from "../../lib/framework/mod.ts";
import { SignatureError } from "../../lib/signature_check.ts";
import type { AppState } from "../../lib/state.ts";

/**
 * Every `/api` route: known errors become their JSON answer (`{ message, statusCode, errors? }`),
 * and answers are never cached. Unknown errors go on to the app's 500 handler, which logs them.
 */
export async function handler(_req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  let res: Response;
  try {
    res = await ctx.next();
  } catch (e) {
    if (e instanceof HttpError) {
      res = Response.json(errorBody(e.status, e.message, e.errors), { status: e.status, headers: e.headers });
    } else if (e instanceof SignatureError) {
      res = Response.json(errorBody(401, e.message), { status: 401 });
    } else throw e;
  }
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  return res;
}
