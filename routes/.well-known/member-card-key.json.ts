import type { Handlers } from "@/lib/framework/mod.ts";
import { memberCardPublicKey } from "@/lib/memberships/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `GET /.well-known/member-card-key.json`: the public key that checks a member card's QR token
 * (a JWK, Ed25519), for the museum's door scanners, offline once fetched. It changes only with the
 * app secret, so it may be kept for a day.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const publicJwk = await memberCardPublicKey(ctx.state.services.config.appSecret);
    return Response.json(publicJwk, {
      headers: { "cache-control": "public, max-age=86400", "access-control-allow-origin": "*" },
    });
  },
};
