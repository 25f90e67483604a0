/**
 * An owner uploads the museum's logo (SVG or PNG) or the donation page's hero image (PNG, JPEG or
 * WebP), issue 27. The file is checked by its content, not by the name or type it came with: at
 * most {@link IMAGE_LIMITS} bytes; a raster image's signature and size in pixels (`image-size`); an
 * SVG parsed and cleaned (`svg.ts`). It is stored under the SHA-256 of what was kept
 * (`store.museumImages`, idempotent), then the settings name it over the version the owner read,
 * audited as any change of the settings (`saveMuseumSettings`): every instance's pages show it
 * within a second, from an address holding its hash.
 *
 * @module
 */
import { imageSize } from "image-size";
import type { Actor } from "@/lib/audit/mod.ts";
import { DomainError } from "@/lib/core/errors.ts";
import {
  IMAGE_LIMITS,
  type MuseumImage,
  type MuseumImageType,
  type MuseumSettings,
} from "@/lib/shared/museum.ts";
import { OWNERS, requireRole } from "@/lib/staff/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { saveMuseumSettings } from "./change.ts";
import { InvalidMuseumSettingsError, MuseumSettingsChangedMeanwhileError } from "./errors.ts";
import { readMuseumSettings } from "./settings.ts";
import { sanitizeSvg, SvgRefusedError } from "./svg.ts";

/** Which image: the museum's logo, or the hero's. */
export type MuseumImageSlot = "logo" | "hero-image";

/** The types each image may be. */
const ACCEPTED: Record<MuseumImageSlot, readonly MuseumImageType[]> = {
  logo: ["image/svg+xml", "image/png"],
  "hero-image": ["image/png", "image/jpeg", "image/webp"],
};

/** The file is larger than {@link IMAGE_LIMITS}: nothing was stored. */
export class MuseumImageTooLargeError extends DomainError {
  override readonly kind = "too_large";
  constructor() {
    const message = `the file is larger than ${IMAGE_LIMITS.kilobytes} KB`;
    super(`The image was not saved: ${message}`, [{ path: "file", message }]);
  }
}

const refuse = (message: string) => new InvalidMuseumSettingsError([{ path: "file", message }]);

/** The raster type `bytes` begin with, or null. */
function rasterType(bytes: Uint8Array): MuseumImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

/** The words of the types `slot` takes, for a message. */
const typesOf = (slot: MuseumImageSlot) =>
  slot === "logo" ? "an SVG or a PNG" : "a PNG, a JPEG or a WebP image";

/**
 * What `file` becomes when it is a `slot` image the site takes: the bytes to store and the settings'
 * reference; throws {@link MuseumImageTooLargeError} or {@link InvalidMuseumSettingsError} (path
 * `file`) saying what is wrong.
 *
 * @example
 * ```ts
 * const { image, bytes } = await checkImage("logo", { type: "image/png", name: "logo.png", bytes });
 * ```
 */
export async function checkImage(
  slot: MuseumImageSlot,
  file: { type: string; name: string; bytes: Uint8Array },
): Promise<{ image: MuseumImage; bytes: Uint8Array }> {
  if (file.bytes.length > IMAGE_LIMITS.bytes) throw new MuseumImageTooLargeError();
  if (file.bytes.length === 0) throw refuse("the file is empty");
  let type = rasterType(file.bytes);
  let bytes = file.bytes;
  let size: { width: number; height: number };
  const declared = `${file.type} ${file.name}`.toLowerCase();
  if (type) {
    if (!ACCEPTED[slot].includes(type)) throw refuse(`the file must be ${typesOf(slot)}`);
    let measured: { width?: number; height?: number } = {};
    try {
      measured = imageSize(file.bytes);
    } catch { /* measured below as unknown */ }
    const { width = 0, height = 0 } = measured;
    if (width < 1 || height < 1) {
      throw refuse(`the file is not a readable ${type.slice(6).toUpperCase()} image`);
    }
    if (width > IMAGE_LIMITS.pixels || height > IMAGE_LIMITS.pixels) {
      throw refuse(`the image must be at most ${IMAGE_LIMITS.pixels} × ${IMAGE_LIMITS.pixels} pixels`);
    }
    size = { width, height };
  } else if (ACCEPTED[slot].includes("image/svg+xml") && /svg/.test(declared)) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
    } catch {
      throw refuse("the file is not a well-formed SVG document (it is not UTF-8 text)");
    }
    try {
      const clean = sanitizeSvg(text);
      bytes = new TextEncoder().encode(clean.svg);
      size = { width: clean.width, height: clean.height };
    } catch (error) {
      if (error instanceof SvgRefusedError) throw refuse(error.message);
      throw error;
    }
    type = "image/svg+xml";
  } else if (/png|jpe?g|webp/.test(declared)) {
    throw refuse(
      `the file is not a PNG${slot === "logo" ? "" : ", JPEG or WebP"} image, whatever its name says`,
    );
  } else throw refuse(`the file must be ${typesOf(slot)}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  const hash = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return { image: { hash, type, ...size }, bytes };
}

/**
 * Sets (or with `file` null, removes) the `slot` image over the settings' `version`, and answers the
 * settings now stored. Throws the staff concept's error for anyone but an owner,
 * {@link MuseumSettingsChangedMeanwhileError} for a stale version, and {@link checkImage}'s.
 *
 * @example
 * ```ts
 * const saved = await changeMuseumImage(store, actor, "logo", 3, { type: "image/svg+xml", name, bytes });
 * ```
 */
export async function changeMuseumImage(
  store: Store,
  actor: Actor,
  slot: MuseumImageSlot,
  version: number,
  file: { type: string; name: string; bytes: Uint8Array } | null,
  now = new Date(),
): Promise<MuseumSettings> {
  requireRole(actor.admin, OWNERS);
  const current = await readMuseumSettings(store);
  if (version !== current.version) throw new MuseumSettingsChangedMeanwhileError(current.version, version);
  const checked = file ? await checkImage(slot, file) : null;
  if (checked) {
    await store.museumImages.put({
      hash: checked.image.hash,
      type: checked.image.type,
      bytes: checked.bytes,
    });
  }
  const { logo: _logo, ...identity } = current.identity;
  const { image: _image, ...hero } = current.hero!;
  const next = slot === "logo"
    ? { ...current, identity: { ...identity, ...(checked ? { logo: checked.image } : {}) } }
    : { ...current, hero: { ...hero, ...(checked ? { image: checked.image } : {}) } };
  return await saveMuseumSettings(store, actor, current, next, now);
}
