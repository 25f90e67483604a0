/**
 * Builds the long-lived services the app runs on, once, from configuration and an open store.
 *
 * @module
 */
import { PasswordPool } from "@/lib/staff/password_pool.ts";
import { deriveKey } from "@/lib/staff/tokens.ts";
import type { Config } from "./config.ts";
import type { Logger } from "@/lib/core/log.ts";
import { type RenderMessage, wakeOnMessages } from "@/lib/outbox/outbox_sender.ts";
import { startMailSender } from "./mail_sender_thread.ts";
import { createProviderFactory } from "./payments.ts";
import { ReceiptPdfPool } from "@/lib/receipts/pdf_pool.ts";
import { MemberCardPool } from "@/lib/memberships/card_pool.ts";
import type { Services } from "./state.ts";
import { loadOnce } from "@/lib/core/load_once.ts";
import type { Store } from "@/lib/storage/types.ts";

/** What {@link createServices} takes beside configuration, store and log. */
export interface ServiceOptions {
  /** Renders outbox messages (`lib/outbox/outbox_sender.ts`); the app's templates by default. */
  render?: RenderMessage;
  /** This instance's name in outbox claims; host, process and a random part by default. */
  holder?: string;
  /** Makes the outbox sender's worker (`lib/app/mail_sender_thread.ts`); tests give one that fails. */
  createSenderWorker?: () => Worker;
}

/**
 * Creates the services. Their password pool starts its workers on the first sign-in, the receipt
 * pool on the first receipt; close them (`services.passwords.close()`,
 * `services.receiptPdfs.close()`) when the server stops. With `SMTP_URL`, the
 * outbox's sender starts here, on a thread of its own where it can (`lib/app/mail_sender_thread.ts`;
 * a renderer given in `options` keeps it on the event loop); its store wakes it after every
 * enqueue; stop it (`services.mail.sender?.stop()`) when the server stops.
 *
 * @example
 * ```ts
 * const services = await createServices(config, store, createLogger());
 * const app = createApp(services);
 * ```
 */
export async function createServices(
  config: Config,
  store: Store,
  log: Logger,
  options: ServiceOptions = {},
): Promise<Services> {
  const receiptPdfs = new ReceiptPdfPool({ workers: config.receiptWorkers, log });
  const memberCards = new MemberCardPool({ workers: config.receiptWorkers, log });
  const render = options.render ??
    lazyRenderer(() =>
      import("./mail_renderer.ts").then(({ appRenderer }) =>
        appRenderer(config, store, receiptPdfs.render, memberCards.render)
      )
    );
  const sender = config.mail.smtpUrl
    ? startMailSender({
      config,
      store,
      render,
      log,
      holder: options.holder ?? `${Deno.hostname()}-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`,
      workerAllowed: options.render === undefined,
      createWorker: options.createSenderWorker,
    })
    : null;
  const woken = sender ? wakeOnMessages(store, () => sender.wake()) : store;
  return {
    config,
    store: woken,
    mail: { render, sender },
    // A message that is its own cause (a fresh manage link asked for): enqueued alone.
    enqueueMessage: async (message) => {
      await woken.outbox.enqueue([message], new Date().toISOString());
    },
    log,
    accessKey: await deriveKey(config.appSecret, "admin-access-token/v1"),
    providerFor: createProviderFactory(config, store, log),
    passwords: new PasswordPool({ ...config.passwords, log }),
    receiptPdfs,
    memberCards,
  };
}

/**
 * A renderer whose modules (every email's template, the portal's links, the membership cards' keys)
 * load with the first message rendered, not with the server: the first page needs none of them (a
 * failed load is tried again with the next message).
 */
function lazyRenderer(load: () => Promise<RenderMessage>): RenderMessage {
  const renderer = loadOnce(load);
  return async (message) => await (await renderer())(message);
}
