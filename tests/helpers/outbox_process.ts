/**
 * One app instance's outbox, as a process of its own: configuration, store and services exactly
 * as `main.ts` builds them (`createServices` starts the sender with `SMTP_URL`), with a test
 * renderer in place of the real templates (a subject naming the message's key). Prints a line with
 * `"msg":"outbox process ready"` once its sender runs; stops cleanly on SIGTERM.
 * `tests/outbox_processes_test.ts` starts two on one PostgreSQL database.
 *
 * @module
 */
import { loadConfigOrExit } from "@/lib/app/config.ts";
import { createLogger } from "@/lib/core/log.ts";
import type { RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import { createServices } from "@/lib/app/services.ts";
import { openStore } from "@/lib/storage/mod.ts";

const render: RenderMessage = (m) =>
  Promise.resolve({
    to: [`${"donorId" in m.to ? m.to.donorId : "admins"}@donors.example`],
    subject: `Message ${m.key}`,
    text: `Message ${m.key}`,
    html: `<p>Message ${m.key}</p>`,
    attachments: [],
    dir: "ltr",
    language: m.language,
  });

const holder = Deno.env.get("OUTBOX_HOLDER") ?? `outbox-${Deno.pid}`;
const log = createLogger();
const config = await loadConfigOrExit();
const store = await openStore({ databaseUrl: config.databaseUrl, kvPath: config.kvPath });
const services = await createServices(config, store, log, { render, holder });
if (!services.mail.sender) throw new Error("no sender: SMTP_URL is required");
log.info("outbox process ready", { holder });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await services.mail.sender?.stop();
    await services.passwords.close();
    await services.receiptPdfs.close();
    await services.memberCards.close();
    await store.close();
    Deno.exit(0);
  });
}
