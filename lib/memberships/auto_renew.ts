/**
 * Automatic renewal's consent kept and dropped (issue 27, items 5 and 7), and the one-click
 * turn-off link of its notice email: `/{lang}/membership/auto-renew?t=<token>`.
 *
 * The link's token is scoped to one membership and one action: it names the membership's email and
 * number, is sealed as every membership link is (`sealed_link.ts`) under a key for this purpose
 * only, so it opens no portal session, no manage page and no
 * renewal: its page can only turn that membership's auto-renewal off (a page with one button; a
 * `GET` changes nothing, so a mail scanner opening the link turns nothing off). Turning off drops the
 * kept card token ({@link turnOffAutoRenew}); it is harmless to repeat, so the token is not spent.
 *
 * @module
 */
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Membership, Store } from "@/lib/storage/types.ts";
import { openLink, sealedLinkKey, sealLink } from "./sealed_link.ts";

/** How long a turn-off link works: 60 days (the notice goes out 7 days before the charge). */
export const AUTO_RENEW_OFF_TTL_MS = 60 * 86_400_000;

const PURPOSE = "membership-autorenew-off/v1";
/** The action the token allows, checked too: the key is this link's alone, the claim says so again. */
const ACTION = "autorenew-off";

/** What a turn-off token names: one membership. */
export interface AutoRenewOffClaim {
  email: string;
  number: string;
}

/**
 * The turn-off tokens' key, derived from `APP_SECRET` (cached per secret).
 *
 * @example
 * ```ts
 * const key = await autoRenewOffKey(config.appSecret);
 * ```
 */
export function autoRenewOffKey(appSecret: string): Promise<Uint8Array> {
  return sealedLinkKey(appSecret, PURPOSE);
}

/**
 * A turn-off token for `claim`, valid {@link AUTO_RENEW_OFF_TTL_MS} from `now`.
 *
 * @example
 * ```ts
 * const token = await createAutoRenewOffToken(key, { email: "dana@museum.org", number: "7KQ3-9DXM" });
 * ```
 */
export function createAutoRenewOffToken(
  key: Uint8Array,
  claim: AutoRenewOffClaim,
  now: Date = new Date(),
): Promise<string> {
  const sub = claim.email.trim().toLowerCase();
  return sealLink(
    key,
    { sub, claims: { num: claim.number, act: ACTION }, ttlMs: AUTO_RENEW_OFF_TTL_MS },
    now,
  );
}

/**
 * What a turn-off token names, or null when it is not one, was changed or has expired. Never throws.
 *
 * @example
 * ```ts
 * const claim = await readAutoRenewOffToken(key, form.get("t") ?? "");
 * ```
 */
export async function readAutoRenewOffToken(
  key: Uint8Array,
  token: string,
  now: Date = new Date(),
): Promise<AutoRenewOffClaim | null> {
  const payload = await openLink(key, token, now);
  if (!payload || payload.act !== ACTION || typeof payload.num !== "string") return null;
  return { email: payload.sub, number: payload.num };
}

/**
 * The turn-off link's address (absolute, for an email).
 *
 * @example
 * ```ts
 * autoRenewOffUrl("https://donate.museum.org", "he", token); // "https://donate.museum.org/he/membership/auto-renew?t=…"
 * ```
 */
export function autoRenewOffUrl(publicUrl: string, lang: string, token: string): string {
  const url = new URL(`/${encodeURIComponent(lang)}/membership/auto-renew`, publicUrl);
  url.searchParams.set("t", token);
  return url.href;
}

/**
 * Turns the automatic renewal of the membership of `email` off and drops its card token; with
 * `number`, only while the membership has that number (a turn-off link's). Answers the membership as
 * stored, or null when there is none (or another number).
 *
 * @example
 * ```ts
 * await turnOffAutoRenew(store, "dana@museum.org", { number: "7KQ3-9DXM" });
 * ```
 */
export async function turnOffAutoRenew(
  store: Pick<Store, "memberships">,
  email: string,
  options: { number?: string; now?: Date } = {},
): Promise<Membership | null> {
  const at = (options.now ?? new Date()).toISOString();
  const stored = await store.memberships.change({
    email,
    apply: (current) =>
      current && current.autoRenew && (options.number === undefined || current.number === options.number)
        ? {
          number: current.number,
          donorId: current.donorId,
          subscriptionId: current.subscriptionId,
          terms: current.terms,
          autoRenew: null,
        }
        : null,
  }, at);
  if (stored) return stored;
  const current = await store.memberships.get(email);
  return current && (options.number === undefined || current.number === options.number) ? current : null;
}

/** The next automatic renewal charge of a membership, as pages and emails state it. */
export interface NextAutoRenewal {
  /** Minor units, in `currency`: the level's price now (null: the level is no longer offered). */
  amount: number | null;
  currency: 1 | 2;
  /** When it is charged: the end, or the retry after a decline. */
  date: string;
  last4: string | null;
  /** Declined charges for this end so far. */
  failedAttempts: number;
}

/**
 * What the next automatic renewal of `membership` will charge, and when; null while it is off.
 *
 * @example
 * ```ts
 * const next = await nextAutoRenewal(store, membership); // { amount: 18000, currency: 2, date, last4: "9015", … }
 * ```
 */
export async function nextAutoRenewal(
  store: Pick<Store, "museum">,
  membership: Membership,
): Promise<NextAutoRenewal | null> {
  const renew = membership.autoRenew;
  if (!renew) return null;
  const level = levelById((await readMuseumSettings(store)).levels, membership.terms.at(-1)!.levelId);
  return {
    amount: level ? (renew.currency === 1 ? level.price.nis : level.price.dollars) : null,
    currency: renew.currency,
    date: renew.retryAt ?? membership.end,
    last4: renew.last4,
    failedAttempts: renew.failedAttempts,
  };
}
