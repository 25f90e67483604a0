/**
 * Signing a donor in to the portal (`/{lang}/account`) by email, with no password (issue 15).
 *
 * A donor is an email address here: every donor record with that address is the same person. The
 * donor asks for a link; when the address has donor records, a `sign-in-link` message is enqueued
 * to it. Whatever the address, the page answers the same (no enumeration), and requests are counted
 * per client address bucket and per email address before anything is looked up, so the limits
 * cannot tell known from unknown addresses either.
 *
 * The link's token is `s1.<id>.<mac>`: `id` is 128 random bits, `mac` the HMAC-SHA256 of it under a
 * key derived from `APP_SECRET` for this purpose only. Signed, so a tampered token is refused before
 * storage is asked; stored hashed (SHA-256 of the whole token, `store.donorSessions`), so a database
 * leak signs nobody in; and the outbox keeps only the `id`: the email's renderer signs it again when
 * it sends, so no usable token sits in storage either. A link works once, for
 * {@link SIGN_IN_TTL_MS}.
 *
 * Following it creates a `full` session: a new random token in a cookie (`donor_cookie.ts`), stored
 * hashed, ending after {@link SESSION_TTL_MS} or when the donor signs out (revoked). A manage link
 * (`lib/donor_portal/manage_link.ts`) makes a `manage` session instead (`link_sign_in.ts`); what each may do is
 * `access.ts`'s. Either link's GET only shows a button; and a session the browser holds for another
 * address is replaced only when the donor chooses so ({@link standing}).
 *
 * @module
 */
import { deriveKey, hashRefreshToken } from "@/lib/staff/mod.ts";
import { equalSecrets } from "@/lib/core/constant_time.ts";
import { addressBucket } from "@/lib/rate_limits/mod.ts";
import type { DonorSession, SignInRefusal, Store } from "@/lib/storage/types.ts";

/** How long a sign-in link works: 30 minutes. */
export const SIGN_IN_TTL_MS = 30 * 60_000;
/** How long a session lasts at most: a day. */
export const SESSION_TTL_MS = 86_400_000;
/** Sign-in links asked for per email address per {@link SIGN_IN_WINDOW_MS}. */
export const SIGN_INS_PER_EMAIL = 5;
/** Sign-in links asked for per client address bucket per {@link SIGN_IN_WINDOW_MS}. */
export const SIGN_INS_PER_ADDRESS = 20;
/** The sign-in limits' window: an hour. */
export const SIGN_IN_WINDOW_MS = 3_600_000;

/** The key sign-in links are signed with (HMAC-SHA256), derived from `APP_SECRET`. */
export type SignInKey = CryptoKey;

const PURPOSE = "donor-sign-in/v1";
const TOKEN = /^s1\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
// Bound: one key per APP_SECRET, so one entry in a server (a few in tests).
const keys = new Map<string, Promise<CryptoKey>>();

/**
 * The sign-in links' key for `appSecret` (cached per secret).
 *
 * @example
 * ```ts
 * const key = await signInKey(config.appSecret);
 * ```
 */
export function signInKey(appSecret: string): Promise<SignInKey> {
  let key = keys.get(appSecret);
  if (!key) {
    key = deriveKey(appSecret, PURPOSE).then((raw) =>
      crypto.subtle.importKey("raw", new Uint8Array(raw), { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
        "verify",
      ])
    );
    keys.set(appSecret, key);
  }
  return key;
}

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A new random id of 128 bits, base64url. */
const randomId = () => base64Url(crypto.getRandomValues(new Uint8Array(16)));

/**
 * The link token of sign-in `id`: the same for the same id and key, so the email's renderer makes
 * it again from the id the outbox keeps.
 *
 * @example
 * ```ts
 * const token = await signInToken(key, signInId); // "s1.…"
 * ```
 */
export async function signInToken(key: SignInKey, id: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id)));
  return `s1.${id}.${base64Url(mac)}`;
}

/** Whether `token` is one of ours (well formed, its signature right); never throws. */
export async function isSignedToken(key: SignInKey, token: string): Promise<boolean> {
  const m = TOKEN.exec(token);
  if (!m) return false;
  // Recompute and compare in constant time: the mac is deterministic, both sides our own encoding.
  return equalSecrets(await signInToken(key, m[1]), token);
}

