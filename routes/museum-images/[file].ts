import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { IMAGE_EXTENSIONS } from "@/lib/shared/museum.ts";

/**
 * A policy that runs nothing: an SVG opened on its own (not through `<img>`, which runs nothing
 * anyway) may draw its own inline styles and nothing else, in a sandbox.
 */
export const IMAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/**
 * `GET /museum-images/{hash}.{svg|png|jpg|webp}`: an image an owner uploaded (issue 27; checked and,
 * an SVG, cleaned before it was stored: `lib/museum/images.ts`), by the hash of its bytes, so the
 * address never changes and is cached for good; its exact type, never sniffed.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const match = /^([0-9a-f]{64})\.(svg|png|jpg|webp)$/.exec(ctx.params.file ?? "");
    const image = match ? await ctx.state.services.store.museumImages.get(match[1]) : null;
    if (!image || IMAGE_EXTENSIONS[image.type] !== match![2]) {
      return new Response("Not found", {
        status: 404,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    return new Response(image.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": image.type,
        "x-content-type-options": "nosniff",
        "cache-control": "public, max-age=31536000, immutable",
        "content-security-policy": IMAGE_POLICY,
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "cross-origin-resource-policy": "same-origin",
        // The pipeline sets its own headers only on answers without the request's id: these are whole.
        "x-request-id": ctx.state.requestId,
      },
    });
  },
};
