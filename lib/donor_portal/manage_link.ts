/**
 * The manage link every donor email carries: `/{lang}/account?token=…` (the donor portal, which
 * the token signs its donor in to), a personal, expiring token instead of the bare donor id, and
 * what a donor whose link has expired can ask for (a fresh one, sent to the email address on file).
 * The cancel page takes the same token (`/{lang}/cancel-subscription?token=…`), as links sent
 * before the portal did.
 *
 * Why the token is sealed (AES-256-GCM), not merely signed: the donor id is itself a permanent
 * capability (the spec's `?userId=` opens the same page, for ever), so a token that showed the id
 * in the clear would outlive its own expiry. Sealing keeps the id secret and makes any change to
 * the token fail its authentication tag. The key is derived from `APP_SECRET` for this one purpose
 * (`deriveKey`, HMAC-SHA256 of the purpose string), and the purpose is bound again as additional
 * data, so no other token or signed code of the app can be replayed as a manage token.
 *
 * Token: `m1.` + base64url(iv ‖ ciphertext ‖ tag) of `<expiry, unix seconds>:<donor id>`; about
 * 90 characters. Valid {@link MANAGE_LINK_TTL_MS} (60 days: a monthly donor gets a fresh one with
 * every receipt). An expired token is still authentic, so its page can offer a fresh link without
 * asking who the donor is.
 *
 * @module
 */
import { deriveKey } from "@/lib/staff/mod.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { addressBucket } from "@/lib/rate_limits/mod.ts";
import type { Store } from "@/lib/storage/types.ts";

/** How long a manage link works: 60 days. */
export const MANAGE_LINK_TTL_MS = 60 * 86_400_000;

/** The purpose its key is derived for (and its additional data): never shared with another token. */
const PURPOSE = "manage-link/v1";
const PREFIX = "m1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What a token seals: its expiry (unix seconds) and a donor id as `lib/core/ids.ts` makes them. */
const SEALED = /^(\d{1,12}):([A-Za-z0-9_-]{16,64})$/;
/** The longest token worth decoding: a donor id of 64 characters and then some. */
const MAX_TOKEN_LENGTH = 200;

/** What a manage token says, once read. */
export type ManageToken =
  /** Authentic and not expired. */
  | { kind: "valid"; donorId: string; expiresAt: Date }
  /** Authentic, but past its expiry: its page offers a fresh link. */
  | { kind: "expired"; donorId: string; expiresAt: Date }
  /** Not one of ours: malformed, tampered with, or sealed with another secret. */
  | { kind: "invalid" };

/** The sealing key of manage tokens, derived from the app secret (cached per secret). */
export type ManageLinkKey = CryptoKey;

// Bound: one key per APP_SECRET, so one entry in a server (a few in tests).
const keys = new Map<string, Promise<CryptoKey>>();

/**
 * The key manage tokens are sealed with, derived from `APP_SECRET` for this purpose only.
 *
 * @example
 * ```ts
 * const key = await manageLinkKey(config.appSecret);
 * ```
 */
export function manageLinkKey(appSecret: string): Promise<ManageLinkKey> {
  let key = keys.get(appSecret);
  if (!key) {
    key = deriveKey(appSecret, PURPOSE).then((raw) =>
      crypto.subtle.importKey("raw", new Uint8Array(raw), "AES-GCM", false, ["encrypt", "decrypt"])
    );
    keys.set(appSecret, key);
  }
  return key;
}

const ADDITIONAL_DATA = new TextEncoder().encode(PURPOSE);

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  try { // a character outside base64url only makes a token that fails its tag
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * A manage token for a donor, valid {@link MANAGE_LINK_TTL_MS} from `now`.
 *
 * @example
 * ```ts
 * const token = await createManageToken(key, donor.id);
 * ```
 */
export async function createManageToken(
  key: ManageLinkKey,
  donorId: string,
  now: Date = new Date(),
): Promise<string> {
  const plain = `${Math.floor((now.getTime() + MANAGE_LINK_TTL_MS) / 1000)}:${donorId}`;
  if (!SEALED.test(plain)) throw new RangeError("createManageToken: not a donor id");
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: ADDITIONAL_DATA },
    key,
    new TextEncoder().encode(plain),
  );
  const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), IV_BYTES);
  return PREFIX + toBase64Url(bytes);
}

