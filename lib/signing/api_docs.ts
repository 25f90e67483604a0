/**
 * Request signing's API operations as the OpenAPI document describes them: one export per route, which the
 * route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

const BrowserKeySchema = z.object({
  keyId: z.string().describe("v1.<expiry ms>.<random>"),
  key: z.string().describe("Hex HMAC-SHA256 key for this keyId"),
  expiresAt: z.number().int().describe("Milliseconds since the epoch"),
}).meta({ id: "BrowserKey" });

/** `GET /api/signing-key`. */
export const signingKeyDocs: RouteDocs = {
  GET: {
    summary: "A fresh browser signing key",
    description: "Pages carry a key valid for 30 minutes; a page open longer fetches a new one here.",
    tags: ["signing"],
    responses: { 200: { description: "A key valid for 30 minutes", schema: BrowserKeySchema } },
  },
};
