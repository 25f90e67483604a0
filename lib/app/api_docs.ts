/**
 * The API's OpenAPI document as a service of the app: `createApp` makes one from its lazy route
 * manifest and hands it to every request (`state.apiDocs`), so that `GET /api/openapi.json` and
 * `GET /api/docs` read the same document without importing `manifest.gen.ts` (which imports every
 * route, those two included: an import cycle, and every route loaded at start).
 *
 * The `api/` route modules load on the first request that asks for the document (the other routes
 * stay unloaded); the document is then built once and kept. A failed load is tried again by the
 * next request, as the router does. The document's builder (and zod, which reads the routes'
 * schemas into JSON Schema) loads then too, not with the server.
 *
 * @module
 */
import type { LazyManifest } from "@/lib/framework/types.ts";
import { loadOnce } from "@/lib/core/load_once.ts";

/** The document, built on first use. */
export interface ApiDocs {
  /** The OpenAPI document (one object, shared: read it, never change it). */
  document(): Promise<Record<string, unknown>>;
  /** The document as the JSON text `/api/openapi.json` answers. */
  json(): Promise<string>;
}

/**
 * The document of the `api/` routes among `routes` (a lazy manifest's loaders, by route file).
 *
 * @example
 * ```ts
 * import manifest from "@/manifest.lazy.gen.ts";
 * const apiDocs = createApiDocs(manifest.routes);
 * const doc = await apiDocs.document(); // doc.paths["/api/user/{id}"].get.summary
 * ```
 */
export function createApiDocs(routes: LazyManifest["routes"]): ApiDocs {
  const get = loadOnce(async () => {
    const api = Object.entries(routes).filter(([file]) => file.startsWith("api/"));
    const modules = await Promise.all(api.map(async ([file, loader]) => [file, await loader()] as const));
    const { buildOpenApi } = await import("./openapi.ts");
    const doc = buildOpenApi({ routes: Object.fromEntries(modules) });
    return { doc, json: JSON.stringify(doc) };
  });
  return {
    document: async () => (await get()).doc,
    json: async () => (await get()).json,
  };
}
