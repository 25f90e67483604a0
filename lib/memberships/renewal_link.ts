/**
 * The one-click renewal link of the renewal emails: `/{lang}/?renew=<token>` opens the donation
 * page at the member's level with the member's details filled in. The token names the membership's
 * email and level and expires ({@link RENEWAL_LINK_TTL_MS}).
 *
 * Why encrypted (a JWE, `dir` + A256GCM, with `jose`), not only signed: the token is in a URL (the
 * address bar, history, a forwarded email) and the email address in it is personal; sealed, it
 * shows nothing, and any change fails its tag. The key is derived from `APP_SECRET` for this one
 * purpose (`deriveKey`), so no other token of the app opens as a renewal token. The page it opens
 * fills in what the donor record says, as the manage link shows a donor their gifts: whoever holds
 * the email holds the link.
 *
 * @module
 */
import { deriveKey } from "@/lib/staff/mod.ts";

/** How long a renewal link works from the email that carries it: 60 days. */
export const RENEWAL_LINK_TTL_MS = 60 * 86_400_000;

const PURPOSE = "membership-renewal/v1";
/** Longer than any token this module makes (about 230 characters). */
const MAX_TOKEN_LENGTH = 600;

/** The key renewal tokens are sealed with. */
export type RenewalKey = Uint8Array;

const keys = new Map<string, Promise<RenewalKey>>();

/**
 * The renewal tokens' key, derived from `APP_SECRET` (cached per secret).
 *
 * @example
 * ```ts
 * const key = await renewalKey(config.appSecret);
 * ```
 */
export function renewalKey(appSecret: string): Promise<RenewalKey> {
  let key = keys.get(appSecret);
  if (!key) keys.set(appSecret, key = deriveKey(appSecret, PURPOSE));
  return key;
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
export async function createRenewalToken(
  key: RenewalKey,
  claim: RenewalClaim,
  now: Date = new Date(),
): Promise<string> {
  // jose loads with the first token made or read: the donation page imports this module for every
  // visitor, and only a renewal link's visitor needs it.
  const { EncryptJWT } = await import("jose");
  return await new EncryptJWT({ lvl: claim.levelId })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setSubject(claim.email.trim().toLowerCase())
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor((now.getTime() + RENEWAL_LINK_TTL_MS) / 1000))
    .encrypt(key);
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
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  try {
    const { jwtDecrypt } = await import("jose");
    const { payload } = await jwtDecrypt(token, key, {
      currentDate: now,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["sub", "exp"],
    });
    const levelId = payload.lvl;
    if (typeof payload.sub !== "string" || !Number.isInteger(levelId)) return null;
    return { email: payload.sub, levelId: levelId as number };
  } catch {
    return null;
  }
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
