/**
 * The storage contract for the museum's uploaded images (`store.museumImages`, issue 27): its logo
 * and its hero's image, each stored once under the SHA-256 of its bytes (hex), which the settings
 * name (`MuseumImage.hash`) and the image's address holds. Content-addressed, so a put is idempotent
 * and an image never changes once stored; an image the settings no longer name stays (a page a
 * second behind may still show it) until `deleteExcept` drops it.
 *
 * @module
 */
import type { MuseumImageType } from "@/lib/shared/museum.ts";

/** An image as stored. */
export interface StoredMuseumImage {
  /** Hex SHA-256 of `bytes`. */
  hash: string;
  type: MuseumImageType;
  bytes: Uint8Array;
}

/** The largest image any backend stores, in bytes (the app refuses larger uploads first). */
export const MAX_STORED_IMAGE_BYTES = 256 * 1024;

/** The museum's images: put once, read by hash. */
export interface MuseumImageRepository {
  /**
   * Stores `image` under its hash (a second put of the same hash changes nothing). Throws
   * RangeError when the hash is not 64 hex digits or the bytes are empty or over
   * {@link MAX_STORED_IMAGE_BYTES} (the caller computes the hash; the store trusts it).
   */
  put(image: StoredMuseumImage): Promise<void>;
  /** The image stored under `hash`, or null. */
  get(hash: string): Promise<StoredMuseumImage | null>;
  /** Deletes every image but those of `keep` (hashes); answers how many it deleted. */
  deleteExcept(keep: readonly string[]): Promise<number>;
}

/**
 * Throws the contract's RangeError for an image no backend may store.
 *
 * @example
 * ```ts
 * checkStoredImage({ hash, type: "image/png", bytes });
 * ```
 */
export function checkStoredImage(image: StoredMuseumImage): void {
  if (!/^[0-9a-f]{64}$/.test(image.hash)) throw new RangeError("an image's hash must be 64 hex digits");
  if (!(image.bytes instanceof Uint8Array) || image.bytes.length === 0) {
    throw new RangeError("an image must have bytes");
  }
  if (image.bytes.length > MAX_STORED_IMAGE_BYTES) {
    throw new RangeError(`an image must be at most ${MAX_STORED_IMAGE_BYTES} bytes`);
  }
}