/**
 * The address of a sign-in link, absolute (for an email).
 *
 * @example
 * ```ts
 * signInUrl("https://donate.museum.org", "he", token); // ".../he/account/sign-in?t=s1.…"
 * ```
 */
export function signInUrl(publicUrl: string, lang: string, token: string): string {
  const url = new URL(`/${encodeURIComponent(lang)}/account/sign-in`, publicUrl);
  url.searchParams.set("t", token);
  return url.href;
}

/**
 * What {@link requestSignIn} did, for the log only (the page answers the same for `sent` and
 * `no-donor`); a refusal says when the fullest limit has room again.
 */
export type SignInRequestOutcome =
  | { outcome: "sent" | "no-donor" }
  | { outcome: "rate-limited"; retryAfterMs: number };

/** What {@link requestSignIn} needs. */
export interface SignInDeps {
  store: Pick<Store, "donors" | "rateLimits" | "donorSessions">;
  key: SignInKey;
}

/**
 * A donor asks for a sign-in link for `email` (normalized) from the client at `address`: counted
 * first (address bucket, then email), then, when the address has donor records, a link is stored
 * and a `sign-in-link` message enqueued to it, in `lang`.
 *
 * @example
 * ```ts
 * await requestSignIn({ store, key }, { email: "ada@example.org", lang: "he", address: ip });
 * ```
 */
export async function requestSignIn(
  deps: SignInDeps,
  request: { email: string; lang: string; address: string },
  now: Date = new Date(),
): Promise<SignInRequestOutcome> {
  const hits = await deps.store.rateLimits.hitInOrder(
    [
      { key: `sign-in:addr:${addressBucket(request.address)}`, limit: SIGN_INS_PER_ADDRESS },
      { key: `sign-in:email:${request.email}`, limit: SIGN_INS_PER_EMAIL },
    ],
    SIGN_IN_WINDOW_MS,
    now.getTime(),
  );
  const refused = hits.find((hit) => !hit.allowed);
  if (refused) return { outcome: "rate-limited", retryAfterMs: refused.retryAfterMs };
  const [donorId] = await deps.store.donors.idsByEmail(request.email, 1);
  if (donorId === undefined) return { outcome: "no-donor" };
  const id = randomId();
  // The hash of the token, computed here from the id alone: the token itself is never stored. The
  // link and its email are written in one atomic step.
  await deps.store.donorSessions.createSignIn({
    hash: await hashRefreshToken(await signInToken(deps.key, id)),
    email: request.email,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SIGN_IN_TTL_MS).toISOString(),
    usedAt: null,
  }, {
    messages: [{
      key: `sign-in:${id}`,
      kind: "sign-in-link",
      to: { donorId },
      language: request.lang,
      data: { signInId: id },
    }],
  });
  return { outcome: "sent" };
}

/** A new session's cookie token and the session as stored. */
export interface NewSession {
  /** The cookie's value (never stored). */
  token: string;
  session: DonorSession;
}

/**
 * What {@link signIn} answers: a session, the choice to offer (the browser is signed in as
 * `current`, another address than the link's `email`), or why the link is refused (`invalid`: not
 * ours).
 */
export type SignInResult =
  | { ok: true } & NewSession
  | { ok: false; reason: "choose"; email: string; current: string }
  | { ok: false; reason: SignInRefusal | "invalid" };

/**
 * How the browser's session (`current`) stands to a link for `email`'s records (`donorId`: a
 * manage link's record; null for a one-time link, which reaches the whole address): `covered` (it
 * reaches what the link would; a manage link only), `same` (the same address: the link replaces
 * it), `other` (another address: the donor chooses), `none`.
 *
 * @example
 * ```ts
 * standing(session, "ada@example.org", donorId); // "covered" when session is ada's full one
 * ```
 */
export function standing(
  current: DonorSession | null,
  email: string,
  donorId: string | null,
): "covered" | "same" | "other" | "none" {
  if (current === null) return "none";
  if (current.email !== email) return "other";
  if (donorId !== null && (current.scope === "full" || current.donorId === donorId)) return "covered";
  return "same";
}

/** What a sign-in link's page shows (its GET): the button, the choice, or the refusal. */
export type SignInView =
  | { kind: "confirm"; email: string }
  | { kind: "choose"; email: string; current: string }
  | { kind: "refused"; reason: SignInRefusal | "invalid" };

