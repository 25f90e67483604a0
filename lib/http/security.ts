/**
 * Security headers on every response: a nonce-based CSP (only scripts carrying this response's
 * nonce run, and what they load: `strict-dynamic`), HSTS, nosniff, a strict referrer policy, and no
 * framing of our pages by others.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";

/** Options of {@link securityHeaders}. */
export interface SecurityOptions {
  /** Origins allowed in frames (the payment provider's hosted page). `'self'` is always allowed. */
  frameSrc?: string[];
  /** Origins forms may post to, besides our own. */
  formAction?: string[];
  /** Paths our own pages may frame (the sandbox's card page); every other page refuses framing. */
  framable?: (path: string) => boolean;
}

/**
 * The security-headers middleware. The nonce is read with `c.get("secureHeadersNonce")`.
 *
 * @example
 * ```ts
 * app.use(securityHeaders({ frameSrc: ["https://gateway20.pelecard.biz"] }));
 * ```
 */
export function securityHeaders(options: SecurityOptions = {}): MiddlewareHandler {
  const strict = headersFor(options, false);
  const framable = headersFor(options, true);
  return (c, next) => (options.framable?.(c.req.path) ? framable : strict)(c, next);
}

function headersFor(options: SecurityOptions, framable: boolean): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", ...(options.frameSrc ?? [])],
      formAction: ["'self'", ...(options.formAction ?? [])],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: [framable ? "'self'" : "'none'"],
    },
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: framable ? "SAMEORIGIN" : "DENY",
    xContentTypeOptions: "nosniff",
    crossOriginOpenerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}
