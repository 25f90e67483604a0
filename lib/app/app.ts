/**
 * The HTTP app: the request pipeline every request goes through (`lib/http/pipeline.ts`: request
 * id, security headers, log, Host check, body limit, time limit, state), built assets and public
 * files, then the file routes of `manifest.lazy.gen.ts`. Tests build it with their own services;
 * `main.ts` serves it.
 *
 * @module
 */
import { type Context, type ErrorHandler, Hono } from "hono";
import { detectFromCookie, detectFromHeader, detectFromQuery } from "hono/language";
import manifest from "@/manifest.lazy.gen.ts";
import { createApiDocs } from "./api_docs.ts";
import { ASSET_PREFIX, isPublicFile, serveBuild, servePublic } from "@/lib/framework/assets.ts";
import { mountRoutes } from "@/lib/framework/server.ts";
import { errorBody } from "@/lib/http/errors.ts";
import { requestPipeline } from "@/lib/http/pipeline.ts";
import { securityHeaders } from "@/lib/http/security.ts";
import { REQUEST_TIMEOUT_MS, RequestTimeoutError } from "@/lib/http/timeout.ts";
import { translator } from "@/lib/core/i18n.ts";
import { RequestState } from "./request_state.ts";
import { FALLBACK_LANG, isLang, type Lang, LANG_COOKIE, LANGUAGES } from "@/lib/shared/languages.ts";
import type { AppState, Services } from "./state.ts";

/** The front desk's page, `/{lang}/desk`: the one page allowed the camera. */
const DESK_PAGE = /^\/[a-z]{2}\/desk\/?$/;
import { StorageUnavailableError } from "@/lib/storage/types.ts";

import { IMAGE_LIMITS } from "@/lib/shared/museum.ts";

/** Largest request body accepted, in bytes. */
export const BODY_LIMIT = 64 * 1024;

type Env = { Variables: { state: AppState; requestId: string; secureHeadersNonce: string } };

// A page's own language comes from its path (routes/[lang]/_middleware.ts); this detection is for
// `/` and for pages outside /{lang}/: the `lng` query parameter, the saved choice, then the
// browser's languages (hono's detectors, asked only when a request needs a language).
const LANGUAGE_DETECTION = {
  order: ["querystring", "cookie", "header"],
  lookupQueryString: "lng",
  lookupCookie: LANG_COOKIE,
  lookupFromHeaderKey: "accept-language",
  lookupFromPathIndex: 0,
  supportedLanguages: [...LANGUAGES],
  fallbackLanguage: FALLBACK_LANG,
  ignoreCase: true,
  caches: false,
} satisfies Parameters<typeof detectFromQuery>[1];

/**
 * The visitor's language for `/` and pages outside `/{lang}/`: `lng`, the saved choice (cookie),
 * the browser's languages, English. Exported for the input-pattern timing test.
 */
export function detectLanguage(c: Context): Lang {
  for (const detect of [detectFromQuery, detectFromCookie, detectFromHeader]) {
    try {
      const lang = detect(c, LANGUAGE_DETECTION);
      if (isLang(lang)) return lang;
    } catch { /* as hono's detector: a detector that fails is skipped */ }
  }
  return FALLBACK_LANG;
}

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");

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
  const provider = services.providerFor(services.config.publicUrl ?? "http://localhost");
  // A terminal sale waits for the card up to its deadline, on top of the ordinary limit.
  const terminalSale = /^\/(api\/payment\/pay-emv|[a-z]{2}\/terminal-payment(\/[^/]*)?)\/?$/;
  const terminalLimit = services.config.payments.terminalDeadlineMs + REQUEST_TIMEOUT_MS;
  const apiDocs = createApiDocs(manifest.routes);
  const security = securityHeaders({
    frameSrc: provider.frameOrigins,
    formAction: provider.frameOrigins,
    framable: (path) => path.startsWith("/sandbox/pay/"),
    // The front desk scans member cards with the device's camera (issue 28).
    camera: (path) => DESK_PAGE.test(path),
  });
  // The pipeline runs inside each route's handler (`front`), not as `app.use` middleware: a page
  // then matches one Hono handler, and a cached page answers with no promise on the way.
  const front = requestPipeline({
    log: services.log,
    security,
    state: (c, requestId, nonce) =>
      new RequestState(services, apiDocs, requestId, nonce, () => detectLanguage(c)),
    limit: (c) =>
      c.req.method === "POST" && terminalSale.test(c.req.path) ? terminalLimit : REQUEST_TIMEOUT_MS,
    maxBodyBytes: BODY_LIMIT,
    // An image upload's form: the file (at most 200 KB, `IMAGE_LIMITS`) and a little of its own.
    uploads: { path: /^\/api\/settings\/museum\/[\w-]+$/, maxBodyBytes: IMAGE_LIMITS.bytes + 16 * 1024 },
    isJson: isApi,
    assets: [
      { paths: (path) => path.startsWith(ASSET_PREFIX), serve: serveBuild() },
      { paths: isPublicFile, serve: servePublic() },
    ],
    onError: (err, c) => onError(err, c),
  });

  mountRoutes(app, manifest, {
    front,
    state: (c) => c.get("state"),
    nonce: (c) => c.get("secureHeadersNonce"),
    // A page is made with every header the pipeline would add (it then adds none).
    headers(c) {
      const state = c.get("state");
      const headers = security.headers(c.req.path, state.nonce);
      headers["x-request-id"] = state.requestId;
      if (state.contentLanguage) headers["content-language"] = state.contentLanguage;
      return headers;
    },
    jsonPrefixes: ["/api"],
    reservedPrefixes: ["/_app"],
    jsonError: errorBody,
    // A defect of the route (its pages would render for every visitor): told, not hidden.
    longPageKey: (route, length) => services.log.warn("page cache key too long", { route, length }),
  });

  const onError: ErrorHandler<Env> = (err, c) => {
    const state = c.get("state");
    const log = state?.log ?? services.log;
    const api = isApi(c.req.path);
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
  };
  app.onError(onError);
  return app;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