/**
 * What a sign-in link's page shows to a browser holding `current` (or none); reads only, so a mail
 * scanner opening the link uses nothing up.
 *
 * @example
 * ```ts
 * const view = await viewSignIn({ store, key }, token, session);
 * ```
 */
export async function viewSignIn(
  deps: { store: Pick<Store, "donorSessions">; key: SignInKey },
  token: string,
  current: DonorSession | null,
  now: Date = new Date(),
): Promise<SignInView> {
  if (!(await isSignedToken(deps.key, token))) return { kind: "refused", reason: "invalid" };
  const link = await deps.store.donorSessions.getSignIn(await hashRefreshToken(token));
  if (!link) return { kind: "refused", reason: "unknown" };
  if (link.usedAt !== null) return { kind: "refused", reason: "used" };
  if (Date.parse(link.expiresAt) <= now.getTime()) return { kind: "refused", reason: "expired" };
  return standing(current, link.email, null) === "other"
    ? { kind: "choose", email: link.email, current: current!.email }
    : { kind: "confirm", email: link.email };
}

/** A new session's cookie token and the parts of its record every session has, from `now`. */
export async function newSession(
  now: Date,
): Promise<{ token: string; record: Omit<DonorSession, "email" | "revokedAt" | "scope" | "donorId"> }> {
  const token = base64Url(crypto.getRandomValues(new Uint8Array(32)));
  return {
    token,
    record: {
      hash: await hashRefreshToken(token),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    },
  };
}

/**
 * Follows a sign-in link: a tampered or malformed token is refused without asking storage; a link
 * for another address than the browser's session (`current`) is left unused unless `switchTo`
 * (the choice again); otherwise it is used (once, before it expires), a full session made for its
 * address, and `current` revoked.
 *
 * @example
 * ```ts
 * const result = await signIn({ store, key }, token, { current, switchTo: false });
 * if (result.ok) headers.set("set-cookie", sessionCookie(result.token, config));
 * ```
 */
export async function signIn(
  deps: { store: Pick<Store, "donorSessions">; key: SignInKey },
  token: string,
  browser: { current: DonorSession | null; switchTo: boolean } = { current: null, switchTo: false },
  now: Date = new Date(),
): Promise<SignInResult> {
  if (!(await isSignedToken(deps.key, token))) return { ok: false, reason: "invalid" };
  const hash = await hashRefreshToken(token);
  const { current } = browser;
  if (current && !browser.switchTo) {
    const link = await deps.store.donorSessions.getSignIn(hash);
    if (link && standing(current, link.email, null) === "other") {
      return { ok: false, reason: "choose", email: link.email, current: current.email };
    }
  }
  const { token: cookie, record } = await newSession(now);
  const answer = await deps.store.donorSessions.redeemSignIn(hash, now.toISOString(), record);
  if (!answer.ok) return answer;
  if (current) await deps.store.donorSessions.revokeSession(current.hash, now.toISOString());
  return { ok: true, token: cookie, session: answer.session };
}

/** Session cookie tokens are 32 random bytes, base64url: anything else is not looked up. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The session a cookie token opens at `now`, or null (no such session, expired, or revoked).
 *
 * @example
 * ```ts
 * const session = await currentSession(store, readSessionCookie(req));
 * ```
 */
export async function currentSession(
  store: Pick<Store, "donorSessions">,
  token: string | null,
  now: Date = new Date(),
): Promise<DonorSession | null> {
  if (token === null || !SESSION_TOKEN.test(token)) return null;
  const session = await store.donorSessions.getSession(await hashRefreshToken(token));
  if (!session || session.revokedAt !== null) return null;
  return Date.parse(session.expiresAt) > now.getTime() ? session : null;
}

/**
 * Signs out: the session of this cookie token is revoked (idempotent; an unknown token is ignored).
 *
 * @example
 * ```ts
 * await signOut(store, readSessionCookie(req));
 * ```
 */
export async function signOut(
  store: Pick<Store, "donorSessions">,
  token: string | null,
  now: Date = new Date(),
): Promise<void> {
  if (token === null || !SESSION_TOKEN.test(token)) return;
  await store.donorSessions.revokeSession(await hashRefreshToken(token), now.toISOString());
}
