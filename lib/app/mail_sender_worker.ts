/**
 * The outbox's sender on a thread of its own: a Web Worker that `mail_sender_thread.ts` starts. Under a
 * burst of payments the app's event loop serves hundreds of requests a second, and a sender on it
 * got a message through only between them (`bench/README.md`, receipt emails); here it has its own
 * event loop, and the operating system shares the cores between the two threads.
 *
 * The worker has everything of its own: the store (the same database opened again: PostgreSQL
 * with a small pool, {@link SENDER_CONNECTIONS}; Deno KV on the same file, with its own write
 * queue, so receipt numbers no longer wait behind the payments' writes), the renderer (templates,
 * translations, the receipt workers it draws PDFs with), the SMTP transport and the
 * {@link OutboxSender} itself, unchanged: claims, leases and settlement are the storage's, so this
 * worker is one more holder among the app's instances, and every guarantee stays as it was.
 *
 * Messages in ({@link ToSenderWorker}): `start` (the configuration and this instance's holder
 * name), `wake` (the app enqueued), `stop`. Out ({@link FromSenderWorker}): `ready` once the first
 * pass can run, `failed` when it cannot start (the app then sends from its event loop), `log` (each
 * line for the app's logger), `stopped`.
 *
 * @module
 */
import type { Config } from "./config.ts";
import type { Level, Logger } from "@/lib/core/log.ts";
import { ReceiptPdfPool } from "@/lib/receipts/pdf_pool.ts";
import { MemberCardPool } from "@/lib/memberships/mod.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { appRenderer } from "./mail_renderer.ts";
import { OutboxSender } from "@/lib/outbox/outbox_sender.ts";
import { smtpTransport } from "@/lib/outbox/smtp.ts";

/** PostgreSQL connections of the sender's own pool (half of them for transactions: receipt numbers). */
export const SENDER_CONNECTIONS = 4;

/** What the app posts to the worker. */
export type ToSenderWorker =
  | { type: "start"; config: Config; holder: string }
  | { type: "wake" }
  | { type: "stop" };

/** What the worker posts to the app. */
export type FromSenderWorker =
  | { type: "ready" }
  | { type: "failed"; error: string }
  | { type: "log"; level: Level; msg: string; fields?: Record<string, unknown> }
  | { type: "stopped" };

// `self` is the worker's scope; typed loosely, as the project checks every file with the window's library.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToSenderWorker>) => void) | null;
  postMessage(message: FromSenderWorker): void;
  close(): void;
};
const post = (message: FromSenderWorker) => scope.postMessage(message);

/** A logger whose lines the app's own logger writes (the app's format, sink and tests' capture). */
function forwardingLogger(bound: Record<string, unknown> = {}): Logger {
  const line = (level: Level) => (msg: string, fields?: Record<string, unknown>) =>
    post({ type: "log", level, msg, fields: { ...bound, ...fields } });
  return {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    with: (fields) => forwardingLogger({ ...bound, ...fields }),
  };
}

let running: { sender: OutboxSender; store: Store; pdfs: ReceiptPdfPool; cards: MemberCardPool } | null =
  null;
let starting: Promise<void> | null = null;

async function start(config: Config, holder: string): Promise<void> {
  const log = forwardingLogger();
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    kvPath: config.kvPath,
    connections: SENDER_CONNECTIONS,
  });
  try {
    const pdfs = new ReceiptPdfPool({ workers: config.receiptWorkers, log });
    const cards = new MemberCardPool({ workers: config.receiptWorkers, log });
    const sender = new OutboxSender({
      store,
      render: await appRenderer(config, store, pdfs.render, cards.render),
      transport: smtpTransport(config.mail.smtpUrl!, config.mail.from),
      from: config.mail.from,
      log,
      holder,
    });
    running = { sender, store, pdfs, cards };
    sender.start();
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function stop(): Promise<void> {
  await starting?.catch(() => {});
  if (running) {
    await running.sender.stop();
    await running.pdfs.close();
    await running.cards.close();
    await running.store.close();
  }
  post({ type: "stopped" });
  scope.close();
}

scope.onmessage = ({ data }) => {
  if (data.type === "start") {
    starting ??= start(data.config, data.holder).then(
      () => post({ type: "ready" }),
      (error) => post({ type: "failed", error: error instanceof Error ? error.message : String(error) }),
    );
  } else if (data.type === "wake") running?.sender.wake();
  else if (data.type === "stop") void stop();
};
