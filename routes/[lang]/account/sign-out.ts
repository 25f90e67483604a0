import { signOut } from "@/lib/donor_portal/sign_in.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clearedSessionCookie, readSessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/account/sign-out`: POST (the signed-in page's form; same-origin, checked by
 * `_middleware.ts`) revokes the session in storage, so the cookie opens nothing even if kept, clears
 * the cookie and goes back to the form with "you are signed out".
 */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services, lang } = ctx.state;
    await req.body?.cancel();
    await signOut(services.store, readSessionCookie(req));
    return new Response(null, {
      status: 303,
      headers: {
        location: `/${lang}/account?signedOut`,
        "set-cookie": clearedSessionCookie(services.config),
        "cache-control": "no-store",
      },
    });
  },
};
