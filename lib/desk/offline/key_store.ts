/**
 * The museum's public card key as the desk keeps it (issue 28, item 2): fetched from
 * `/.well-known/member-card-key.json` at each sync and kept in the browser's `localStorage` with the
 * time of that sync, so cards are checked offline and the desk can say when it last synced.
 *
 * @module
 */
import type { CardPublicJwk } from "./card_check.ts";

/** The `localStorage` key the desk keeps the card key under. */
export const CARD_KEY_STORAGE = "museum-desk.card-key";
/** Where the server serves the key. */
export const CARD_KEY_URL = "/.well-known/member-card-key.json";

/** The key as kept: the JWK and when it was fetched (ISO 8601). */
export interface StoredCardKey {
  jwk: CardPublicJwk;
  syncedAt: string;
}

function isJwk(value: unknown): value is CardPublicJwk {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && v.kty === "OKP" && v.crv === "Ed25519" &&
    typeof v.x === "string" && /^[A-Za-z0-9_-]{43}$/.test(v.x);
}

/**
 * The key kept at the last sync, or null (never synced, or storage unreadable).
 *
 * @example
 * ```ts
 * const kept = storedCardKey(); // { jwk, syncedAt: "2026-11-29T20:00:00.000Z" } | null
 * ```
 */
export function storedCardKey(storage: Storage | undefined = globalThis.localStorage): StoredCardKey | null {
  try {
    const kept = JSON.parse(storage?.getItem(CARD_KEY_STORAGE) ?? "null");
    return kept && isJwk(kept.jwk) && typeof kept.syncedAt === "string" ? kept : null;
  } catch {
    return null;
  }
}

/**
 * Fetches the key and keeps it with the time; answers what is kept afterwards (the earlier key when
 * the fetch fails: offline, the kept one is what the desk checks with).
 *
 * @example
 * ```ts
 * const kept = await syncCardKey(); // on page load and when the network returns
 * ```
 */
export async function syncCardKey(
  fetcher: typeof fetch = fetch,
  storage: Storage | undefined = globalThis.localStorage,
  now: () => Date = () => new Date(),
): Promise<StoredCardKey | null> {
  try {
    const res = await fetcher(CARD_KEY_URL, { cache: "no-cache" });
    const jwk = res.ok ? await res.json() : null;
    // A worker's cached copy answered offline is no sync: only a network answer moves the time.
    if (isJwk(jwk) && res.headers.get("x-desk-offline") === null) {
      const kept: StoredCardKey = {
        jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid },
        syncedAt: now().toISOString(),
      };
      storage?.setItem(CARD_KEY_STORAGE, JSON.stringify(kept));
      return kept;
    }
  } catch {
    // Offline, or storage full or denied: keep what there is.
  }
  return storedCardKey(storage);
}
