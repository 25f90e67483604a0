import { z } from "zod";
import type { Handlers } from "@/lib/framework/mod.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { issueBrowserKey } from "@/lib/signing/signature_check.ts";
import type { AppState } from "@/lib/app/state.ts";

const BrowserKeySchema = z.object({
  keyId: z.string().describe("v1.<expiry ms>.<random>"),
  key: z.string().describe("Hex HMAC-SHA256 key for this keyId"),
  expiresAt: z.number().int().describe("Milliseconds since the epoch"),
}).meta({ id: "BrowserKey" });

export const docs: RouteDocs = {
  GET: {
    summary: "A fresh browser signing key",
    description: "Pages carry a key valid for 30 minutes; a page open longer fetches a new one here.",
    tags: ["signing"],
    responses: { 200: { description: "A key valid for 30 minutes", schema: BrowserKeySchema } },
  },
};

/** `GET /api/signing-key` → `{ keyId, key, expiresAt }`. */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    return Response.json(issueBrowserKey(ctx.state.services.config.appSecret));
  },
};
