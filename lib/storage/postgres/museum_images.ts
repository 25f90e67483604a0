/**
 * The museum's uploaded images on PostgreSQL: table `museum_images` (migration 40), one row per
 * image under its hash; a put of a hash already there changes nothing (`on conflict do nothing`).
 *
 * @module
 */
import {
  checkStoredImage,
  type MuseumImageRepository,
  type StoredMuseumImage,
} from "@/lib/storage/museum_image_types.ts";
import type { PgContext } from "./context.ts";

/**
 * The {@link MuseumImageRepository} on `museum_images`.
 *
 * @example
 * ```ts
 * const logo = await pgMuseumImages(ctx).get(settings.identity.logo.hash);
 * ```
 */
export function pgMuseumImages({ sql }: PgContext): MuseumImageRepository {
  return {
    async put(image) {
      checkStoredImage(image);
      await sql`insert into museum_images (hash, type, bytes)
        values (${image.hash}, ${image.type}, ${image.bytes}) on conflict (hash) do nothing`;
    },

    async get(hash) {
      if (!/^[0-9a-f]{64}$/.test(hash)) return null;
      const [row] = await sql<{ type: StoredMuseumImage["type"]; bytes: Uint8Array }[]>`
        select type, bytes from museum_images where hash = ${hash}`;
      return row ? { hash, type: row.type, bytes: new Uint8Array(row.bytes) } : null;
    },

    async deleteExcept(keep) {
      const rows = await sql`delete from museum_images where hash <> all(${keep as string[]}::text[])
        returning hash`;
      return rows.length;
    },
  };
}
