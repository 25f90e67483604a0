/**
 * The HTTP app: the middleware stack every request goes through, then the file routes of
 * `manifest.lazy.gen.ts` (each loaded on its first request). Tests build it with their own
 * services; `main.ts` serves it.
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
import manifest from "../manifest.lazy.gen.ts";
import { createApiDocs } from "./api_docs.ts";
import { serveBuild, servePublic } from "./framework/assets.ts";
import { mountRoutes } from "./framework/server.ts";
import { FLAG_NAMES } from "./flags.ts";
import { errorBody } from "./http/errors.ts";
import { requestLog } from "./http/request_log.ts";
import { securityHeaders } from "./http/security.ts";
import { REQUEST_TIMEOUT_MS, requestTimeout, RequestTimeoutError } from "./http/timeout.ts";
import { translator } from "./i18n.ts";
import { dirOf, FALLBACK_LANG, isLang, LANG_COOKIE, LANGUAGES } from "./shared/languages.ts";
import type { AppState, Services } from "./state.ts";
import { StorageUnavailableError } from "./storage/types.ts";

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
  // A Host header the URL parser refuses (`Host: a b`) leaves the request without a usable URL,
  // and every route reading `new URL(req.url)` would fail with a 500: answer 400 here instead.
  app.use(async (c, next) => {
    if (URL.canParse(c.req.url)) return await next();
    const message = "Bad request: the Host header is not a valid host";
    return c.req.path === "/api" || c.req.path.startsWith("/api/")
      ? c.json(errorBody(400, message), 400)
      : c.text(message, 400);
  });
  app.use(bodyLimit({
    maxSize: BODY_LIMIT,
    onError: (c) => c.json(errorBody(413, `The request body is larger than ${BODY_LIMIT} bytes`), 413),
  }));
  // A terminal sale waits for the card up to its deadline, on top of the ordinary limit.
  const terminalSale = /^\/(api\/payment\/pay-emv|[a-z]{2}\/terminal-payment(\/[^/]*)?)\/?$/;
  app.use(
    requestTimeout((c) =>
      c.req.method === "POST" && terminalSale.test(c.req.path)
        ? services.config.payments.terminalDeadlineMs + REQUEST_TIMEOUT_MS
        : REQUEST_TIMEOUT_MS
    ),
  );
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
  const apiDocs = createApiDocs(manifest.routes);
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
      apiDocs,
    });
    await next();
  });
  app.use("/_app/*", serveBuild());
  app.use(servePublic());

  mountRoutes(app, manifest, {
    state: (c) => c.get("state"),
    nonce: (c) => c.get("secureHeadersNonce"),
    jsonPrefixes: ["/api"],
    reservedPrefixes: ["/_app"],
    jsonError: errorBody,
  });

  app.onError((err, c) => {
    const state = c.get("state");
    const log = state?.log ?? services.log;
    const api = c.req.path === "/api" || c.req.path.startsWith("/api/");
    // Storage down or too slow, or the request past its limit: a temporary condition, answered
    // 503 with Retry-After, so clients (and load balancers) try again instead of giving up.
    const unavailable = err instanceof StorageUnavailableError || err instanceof RequestTimeoutError;
    if (unavailable) {
      log.error(err instanceof RequestTimeoutError ? "request timed out" : "storage unavailable", {
        error: err.message,
        path: c.req.path,
      });
    } else log.error("unhandled error", { error: err, path: c.req.path });
    const status = unavailable ? 503 : 500;
    const headers: Record<string, string> = unavailable
      ? { "retry-after": "5", "cache-control": "no-store" }
      : {};
    if (api) {
      const message = unavailable
        ? "The service is temporarily unavailable. Please try again in a moment."
        : "Internal server error; the error was logged";
      return c.json(errorBody(status, message), status, headers);
    }
    const t = state?.t ?? translator(FALLBACK_LANG);
    return c.html(
      `<!DOCTYPE html><html lang="${state?.lang ?? "en"}" dir="${
        state?.dir ?? "ltr"
      }"><meta charset="utf-8">` +
        `<title>${escapeHtml(t("serverError.title"))}</title><h1>${escapeHtml(t("serverError.title"))}</h1>` +
        `<p>${escapeHtml(t("serverError.message"))}</p></html>`,
      status,
      headers,
    );
  });
  return app;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
