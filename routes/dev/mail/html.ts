import type { Handlers } from "@/lib/framework/mod.ts";
import { devMailboxEnabled, emailDocumentHeaders, openMessage } from "@/lib/outbox/dev_mailbox.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `GET /dev/mail/html?key=…` (development only; 404 in production): a message's rendered HTML as
 * a document of its own, under a policy that lets it style itself and nothing else (framed by
 * `/dev/mail?key=…`).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { config, store, mail } = ctx.state.services;
    if (!devMailboxEnabled(config)) return ctx.renderNotFound();
    const opened = await openMessage(store, mail.render, ctx.url.searchParams.get("key") ?? "");
    if (!opened?.rendered) return ctx.renderNotFound();
    return new Response(opened.rendered.html, { headers: emailDocumentHeaders(ctx.state.requestId) });
  },
};
