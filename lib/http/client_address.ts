/**
 * The client's address, for throttling: the connection's peer, or, behind a trusted reverse
 * proxy, the address that proxy appended to `X-Forwarded-For`.
 *
 * @module
 */
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

/**
 * The client address of a request.
 *
 * @example
 * ```ts
 * clientAddress(ctx.hono, config.trustProxy); // "203.0.113.7"
 * ```
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    // Our proxy appends the address it saw last; earlier entries are the client's own claims.
    const last = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
