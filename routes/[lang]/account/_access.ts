/**
 * What the donor portal's routes share: the gate for what needs a fresh full sign-in (issue 23,
 * `lib/donor_portal/access.ts`; erasure, the data download, a year's receipts, a card change), which
 * answers the session or the redirect a request gets instead, and reading a form post.
 *
 * @module
 */
import { steppedUp, type StepUpAction, stepUpPath } from "@/lib/donor_portal/access.ts";
import { currentSession } from "@/lib/donor_portal/sign_in.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import type { AppState } from "@/lib/app/state.ts";
import type { DonorSession } from "@/lib/storage/types.ts";

/**
 * A form post's fields (an unreadable body is an empty form). The body is bounded by the app's body
 * limit (`lib/http/pipeline.ts`, 413 beyond it).
 */
export async function formOf(req: Request): Promise<URLSearchParams> {
  return new URLSearchParams(await req.text().catch(() => ""));
}

/** A redirect (303) that no cache keeps. */
export const seeOther = (location: string): Response =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/**
 * The request's session when it may do `action`; otherwise a redirect: signed out, to the sign-in
 * form; signed in by a manage link or too long ago, to the step-up page for `action`.
 *
 * @example
 * ```ts
 * const session = await steppedUpSession(req, ctx.state, "data");
 * if (session instanceof Response) return session;
 * ```
 */
export async function steppedUpSession(
  req: Request,
  state: AppState,
  action: StepUpAction,
): Promise<DonorSession | Response> {
  const { services, lang } = state;
  const session = await currentSession(services.store, readSessionCookie(req));
  if (!session) return seeOther(`/${lang}/account`);
  return steppedUp(session) ? session : seeOther(stepUpPath(lang, action));
}
