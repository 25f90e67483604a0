import type { Handlers } from "@/lib/framework/mod.ts";
import { currentBuild } from "@/lib/framework/assets.ts";
import type { AppState } from "@/lib/app/state.ts";
import { deskWorkerScript } from "@/lib/visits/mod.ts";

/**
 * `GET /desk-sw.js`: the front desk's service worker (`lib/visits/desk_worker.ts`), registered by
 * the desk page with that page's scope (`/{lang}/desk`), which is outside this path's own folder:
 * `Service-Worker-Allowed` lets it. Never cached: the browser compares it at each visit to find a
 * new build.
 */
export const handler: Handlers<unknown, AppState> = {
  GET() {
    return new Response(deskWorkerScript(currentBuild().manifest), {
      headers: {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "no-cache",
        "service-worker-allowed": "/",
      },
    });
  },
};
