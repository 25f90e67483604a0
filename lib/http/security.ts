/**
 * Security headers on every response: a nonce-based CSP (only scripts carrying this response's
 * nonce run, and what they load: `strict-dynamic`), HSTS, nosniff, a strict referrer policy, no
 * framing of our pages by others, and no camera, microphone or location but the camera of the pages
 * that scan a member card (the front desk).
 *
 * The policy is hono's `secureHeaders`, configured here; what it answers is captured once per
 * variant (framable or not) by running it on a throwaway app, and each response then gets those
 * headers with its own nonce in the CSP. Running the middleware itself per request cost more than a
 * cached page (`bench/README.md`, request pipeline): it builds the CSP and sets fourteen headers one
 * by one on every answer.
 *
 * @module
 */
import { Hono } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { randomBase64 } from "@/lib/core/random.ts";

/** Options of {@link securityHeaders}. */
export interface SecurityOptions {
  /** Origins allowed in frames (the payment provider's hosted page). `'self'` is always allowed. */
  frameSrc?: string[];
  /** Origins forms may post to, besides our own. */
  formAction?: string[];
  /** Paths our own pages may frame (the sandbox's card page); every other page refuses framing. */
  framable?: (path: string) => boolean;
  /** Paths whose page may use the camera (the front desk's scanner); every other page may not. */
  camera?: (path: string) => boolean;
}

/** The headers of one variant: fixed ones (as pairs and as an object), and the CSP around its nonce. */
interface Captured {
  fixed: [string, string][];
  object: Record<string, string>;
  csp: { name: string; before: string; after: string };
}

/** The security headers of an app: a fresh nonce per response, and the headers that carry it. */
export interface SecurityHeaders {
  /** A fresh CSP nonce: 16 random bytes, base64 (as hono's `secureHeaders` makes them). */
  nonce(): string;
  /** Sets the headers on `headers`, for a response to `path` whose CSP nonce is `nonce`. */
  apply(headers: Headers, path: string, nonce: string): void;
  /** The same headers as a new plain object, to make a response with (each call a new object). */
  headers(path: string, nonce: string): Record<string, string>;
  /** Resolves once the headers are known (the first request waits for it). */
  ready: Promise<void>;
}

/**
 * The security headers for `options`.
 *
 * @example
 * ```ts
 * const security = securityHeaders({ frameSrc: ["https://gateway20.pelecard.biz"] });
 * await security.ready;
 * const nonce = security.nonce();
 * security.apply(res.headers, "/en/", nonce);
 * ```
 */
export function securityHeaders(options: SecurityOptions = {}): SecurityHeaders {
  // One capture per variant: [framable][camera].
  let captured: Captured[][] | null = null;
  const ready = Promise.all([
    capture(options, false, false),
    capture(options, false, true),
    capture(options, true, false),
    capture(options, true, true),
  ]).then(([strict, strictCamera, framable, framableCamera]) => {
    captured = [[strict, strictCamera], [framable, framableCamera]];
  });
  const variant = (path: string): Captured => {
    if (!captured) throw new Error("securityHeaders: used before ready");
    return captured[options.framable?.(path) ? 1 : 0][options.camera?.(path) ? 1 : 0];
  };
  return {
    nonce: () => randomBase64(16),
    ready,
    apply(headers, path, nonce) {
      const captured = variant(path);
      for (const [name, value] of captured.fixed) headers.set(name, value);
      headers.set(captured.csp.name, captured.csp.before + nonce + captured.csp.after);
    },
    headers(path, nonce) {
      const captured = variant(path);
      const out = { ...captured.object };
      out[captured.csp.name] = captured.csp.before + nonce + captured.csp.after;
      return out;
    },
  };
}

function policy(options: SecurityOptions, framable: boolean, camera: boolean) {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      // The desk's service worker (`/desk-sw.js`): said outright, not left to each browser's
      // fallback to script-src, whose 'strict-dynamic' some apply to workers.
      workerSrc: ["'self'"],
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
    permissionsPolicy: { camera: camera ? ["self"] : [], microphone: [], geolocation: [] },
  });
}

/** What hono's middleware answers for one variant, with the nonce it chose cut out of the CSP. */
async function capture(options: SecurityOptions, framable: boolean, camera: boolean): Promise<Captured> {
  const app = new Hono<{ Variables: { secureHeadersNonce?: string } }>();
  app.use(policy(options, framable, camera));
  app.get("/", (c) => c.text(c.get("secureHeadersNonce") ?? ""));
  const res = await app.request("/");
  const nonce = await res.text();
  const fixed: [string, string][] = [];
  let csp: Captured["csp"] | null = null;
  for (const [name, value] of res.headers) {
    if (name === "content-type" || name === "content-length") continue;
    const at = value.indexOf(`'nonce-${nonce}'`);
    if (nonce && at >= 0) {
      csp = { name, before: value.slice(0, at + 7), after: value.slice(at + 7 + nonce.length) };
    } else fixed.push([name, value]);
  }
  if (!csp) throw new Error("securityHeaders: hono's CSP carries no nonce");
  return { fixed, object: Object.fromEntries(fixed), csp };
}
