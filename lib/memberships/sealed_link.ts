/**
 * The sealing shared by the memberships' emailed links (the renewal link, the automatic renewal's
 * turn-off link): a token that names one person and what the link may do, sealed so a URL shows
 * nothing and any change fails.
 *
 * Why encrypted (a JWE, `dir` + A256GCM, with `jose`), not only signed: the token is in a URL (the
 * address bar, history, a forwarded email) and the email address in it is personal; sealed, it
 * shows nothing, and any change fails its tag. Each kind of link has its own key, derived from
 * `APP_SECRET` for its purpose alone (`deriveKey`), so a token of one kind never opens as another,
 * and no other token of the app opens as either. `jose` loads with the first link sealed or opened,
 * not with the page that only derives the key.
 *
 * @example
 * ```ts
 * const key = await sealedLinkKey(config.appSecret, "membership-renewal/v1");
 * const token = await sealLink(key, { sub: "dana@museum.org", claims: { lvl: 2 }, ttlMs: 86_400_000 });
 * const payload = await openLink(key, token); // { sub: "dana@museum.org", lvl: 2, iat, exp }, or null
 * ```
 *
 * @module
 */
import { deriveKey } from "@/lib/staff/mod.ts";

/** Longer than any token these links make (about 230 characters); a longer one is refused unread. */
export const MAX_SEALED_LINK_LENGTH = 600;

/** A link kind's key (32 bytes, for A256GCM). */
export type SealedLinkKey = Uint8Array;

// Bound: one key per link kind (2) and APP_SECRET (one in a server, a few in tests).
const keys = new Map<string, Promise<SealedLinkKey>>();

/**
 * The key of the links made for `purpose`, derived from `appSecret` (cached per purpose and secret).
 *
 * @example
 * ```ts
 * const key = await sealedLinkKey(config.appSecret, "membership-autorenew-off/v1");
 * ```
 */
export function sealedLinkKey(appSecret: string, purpose: string): Promise<SealedLinkKey> {
  const id = `${purpose}\n${appSecret}`;
  let key = keys.get(id);
  if (!key) keys.set(id, key = deriveKey(appSecret, purpose));
  return key;
}

/** What a sealed link says: whom it names, its own claims, and how long it works. */
export interface SealedLinkContent {
  /** The person the link names (stored as given; callers normalize). */
  sub: string;
  /** The link kind's own claims (short names: they travel in a URL). */
  claims: Record<string, string | number>;
  /** How long the link works from `now`. */
  ttlMs: number;
}

/**
 * A token sealing `content` under `key`, valid `content.ttlMs` from `now`.
 *
 * @example
 * ```ts
 * const token = await sealLink(key, { sub: "dana@museum.org", claims: { lvl: 2 }, ttlMs: 86_400_000 });
 * ```
 */
export async function sealLink(
  key: SealedLinkKey,
  content: SealedLinkContent,
  now: Date = new Date(),
): Promise<string> {
  const { EncryptJWT } = await import("jose");
  return await new EncryptJWT(content.claims)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setSubject(content.sub)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor((now.getTime() + content.ttlMs) / 1000))
    .encrypt(key);
}

/**
 * The claims of a token sealed under `key`, with its subject, or null when it is empty, longer than
 * {@link MAX_SEALED_LINK_LENGTH}, not sealed under this key, changed, or expired. Never throws; the
 * caller checks its own claims' types.
 *
 * @example
 * ```ts
 * const payload = await openLink(key, url.searchParams.get("renew") ?? "");
 * if (payload && Number.isInteger(payload.lvl)) ...
 * ```
 */
export async function openLink(
  key: SealedLinkKey,
  token: string,
  now: Date = new Date(),
): Promise<({ sub: string } & Record<string, unknown>) | null> {
  if (token.length === 0 || token.length > MAX_SEALED_LINK_LENGTH) return null;
  try {
    const { jwtDecrypt } = await import("jose");
    const { payload } = await jwtDecrypt(token, key, {
      currentDate: now,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["sub", "exp"],
    });
    if (typeof payload.sub !== "string") return null;
    return payload as { sub: string } & Record<string, unknown>;
  } catch {
    return null;
  }
}
