import { readFlagsForPages } from "../../lib/flags.ts";
import type { RouteContext } from "../../lib/framework/mod.ts";
import { crossSiteRefusal, isSameOrigin } from "../../lib/http/same_origin.ts";
import { translator } from "../../lib/i18n.ts";
import { dirOf, isLang, unsupportedLangRedirect } from "../../lib/shared/languages.ts";
import type { AppState } from "../../lib/state.ts";
import type { CancelPageData } from "./cancel-subscription.tsx";

/**
 * Every page under `/{lang}/`: an unsupported first segment redirects to English (keeping the rest
 * of the path and the query); a supported one sets the page's language, direction, translations
 * and feature flags (at most `PAGE_FLAGS_MAX_AGE_MS` old). A POST (a form that works without
 * JavaScript: donation, kiosk, cancel) must come from our own pages (`lib/http/same_origin.ts`);
 * this is the one place that checks it, so no form can forget to.
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
  ctx.state.contentLanguage = lang;
  ctx.state.dir = dirOf(lang);
  ctx.state.t = translator(lang);
  let res: Response;
  if (req.method === "POST" && !isSameOrigin(req, ctx.url, ctx.state.services.config.publicUrl)) {
    ctx.state.log.warn("cross-site form post refused", {
      path: ctx.url.pathname,
      origin: req.headers.get("origin"),
    });
    res = refuseCrossSite(ctx);
  } else {
    if (req.method === "GET" || req.method === "HEAD") {
      const flags = readFlagsForPages(ctx.state.services.store);
      ctx.state.flags = flags instanceof Promise ? await flags : flags;
    }
    res = await ctx.next();
  }
  if (!res.headers.has("content-language")) {
    try {
      res.headers.set("content-language", lang);
    } catch { /* immutable headers (e.g. a redirect from Response.redirect) */ }
  }
  return res;
}

/** The cancel page: `/{lang}/cancel-subscription`, with or without a trailing slash. */
const CANCEL_PAGE = /^\/[^/]+\/cancel-subscription\/*$/;

/**
 * Each form's refusal, as it was before the check moved here: the cancel page explains itself in
 * the visitor's language (its link comes by email, so the donor should know to open it again);
 * the donation and kiosk forms, and anything else, answer a plain 403.
 */
function refuseCrossSite(ctx: RouteContext<unknown, AppState>): Response {
  if (CANCEL_PAGE.test(ctx.url.pathname)) {
    const refused: CancelPageData = { kind: "forbidden" };
    return ctx.render(refused, { status: 403 });
  }
  return crossSiteRefusal();
}
