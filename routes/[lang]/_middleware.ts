import { getCookie } from "hono/cookie";
import { type Flags, readFlagsForPages } from "@/lib/settings/flags.ts";
import { readMuseumSettingsForPages } from "@/lib/museum/mod.ts";
import type { RouteContext } from "@/lib/framework/mod.ts";
import { crossSiteRefusal, isSameOrigin } from "@/lib/http/same_origin.ts";
import { translator } from "@/lib/core/i18n.ts";
import {
  dirOf,
  isLang,
  type Lang,
  LANG_COOKIE,
  langCookie,
  unsupportedLangRedirect,
} from "@/lib/shared/languages.ts";
import type { MuseumSettings } from "@/lib/shared/museum.ts";
import type { AppState } from "@/lib/app/state.ts";
import type { CancelPageData } from "./cancel-subscription.tsx";

/**
 * Every page under `/{lang}/`: an unsupported first segment redirects to English (keeping the rest
 * of the path and the query); a supported one sets the page's language, direction, translations
 * and feature flags (at most `PAGE_FLAGS_MAX_AGE_MS` old), and visiting the page saves its language
 * as the visitor's choice (the `lang` cookie, which `/` reads), so that works without JavaScript. A
 * POST (a form that works without JavaScript: donation, kiosk, cancel) must come from our own pages
 * (`lib/http/same_origin.ts`); this is the one place that checks it, so no form can forget to.
 * A page answered at once (a cached one, with the flags and settings read this second) is answered
 * at once here too, not through a promise.
 */
export function handler(req: Request, ctx: RouteContext<unknown, AppState>): Response | Promise<Response> {
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
  if (req.method === "POST" && !isSameOrigin(req, ctx.url, ctx.state.services.config.publicUrl)) {
    ctx.state.log.warn("cross-site form post refused", {
      path: ctx.url.pathname,
      origin: req.headers.get("origin"),
    });
    return visited(req, ctx, lang, refuseCrossSite(ctx));
  }
  const { store } = ctx.state.services;
  const flags = req.method === "GET" || req.method === "HEAD" ? readFlagsForPages(store) : undefined;
  // The museum's name and levels, for every page's header (and the donation page's cards).
  const museum = readMuseumSettingsForPages(store);
  if (flags instanceof Promise || museum instanceof Promise) {
    return Promise.all([flags, museum]).then(([f, m]) => page(req, ctx, lang, f, m));
  }
  return page(req, ctx, lang, flags, museum);
}

/** The rest of the chain once the flags (for a GET or HEAD) and the museum's settings are read. */
function page(
  req: Request,
  ctx: RouteContext<unknown, AppState>,
  lang: Lang,
  flags: Flags | undefined,
  museum: MuseumSettings,
): Response | Promise<Response> {
  if (flags) ctx.state.flags = flags;
  ctx.state.museum = museum;
  const res = ctx.next();
  return res instanceof Promise ? res.then((r) => visited(req, ctx, lang, r)) : visited(req, ctx, lang, res);
}

/** The answer with its language, and the visitor's choice saved when the page is a visit. */
function visited(req: Request, ctx: RouteContext<unknown, AppState>, lang: Lang, res: Response): Response {
  try {
    if (!res.headers.has("content-language")) res.headers.set("content-language", lang);
    if (savesChoice(req, res) && getCookie(ctx.hono, LANG_COOKIE) !== lang) {
      // Only when the saved choice differs: a visitor staying in one language gets no Set-Cookie.
      // Per response, never in the page cache (which keeps HTML only); pages are `no-store`.
      // The request's URL as serialised (a lower-case scheme): no parse for its protocol.
      const https = req.url.startsWith("https:") ||
        !!ctx.state.services.config.publicUrl?.startsWith("https:");
      res.headers.append("set-cookie", langCookie(lang, https));
    }
  } catch { /* immutable headers (e.g. a redirect from Response.redirect) */ }
  return res;
}

/** A page shown (or a redirect within the site) in answer to GET or HEAD: a visit, which saves the language. */
function savesChoice(req: Request, res: Response): boolean {
  return (req.method === "GET" || req.method === "HEAD") && res.status < 400;
}

/**
 * The cancel page: `/{lang}/cancel-subscription`, as the router reads the path (hono's, one trailing
 * slash dropped). Not the URL parser's path, and no run of slashes: `…/cancel-subscription//` or
 * `…/cancel-subscription/.` match no route, and rendering "the page" there was a 500.
 */
const CANCEL_PAGE = /^\/[^/]+\/cancel-subscription$/;

/**
 * Each form's refusal, as it was before the check moved here: the cancel page explains itself in
 * the visitor's language (its link comes by email, so the donor should know to open it again);
 * the donation and kiosk forms, and anything else, answer a plain 403.
 */
function refuseCrossSite(ctx: RouteContext<unknown, AppState>): Response {
  if (CANCEL_PAGE.test(ctx.hono.req.path)) {
    const refused: CancelPageData = { kind: "forbidden" };
    return ctx.render(refused, { status: 403 });
  }
  return crossSiteRefusal();
}
