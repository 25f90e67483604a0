/**
 * Kiosk devices (issue 13, "kiosks only from kiosks"): a card terminal takes sales only from a
 * kiosk an approved admin paired. The admin creates a device in the back office (name, shop, and
 * the shop's terminal) and gets a one-time pairing code, valid {@link PAIRING_CODE_TTL_MS}; opening
 * its link (or typing it) on the kiosk exchanges it for a device credential, a random secret the
 * kiosk keeps in an HttpOnly cookie (`lib/http/kiosk_cookie.ts`). A terminal sale then needs that
 * credential, for the sale's shop, from a device not revoked ({@link authoriseKioskSale}).
 *
 * Only SHA-256 hashes of the code and the credential are stored (a plain hash suffices: both are
 * random, 60 and 256 bits, and the code lives minutes), as refresh tokens are.
 *
 * @module
 */
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import type { AuditInput } from "@/lib/storage/audit_types.ts";
import { newId } from "@/lib/core/ids.ts";
import { terminalFor } from "@/lib/providers/mod.ts";
import { randomHex } from "@/lib/core/random.ts";
import type { Admin, KioskDevice, Store } from "@/lib/storage/types.ts";
import { FALLBACK_LANG, type Lang } from "@/lib/shared/languages.ts";
import {
  type DeviceRefusal,
  KioskDeviceRequiredError,
  KioskDeviceRevokedError,
  NoSuchKioskDeviceError,
  NoTerminalForShopError,
  PairingCodeError,
} from "./errors.ts";

/** How long a pairing code works. */
export const PAIRING_CODE_TTL_MS = 15 * 60 * 1000;
/** A device's last use is written at most this often. */
export const TOUCH_INTERVAL_MS = 60 * 1000;
/** Crockford's base32 alphabet: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** 12 characters of 5 bits: 60 bits, for a code that lives 15 minutes. */
const CODE_LENGTH = 12;

/** A device as the back office sees it: no hashes. */
export interface KioskDeviceView {
  id: string;
  name: string;
  shopNumber: string;
  terminalId: string;
  createdAt: string;
  paired: boolean;
  pairedAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** When the current pairing code stops working; null with none. */
  pairingExpiresAt: string | null;
}

/** A pairing code, shown once: the code (grouped `XXXX-XXXX-XXXX`) and when it stops working. */
export interface PairingCode {
  code: string;
  expiresAt: string;
}

