/**
 * The one same-origin rule for form POSTs that work without JavaScript (the donation and kiosk
 * forms, the cancel button), applied to every POST under `/{lang}/` by `routes/[lang]/_middleware.ts`:
 * a cross-site page must not be able to make a visitor's browser donate, start a terminal sale or
 * cancel a monthly donation. (`/api` calls are JSON, signed or carrying a Bearer token, so a plain
 * cross-site form cannot make them.)
 *
 * @module
 */

/**
 * Whether a request comes from one of our own pages: its `Origin` header (every current browser
 * sends it on a form POST) must be this request's origin or the configured public one (behind a
 * proxy the two may differ); when a browser leaves `Origin` out, `Sec-Fetch-Site` must say
 * `same-origin`; with neither, it is refused. The rule of hono's `csrf` middleware, where `Origin`,
 * when sent, decides alone, and for every content type.
 *
 * @example
 * ```ts
 * isSameOrigin(req, ctx.url, config.publicUrl); // false for Origin: https://evil.example
 * ```
 */
export function isSameOrigin(req: Request, url: URL, publicUrl: string | undefined): boolean {
  const origin = req.headers.get("origin");
  if (origin !== null) return origin === url.origin || (!!publicUrl && origin === new URL(publicUrl).origin);
  return req.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * The plain answer to a refused cross-site form post (403, not cached).
 *
 * @example
 * ```ts
 * if (!isSameOrigin(req, ctx.url, publicUrl)) return crossSiteRefusal();
 * ```
 */
export function crossSiteRefusal(): Response {
  return new Response("Forbidden: cross-site form post", {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
