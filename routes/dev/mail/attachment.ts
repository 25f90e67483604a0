import type { Handlers } from "@/lib/framework/mod.ts";
import { attachmentDisposition, devMailboxEnabled, openMessage } from "@/lib/outbox/dev_mailbox.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `GET /dev/mail/attachment?key=…&n=…` (development only; 404 in production): a message's
 * attachment number `n` (from 0), downloaded as the recipient would get it.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { config, store, mail } = ctx.state.services;
    if (!devMailboxEnabled(config)) return ctx.renderNotFound();
    const opened = await openMessage(store, mail.render, ctx.url.searchParams.get("key") ?? "");
    const n = Number(ctx.url.searchParams.get("n") || "-1");
    const attachment = Number.isSafeInteger(n) && n >= 0 ? opened?.rendered?.attachments[n] : undefined;
    if (!attachment) return ctx.renderNotFound();
    return new Response(new Uint8Array(attachment.content), {
      headers: {
        "content-type": attachment.contentType,
        "content-disposition": attachmentDisposition(attachment.filename),
        "cache-control": "no-store",
      },
    });
  },
};
