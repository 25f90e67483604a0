import type { Handlers } from "@/lib/framework/mod.ts";
import { issueBrowserKey } from "@/lib/signing/signature_check.ts";
import type { AppState } from "@/lib/app/state.ts";

export { signingKeyDocs as docs } from "@/lib/signing/api_docs.ts";

/** `GET /api/signing-key` → `{ keyId, key, expiresAt }`. */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    return Response.json(issueBrowserKey(ctx.state.services.config.appSecret));
  },
};
