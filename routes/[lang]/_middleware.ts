import { readFlagsForPages } from "../../lib/flags.ts";
import type { RouteContext } from "../../lib/framework/mod.ts";
import { translator } from "../../lib/i18n.ts";
import { dirOf, isLang, unsupportedLangRedirect } from "../../lib/shared/languages.ts";
import type { AppState } from "../../lib/state.ts";

/**
 * Every page under `/{lang}/`: an unsupported first segment redirects to English (keeping the rest
 * of the path and the query); a supported one sets the page's language, direction, translations
 * and feature flags (at most `PAGE_FLAGS_MAX_AGE_MS` old).
 */
export async function handler(req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  const lang = ctx.params.lang;
  if (!isLang(lang)) {
    return new Response(null, {
      status: 302,
      headers: {
        location: unsupportedLangRedirect(ctx.url.pathname, ctx.url.search),
        "cache-control": "no-store",
      },
    });
  }
  ctx.state.lang = lang;
  ctx.state.dir = dirOf(lang);
  ctx.state.t = translator(lang);
  if (req.method === "GET" || req.method === "HEAD") {
    ctx.state.flags = await readFlagsForPages(ctx.state.services.store);
  }
  const res = await ctx.next();
  if (!res.headers.has("content-language")) {
    try {
      res.headers.set("content-language", lang);
    } catch { /* immutable headers (e.g. a redirect from Response.redirect) */ }
  }
  return res;
}
