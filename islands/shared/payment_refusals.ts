/**
 * What the donation page's payment island says when a call is refused, in the page's language:
 * the message, and whether it is a kiosk's refusal that links to the pairing page. The kiosk page
 * already says so as it opens when the browser is not a paired kiosk; a sale is refused for that
 * only when the pairing was revoked (or the cookie cleared) since.
 *
 * @module
 */

/** A refused call as the island shows it. */
export interface Refusal {
  /** The whole alert text, the error prefix included. */
  message: string;
  /** A sale refused for want of a paired kiosk: the alert links to `/{lang}/kiosk-pair`. */
  pairLink: boolean;
}

/** A refused call's answer: its status, JSON body (null when none) and `Retry-After` header. */
export interface RefusedAnswer {
  status: number;
  body: { message?: unknown; errors?: { path?: unknown; message?: unknown }[] } | null;
  retryAfter: string | null;
}

/** Whole minutes until a 429's `Retry-After` (seconds) is over; 1 at least, 10 when it is missing. */
function retryMinutes(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  return retryAfter !== null && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 10;
}

/**
 * The alert for a refused call: 503 (the provider or the service down) and 429 (a rate limit) in
 * the page's language; a sale refused for want of a paired kiosk (the refusal names the device)
 * tells staff how to pair it, with the link; a terminal with a sale waiting names its refusal;
 * anything else says the server's message, or the default one.
 *
 * @example
 * ```ts
 * refusalOf({ status: 403, body: { errors: [{ path: "kioskDevice", message: "revoked" }] }, retryAfter: null }, tx);
 * // { message: "Error: This kiosk’s pairing was revoked… Staff: …", pairLink: true }
 * ```
 */
export function refusalOf(answer: RefusedAnswer, tx: (key: string) => string): Refusal {
  const { status, body } = answer;
  const first = body?.errors?.[0];
  const named = typeof first?.message === "string" ? first.message : null;
  const prefixed = (message: string) => ({ message: tx("payment.errorPrefix") + message, pairLink: false });
  if (status === 503) return prefixed(tx("payment.serviceUnavailable"));
  if (status === 429) {
    return prefixed(tx("rateLimit.tooMany").replace("{{minutes}}", String(retryMinutes(answer.retryAfter))));
  }
  if (status === 403 && first?.path === "kioskDevice" && named) {
    return {
      message: `${tx("payment.errorPrefix")}${tx(`kiosk.refused.${named}`)} ${tx("kiosk.pairHint")}`,
      pairLink: true,
    };
  }
  if (status === 409 && first?.path === "terminal" && named) {
    return prefixed(tx(`kiosk.terminalRefused.${named}`));
  }
  // A membership level whose price or monthly offer changed since the page was loaded.
  if (status === 400 && first?.path === "levelId") {
    return prefixed(tx(named === "not monthly" ? "payment.levelNotMonthly" : "payment.levelChanged"));
  }
  const message = typeof body?.message === "string" && body.message
    ? body.message
    : tx("payment.defaultError");
  return prefixed(message);
}
