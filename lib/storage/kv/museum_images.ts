/**
 * The museum's uploaded images on Deno KV.
 *
 * | key                                 | value                             | written by |
 * |-------------------------------------|-----------------------------------|------------|
 * | `["museum_images", hash]`           | `{ type, bytes, chunks }`         | put        |
 * | `["museum_image_chunks", hash, i]`  | `Uint8Array`, at most 60 000 bytes | put        |
 *
 * A KV value holds at most 64 KiB, so an image is kept in chunks; its head is written in the same
 * commit as its chunks (at most 5 of them, far under a commit's 800 KiB), so a read that finds the
 * head finds every chunk.
 *
 * @module
 */
import { commit, retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import {
  checkStoredImage,
  type MuseumImageRepository,
  type StoredMuseumImage,
} from "@/lib/storage/museum_image_types.ts";

const HEAD = "museum_images";
const CHUNKS = "museum_image_chunks";
const CHUNK_BYTES = 60_000;

interface Head {
  type: StoredMuseumImage["type"];
  length: number;
  chunks: number;
}

/** The {@link MuseumImageRepository} of the store on `ctx`. */
export function kvMuseumImages({ kv }: KvContext): MuseumImageRepository {
  return {
    async put(image) {
      checkStoredImage(image);
      const chunks = Math.ceil(image.bytes.length / CHUNK_BYTES);
      const head: Head = { type: image.type, length: image.bytes.length, chunks };
      // Content-addressed: the same hash is the same bytes, so a head already there is this image.
      await commit(() => {
        const op = kv.atomic().check({ key: [HEAD, image.hash], versionstamp: null }).set(
          [HEAD, image.hash],
          head,
        );
        for (let i = 0; i < chunks; i++) {
          op.set([CHUNKS, image.hash, i], image.bytes.slice(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
        }
        return op;
      });
    },

    async get(hash) {
      if (!/^[0-9a-f]{64}$/.test(hash)) return null;
      const head = (await retryWhileLocked(() => kv.get<Head>([HEAD, hash]))).value;
      if (!head) return null;
      const bytes = new Uint8Array(head.length);
      let at = 0;
      for await (const entry of kv.list<Uint8Array>({ prefix: [CHUNKS, hash] })) {
        bytes.set(entry.value, at);
        at += entry.value.length;
      }
      return { hash, type: head.type, bytes };
    },

    async deleteExcept(keep) {
      let deleted = 0;
      for await (const entry of kv.list<Head>({ prefix: [HEAD] })) {
        const hash = entry.key[1] as string;
        if (keep.includes(hash)) continue;
        const op = kv.atomic().delete(entry.key);
        for (let i = 0; i < entry.value.chunks; i++) op.delete([CHUNKS, hash, i]);
        await commit(() => op);
        deleted++;
      }
      return deleted;
    },
  };
}
