/**
 * The one-click renewal link of the renewal emails: `/{lang}/?renew=<token>` opens the donation
 * page at the member's level with the member's details filled in. The token names the membership's
 * email and level and expires ({@link RENEWAL_LINK_TTL_MS}).
 *
 * The token is sealed as every membership link is (`sealed_link.ts`: encrypted, so the address in it
 * shows nothing; under a key for renewals alone, so no other token opens as one). The page it opens
 * fills in what the donor record says, as the manage link shows a donor their gifts: whoever holds
 * the email holds the link.
 *
 * @module
 */
import { openLink, sealedLinkKey, sealLink } from "./sealed_link.ts";

/** How long a renewal link works from the email that carries it: 60 days. */
export const RENEWAL_LINK_TTL_MS = 60 * 86_400_000;

const PURPOSE = "membership-renewal/v1";

/** The key renewal tokens are sealed with. */
export type RenewalKey = Uint8Array;

/**
 * The renewal tokens' key, derived from `APP_SECRET` (cached per secret).
 *
 * @example
 * ```ts
 * const key = await renewalKey(config.appSecret);
 * ```
 */
export function renewalKey(appSecret: string): Promise<RenewalKey> {
  return sealedLinkKey(appSecret, PURPOSE);
}

/** What a renewal token names. */
export interface RenewalClaim {
  /** The membership's email, normalized. */
  email: string;
  /** The level to renew at. */
  levelId: number;
}

/**
 * A renewal token for `claim`, valid {@link RENEWAL_LINK_TTL_MS} from `now`.
 *
 * @example
 * ```ts
 * const token = await createRenewalToken(key, { email: "dana@museum.org", levelId: 2 });
 * ```
 */
export function createRenewalToken(
  key: RenewalKey,
  claim: RenewalClaim,
  now: Date = new Date(),
): Promise<string> {
  const sub = claim.email.trim().toLowerCase();
  return sealLink(key, { sub, claims: { lvl: claim.levelId }, ttlMs: RENEWAL_LINK_TTL_MS }, now);
}

/**
 * What a renewal token names, or null when it is not one of ours, was changed, or has expired.
 * Never throws.
 *
 * @example
 * ```ts
 * const claim = await readRenewalToken(key, url.searchParams.get("renew") ?? "");
 * ```
 */
export async function readRenewalToken(
  key: RenewalKey,
  token: string,
  now: Date = new Date(),
): Promise<RenewalClaim | null> {
  const payload = await openLink(key, token, now);
  if (!payload || !Number.isInteger(payload.lvl)) return null;
  return { email: payload.sub, levelId: payload.lvl as number };
}

/**
 * The renewal link's address (absolute, for an email).
 *
 * @example
 * ```ts
 * renewalLinkUrl("https://donate.museum.org", "he", token); // "https://donate.museum.org/he/?renew=…"
 * ```
 */
export function renewalLinkUrl(publicUrl: string, lang: string, token: string): string {
  const url = new URL(`/${encodeURIComponent(lang)}/`, publicUrl);
  url.searchParams.set("renew", token);
  return url.href;
}
