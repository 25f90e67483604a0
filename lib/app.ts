/**
 * The HTTP app: the middleware stack every request goes through, then the file routes of
 * `manifest.gen.ts`. Tests build it with their own services; `main.ts` serves it.
 *
 * Order matters: request id first (everything logs it), then the access log, security headers,
 * body limit, language detection and state, built assets, and finally the routes.
 *
 * @module
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { languageDetector } from "hono/language";
import { requestId } from "hono/request-id";
import manifest from "../manifest.gen.ts";
import { serveBuild, servePublic } from "./framework/assets.ts";
import { mountRoutes } from "./framework/server.ts";
import { FLAG_NAMES } from "./flags.ts";
import { errorBody } from "./http/errors.ts";
import { requestLog } from "./http/request_log.ts";
import { securityHeaders } from "./http/security.ts";
import { translator } from "./i18n.ts";
import { dirOf, FALLBACK_LANG, isLang, LANG_COOKIE, LANGUAGES } from "./languages.ts";
import type { AppState, Services } from "./state.ts";

/** Largest request body accepted, in bytes. */
export const BODY_LIMIT = 64 * 1024;

type Env = { Variables: { state: AppState; language: string } };

/**
 * Creates the app.
 *
 * @example
 * ```ts
 * const app = createApp({ config, store, log });
 * Deno.serve({ port: config.port }, app.fetch);
 * ```
 */
export function createApp(services: Services): Hono<Env> {
  const app = new Hono<Env>({ strict: false });
  app.use(requestId());
  app.use(requestLog(services.log));
  const provider = services.providerFor(services.config.publicUrl ?? "http://localhost");
  app.use(securityHeaders({
    frameSrc: provider.frameOrigins,
    formAction: provider.frameOrigins,
    framable: (path) => path.startsWith("/sandbox/pay/"),
  }));
  app.use(bodyLimit({
    maxSize: BODY_LIMIT,
    onError: (c) => c.json(errorBody(413, `The request body is larger than ${BODY_LIMIT} bytes`), 413),
  }));
  // The page's own language comes from its path (routes/[lang]/_middleware.ts); this detection is
  // for `/` and for pages outside /{lang}/: the `lng` query parameter, the saved choice, then the
  // browser's languages.
  app.use(languageDetector({
    order: ["querystring", "cookie", "header"],
    lookupQueryString: "lng",
    lookupCookie: LANG_COOKIE,
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: FALLBACK_LANG,
    caches: false,
  }));
  app.use(async (c, next) => {
    const lang = isLang(c.get("language")) ? c.get("language") as AppState["lang"] : FALLBACK_LANG;
    const id = c.get("requestId");
    c.set("state", {
      services,
      lang,
      dir: dirOf(lang),
      t: translator(lang),
      flags: Object.fromEntries(FLAG_NAMES.map((f) => [f, false])) as AppState["flags"],
      requestId: id,
      nonce: c.get("secureHeadersNonce") ?? "",
      log: services.log.with({ requestId: id }),
    });
    await next();
  });
  app.use("/_app/*", serveBuild());
  app.use(servePublic());

  mountRoutes(app as unknown as Hono, manifest, {
    state: (c) => c.get("state"),
    nonce: (c) => c.get("secureHeadersNonce"),
    jsonPrefixes: ["/api"],
    reservedPrefixes: ["/_app"],
    jsonError: errorBody,
  });

  app.onError((err, c) => {
    const state = c.get("state");
    (state?.log ?? services.log).error("unhandled error", { error: err, path: c.req.path });
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) {
      return c.json(errorBody(500, "Internal server error; the error was logged"), 500);
    }
    const t = state?.t ?? translator(FALLBACK_LANG);
    return c.html(
      `<!DOCTYPE html><html lang="${state?.lang ?? "en"}" dir="${
        state?.dir ?? "ltr"
      }"><meta charset="utf-8">` +
        `<title>${escapeHtml(t("serverError.title"))}</title><h1>${escapeHtml(t("serverError.title"))}</h1>` +
        `<p>${escapeHtml(t("serverError.message"))}</p></html>`,
      500,
    );
  });
  return app;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