/**
 * Reads a manage token: valid, expired (still authentic) or invalid. Never throws.
 *
 * @example
 * ```ts
 * const read = await readManageToken(key, url.searchParams.get("token") ?? "");
 * if (read.kind === "valid") showDonor(read.donorId);
 * ```
 */
export async function readManageToken(
  key: ManageLinkKey,
  token: string,
  now: Date = new Date(),
): Promise<ManageToken> {
  const invalid = { kind: "invalid" } as const;
  if (token.length > MAX_TOKEN_LENGTH || !token.startsWith(PREFIX)) return invalid;
  const bytes = fromBase64Url(token.slice(PREFIX.length));
  if (!bytes || bytes.length <= IV_BYTES + TAG_BYTES) return invalid;
  let plain: string;
  try {
    const opened = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: ADDITIONAL_DATA },
      key,
      bytes.subarray(IV_BYTES),
    );
    plain = new TextDecoder("utf-8", { fatal: true }).decode(opened);
  } catch {
    return invalid;
  }
  const m = plain.match(SEALED);
  if (!m) return invalid;
  const expiresAt = new Date(Number(m[1]) * 1000);
  return { kind: expiresAt.getTime() > now.getTime() ? "valid" : "expired", donorId: m[2], expiresAt };
}

/**
 * The manage link's address for a token, absolute (for an email): the donor portal, which signs
 * the donor in and shows every gift with its forms (change, pause, cancel...).
 *
 * @example
 * ```ts
 * manageLinkUrl("https://donate.museum.org", "he", token);
 * // "https://donate.museum.org/he/account?token=m1.…"
 * ```
 */
export function manageLinkUrl(publicUrl: string, lang: string, token: string): string {
  const url = new URL(`/${encodeURIComponent(lang)}/account`, publicUrl);
  url.searchParams.set("token", token);
  return url.href;
}

/** Stores a message for the outbox (the integrator wires the outbox's enqueue here). */
export type EnqueueMessage = (message: MessageInput) => Promise<void>;

/** Fresh links per donor (by email address) per {@link FRESH_LINK_WINDOW_MS}. */
export const FRESH_LINKS_PER_EMAIL = 3;
/** Fresh-link requests per client address bucket per {@link FRESH_LINK_WINDOW_MS}. */
export const FRESH_LINKS_PER_ADDRESS = 10;
/** The fresh-link limits' window: an hour. */
export const FRESH_LINK_WINDOW_MS = 3_600_000;
/** Requests within this span share one message key, so a double submit sends one email. */
const FRESH_LINK_DEDUPE_MS = 600_000;

/** Why a fresh link was not sent (for the log only: the page answers the same whatever happens). */
export type FreshLinkOutcome = "sent" | "invalid" | "unknown-donor" | "rate-limited";

/**
 * Asks for a fresh manage link for the donor of an authentic (usually expired) token: counted
 * against the client's address and the donor's email address (rate limits in storage), then a
 * `manage-link` message is enqueued to the donor, in `lang`. The answer is for the log: the page
 * says the same whatever it is, so it tells nobody whether a token or an address is known.
 *
 * @example
 * ```ts
 * await requestFreshLink({ store, enqueue, key }, { token, lang: "he", address: "203.0.113.7" });
 * ```
 */
export async function requestFreshLink(
  deps: { store: Pick<Store, "donors" | "rateLimits">; enqueue: EnqueueMessage; key: ManageLinkKey },
  request: { token: string; lang: string; address: string },
  now: Date = new Date(),
): Promise<FreshLinkOutcome> {
  const read = await readManageToken(deps.key, request.token, now);
  if (read.kind === "invalid") return "invalid";
  const donor = await deps.store.donors.get(read.donorId);
  if (!donor) return "unknown-donor";
  const hits = await deps.store.rateLimits.hitInOrder(
    [
      { key: `manage-link:addr:${addressBucket(request.address)}`, limit: FRESH_LINKS_PER_ADDRESS },
      { key: `manage-link:email:${donor.email}`, limit: FRESH_LINKS_PER_EMAIL },
    ],
    FRESH_LINK_WINDOW_MS,
    now.getTime(),
  );
  if (hits.some((hit) => !hit.allowed)) return "rate-limited";
  await deps.enqueue({
    key: `manage-link:${donor.id}:${Math.floor(now.getTime() / FRESH_LINK_DEDUPE_MS)}`,
    kind: "manage-link",
    to: { donorId: donor.id },
    language: request.lang,
    data: {},
  });
  return "sent";
}
