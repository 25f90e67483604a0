import manifest from "../../manifest.gen.ts";
import type { Handlers } from "../../lib/framework/mod.ts";
import { buildOpenApi } from "../../lib/openapi.ts";

let document: string | null = null;

/** `GET /api/openapi.json`: the OpenAPI 3.1 document, built once from the route manifest. */
export const handler: Handlers = {
  GET() {
    document ??= JSON.stringify(buildOpenApi(manifest));
    return new Response(document, {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300" },
    });
  },
};
