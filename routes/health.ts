import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

const TIMEOUT_MS = 2000;

/** `GET /health`: 200 when storage answers within 2 s, 503 otherwise. For load balancers. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { store } = ctx.state.services;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        store.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
        }),
      ]);
      return Response.json({ status: "ok", storage: { kind: store.kind, ok: true } }, {
        headers: { "cache-control": "no-store" },
      });
    } catch (e) {
      ctx.state.log.error("health check failed", { error: e });
      return Response.json(
        {
          status: "unavailable",
          storage: { kind: store.kind, ok: false },
          message: "Storage is not answering",
        },
        { status: 503, headers: { "cache-control": "no-store" } },
      );
    } finally {
      clearTimeout(timer);
    }
  },
};