/** The hex SHA-256 of a secret (a pairing code, normalized, or a device credential). */
export async function hashSecret(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A code as typed, normalized: upper case, without spaces or dashes, with O read as 0 and I, L as 1
 * (Crockford's rule). Answers null when it cannot be a code.
 *
 * @example
 * ```ts
 * normalizePairingCode("abcd-efgh 1234"); // "ABCDEFGH1234"
 * ```
 */
export function normalizePairingCode(typed: string): string | null {
  if (typed.length > 64) return null;
  const code = typed.toUpperCase().replace(/[\s-]/g, "").replaceAll("O", "0").replace(/[IL]/g, "1");
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null;
}

function newPairingCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
  // 256 is a multiple of 32: every character equally likely.
  const code = Array.from(bytes, (b) => CODE_ALPHABET[b % 32]).join("");
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

async function issueCode(
  store: Store,
  id: string,
  now: Date,
  audit: AuditInput,
): Promise<PairingCode> {
  const code = newPairingCode();
  const expiresAt = new Date(now.getTime() + PAIRING_CODE_TTL_MS).toISOString();
  // Issuing the code is the staff's pairing step: audited (`kiosk-paired`) in the same write.
  const device = await store.kioskDevices.setPairingCode(
    id,
    await hashSecret(normalizePairingCode(code)!),
    expiresAt,
    { audit: [audit], at: now.toISOString() },
  );
  if (!device) {
    throw (await store.kioskDevices.get(id)) ? new KioskDeviceRevokedError() : new NoSuchKioskDeviceError();
  }
  return { code, expiresAt };
}

/** What the back office shows of a device. */
export function deviceView(d: KioskDevice): KioskDeviceView {
  return {
    id: d.id,
    name: d.name,
    shopNumber: d.shopNumber,
    terminalId: d.terminalId,
    createdAt: d.createdAt,
    paired: d.credentialHash !== null,
    pairedAt: d.pairedAt,
    lastUsedAt: d.lastUsedAt,
    revokedAt: d.revokedAt,
    pairingExpiresAt: d.pairingCodeHash ? d.pairingExpiresAt : null,
  };
}

/**
 * Creates a device for a shop with a terminal (`TERMINALS`, or any shop on the sandbox) and its
 * first pairing code.
 *
 * @example
 * ```ts
 * const { device, pairing } = await createKioskDevice(store, config, admin, { name: "Hall", shopNumber: "12" });
 * ```
 */
export async function createKioskDevice(
  store: Store,
  config: Parameters<typeof terminalFor>[0],
  by: Admin | Actor,
  input: { name: string; shopNumber: string },
  now = new Date(),
): Promise<{ device: KioskDeviceView; pairing: PairingCode }> {
  // An admin alone (tests, tools): no client address to record.
  const actor: Actor = "admin" in by ? by : { admin: by, address: "" };
  const admin = actor.admin;
  const terminalId = terminalFor(config, input.shopNumber);
  if (!terminalId) throw new NoTerminalForShopError(input.shopNumber);
  const device: KioskDevice = {
    id: newId(),
    name: input.name,
    shopNumber: input.shopNumber,
    terminalId,
    createdBy: admin.id,
    createdAt: now.toISOString(),
    pairingCodeHash: null,
    pairingExpiresAt: null,
    credentialHash: null,
    pairedAt: null,
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.kioskDevices.create(device);
  const pairing = await issueCode(
    store,
    device.id,
    now,
    actorEntry(actor, "kiosk-paired", device.id, {
      device: { name: device.name, shopNumber: device.shopNumber },
      pairingCode: "issued",
      created: true,
    }),
  );
  return { device: deviceView((await store.kioskDevices.get(device.id))!), pairing };
}

/** A new pairing code for a device (re-pairing, or a code that expired); the earlier code stops working. */
export async function renewPairingCode(
  store: Store,
  id: string,
  actor: Actor,
  now = new Date(),
): Promise<PairingCode> {
  return await issueCode(store, id, now, actorEntry(actor, "kiosk-paired", id, { pairingCode: "issued" }));
}

/**
 * Every device, newest first, as the back office shows them; with `unseen`, only the paired ones
 * not seen for a day ({@link unseenDevices}), longest unseen first.
 */
export async function listKioskDevices(
  store: Store,
  options: { unseen?: boolean; now?: Date } = {},
): Promise<KioskDeviceView[]> {
  const devices = await store.kioskDevices.list();
  return (options.unseen ? unseenDevices(devices, options.now ?? new Date()) : devices).map(deviceView);
}

/** A paired kiosk with no sale (nor pairing) for this long is "not seen" (issue 26's overview). */
export const UNSEEN_AFTER_MS = 24 * 60 * 60 * 1000;

/** When a device was last seen: its last sale, else its pairing; null when it was never paired. */
export const lastSeenAt = (d: Pick<KioskDevice, "lastUsedAt" | "pairedAt">): string | null =>
  d.lastUsedAt ?? d.pairedAt;

/**
 * The paired, unrevoked devices last seen ({@link lastSeenAt}) more than {@link UNSEEN_AFTER_MS}
 * before `now`, longest unseen first: a kiosk that may be off, unplugged or signed out.
 *
 * @example
 * ```ts
 * unseenDevices(await store.kioskDevices.list(), new Date()); // [{ name: "Entrance hall", … }]
 * ```
 */
export function unseenDevices(devices: readonly KioskDevice[], now: Date): KioskDevice[] {
  const before = new Date(now.getTime() - UNSEEN_AFTER_MS).toISOString();
  return devices
    .filter((d) => d.credentialHash !== null && d.revokedAt === null && (lastSeenAt(d) ?? "") < before)
    .sort((a, b) => (lastSeenAt(a) ?? "").localeCompare(lastSeenAt(b) ?? "") || a.id.localeCompare(b.id));
}

/** Revokes a device: its credential and pairing code stop working, for good. */
export async function revokeKioskDevice(
  store: Store,
  id: string,
  actor: Actor,
  now = new Date(),
): Promise<KioskDeviceView> {
  // Audited (`kiosk-revoked`) only by the call that revokes it, in the same write.
  const device = await store.kioskDevices.revoke(id, now.toISOString(), {
    audit: [actorEntry(actor, "kiosk-revoked", id, { revoked: { from: false, to: true } })],
  });
  if (!device) throw new NoSuchKioskDeviceError();
  return deviceView(device);
}

/**
 * Pairs the kiosk presenting `typed`: answers the device and its new credential (for the cookie),
 * or throws {@link PairingCodeError}. The code works once.
 *
 * @example
 * ```ts
 * const { device, credential } = await pairKiosk(store, form.code);
 * ```
 */
export async function pairKiosk(
  store: Store,
  typed: string,
  now = new Date(),
): Promise<{ device: KioskDevice; credential: string }> {
  const code = normalizePairingCode(typed);
  if (!code) throw new PairingCodeError();
  const credential = randomHex(32);
  const device = await store.kioskDevices.pair(
    await hashSecret(code),
    await hashSecret(credential),
    now.toISOString(),
  );
  if (!device) throw new PairingCodeError();
  return { device, credential };
}

/**
 * The paired device that authorises a terminal sale for `shopNumber`, from the kiosk's credential
 * (its cookie); throws {@link KioskDeviceRequiredError} with the reason otherwise (its message
 * names the pairing page in `lang`, the sale's language). Records the use (at most once a
 * {@link TOUCH_INTERVAL_MS}).
 *
 * @example
 * ```ts
 * const device = await authoriseKioskSale(store, readDeviceCookie(req), "12");
 * ```
 */
export async function authoriseKioskSale(
  store: Store,
  credential: string | null,
  shopNumber: string,
  now = new Date(),
  lang: Lang = FALLBACK_LANG,
): Promise<KioskDevice> {
  const found = await deviceForSale(store, credential, shopNumber);
  if (typeof found === "string") throw new KioskDeviceRequiredError(found, lang);
  await store.kioskDevices.touch(found.id, now.toISOString(), TOUCH_INTERVAL_MS);
  return found;
}

/**
 * Why the kiosk holding `credential` could not start a sale for `shopNumber`, or null when it
 * could: the rule of {@link authoriseKioskSale}, read only, for the kiosk page to say so when it
 * opens rather than when a donor has filled in the form.
 *
 * @example
 * ```ts
 * await kioskRefusal(store, null, "12"); // "not-paired"
 * ```
 */
export async function kioskRefusal(
  store: Store,
  credential: string | null,
  shopNumber: string,
): Promise<DeviceRefusal | null> {
  const found = await deviceForSale(store, credential, shopNumber);
  return typeof found === "string" ? found : null;
}

/** The device that may start a sale for `shopNumber`, or why there is none. */
async function deviceForSale(
  store: Store,
  credential: string | null,
  shopNumber: string,
): Promise<KioskDevice | DeviceRefusal> {
  if (!credential || !/^[0-9a-f]{64}$/.test(credential)) return "not-paired";
  const device = await store.kioskDevices.byCredential(await hashSecret(credential));
  if (!device) return "not-paired";
  if (device.revokedAt !== null) return "revoked";
  if (device.shopNumber !== shopNumber) return "wrong-shop";
  return device;
}

/**
 * The device a kiosk holding `credential` is paired as (null when none, or revoked), for the
 * pairing page to say so.
 */
export async function pairedDevice(store: Store, credential: string | null): Promise<KioskDevice | null> {
  if (!credential || !/^[0-9a-f]{64}$/.test(credential)) return null;
  const device = await store.kioskDevices.byCredential(await hashSecret(credential));
  return device && device.revokedAt === null ? device : null;
}
