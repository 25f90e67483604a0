/**
 * Where this instance's outbox sender runs: on a thread of its own (`mail_sender_worker.ts`) when it
 * can, else on the event loop, as before issue 24.
 *
 * A worker needs the same database opened a second time: PostgreSQL (`DATABASE_URL`), or, when
 * `OUTBOX_WORKER=1` asks for it, Deno KV on a file. Deno KV in memory cannot be shared between threads, a store the
 * caller opened elsewhere (tests) may not be the configuration's, and a renderer given by the
 * caller (tests) cannot cross to a worker: then, and with `OUTBOX_WORKER=0`, the sender runs on the
 * event loop. So it does where a worker cannot start (Deno Deploy may have none): the constructor
 * fails, the worker fails before its first pass (it could not load or open the store), or it does
 * not answer within {@link WORKER_START_MS}. A worker that dies later is replaced by a sender on
 * the event loop too. Either way the warning says so once; the messages the worker held are
 * claimed again when their lease ends, as after a crash.
 *
 * The start does not wait for the worker (a cold start is not made longer): {@link MailSender.thread}
 * answers where the sender ended up.
 *
 * @module
 */
import type { Config } from "./config.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { Store } from "@/lib/storage/types.ts";
import { OutboxSender, type RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import type { FromSenderWorker, ToSenderWorker } from "./mail_sender_worker.ts";
import type { MailTransport, OutgoingMail } from "@/lib/outbox/smtp.ts";
import { loadOnce } from "@/lib/core/load_once.ts";

/** How long a worker may take to load and open its store before the event loop sends instead. */
export const WORKER_START_MS = 60_000;
/** How long a stop waits for the worker's pass under way before terminating it. */
const WORKER_STOP_MS = 45_000;

/** This instance's sender, wherever it runs. */
export interface MailSender {
  /** Asks for a pass soon (a message was just enqueued); cheap, and safe to call often. */
  wake(): void;
  /** Ends the sender and waits for the pass under way. */
  stop(): Promise<void>;
  /** Where it runs, once decided: `worker` (a thread of its own) or `main` (the event loop). */
  readonly thread: Promise<"worker" | "main">;
}

/** What {@link startMailSender} works with. */
export interface MailSenderOptions {
  config: Config;
  store: Store;
  /** The event loop's renderer (the app's, or a test's). */
  render: RenderMessage;
  log: Logger;
  holder: string;
  /** Whether a worker may send: false with a renderer given, or a store not opened from `config`. */
  workerAllowed: boolean;
  /** Makes the worker; the default runs `mail_sender_worker.ts`. (Tests give one that fails.) */
  createWorker?: () => Worker;
}

const senderWorker = () =>
  new Worker(new URL("./mail_sender_worker.ts", import.meta.url).href, {
    type: "module",
    name: "outbox sender",
  });

/**
 * The SMTP transport of `lib/outbox/smtp.ts`, whose library (nodemailer, and the Node built-ins it
 * pulls: net, tls, zlib, crypto) loads with the first message sent, not with the server (a failed
 * load is tried again with the next message).
 */
function lazySmtpTransport(url: string, from: string): MailTransport {
  const transport = loadOnce(() =>
    import("@/lib/outbox/smtp.ts").then(({ smtpTransport }) => smtpTransport(url, from))
  );
  let used = false;
  return {
    async send(mail: OutgoingMail) {
      used = true;
      await (await transport()).send(mail);
    },
    close() {
      // Nothing to close unless a message loaded it.
      if (used) transport().then((t) => t.close(), () => {});
    },
  };
}

/**
 * Whether the sender can run in a worker with this configuration: PostgreSQL unless `OUTBOX_WORKER=0`,
 * Deno KV on a file only with `OUTBOX_WORKER=1`.
 */
export function workerCanShare(config: Config, store: Store): boolean {
  if (config.mail.senderWorker === "off") return false;
  if (store.kind === "postgres") return Boolean(config.databaseUrl);
  // On KV only when asked: a second handle on one SQLite file waits for the file's write lock, which
  // the payments' writes hold (two instances on one KV file delivered 8 receipts in over a minute
  // under CI's load, tests/outbox_worker_test.ts), and KV Connect is Deno Deploy's, without workers.
  if (config.mail.senderWorker !== "on") return false;
  return !config.databaseUrl && config.kvPath !== undefined && config.kvPath !== ":memory:";
}

/**
 * Starts the sender: in a worker when allowed and possible, else on the event loop.
 *
 * @example
 * ```ts
 * const sender = startMailSender({ config, store, render, log, holder, workerAllowed: true });
 * sender.wake();
 * await sender.stop();
 * ```
 */
export function startMailSender(options: MailSenderOptions): MailSender {
  const { config, log } = options;
  let main: OutboxSender | null = null;
  const onMain = () => {
    main ??= new OutboxSender({
      store: options.store,
      render: options.render,
      transport: lazySmtpTransport(config.mail.smtpUrl!, config.mail.from),
      from: config.mail.from,
      log,
      holder: options.holder,
    });
    main.start();
    return "main" as const;
  };
  if (!options.workerAllowed || !workerCanShare(config, options.store)) {
    onMain();
    return {
      wake: () => main?.wake(),
      stop: async () => await main?.stop(),
      thread: Promise.resolve("main"),
    };
  }

  let worker: Worker | null = null;
  let stopped: (() => void) | null = null;
  let decided: (thread: "worker" | "main") => void = () => {};
  const thread = new Promise<"worker" | "main">((resolve) => decided = resolve);
  const post = (message: ToSenderWorker) => worker?.postMessage(message);
  // The worker is gone (or never came): terminate it, and send from the event loop from now on.
  const fallBack = (why: string, error?: string) => {
    worker?.terminate();
    worker = null;
    stopped?.();
    if (closing) return;
    log.warn(`outbox sender worker ${why}: sending from the event loop`, { error: error ?? null });
    decided(onMain());
  };
  let closing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    worker = (options.createWorker ?? senderWorker)();
  } catch (error) {
    fallBack("unavailable", error instanceof Error ? error.message : String(error));
  }
  if (worker) {
    timer = setTimeout(() => fallBack(`did not start in ${WORKER_START_MS / 1000} s`), WORKER_START_MS);
    worker.onmessage = ({ data }: MessageEvent<FromSenderWorker>) => {
      if (data.type === "log") log[data.level](data.msg, data.fields);
      else if (data.type === "ready") {
        clearTimeout(timer);
        decided("worker");
      } else if (data.type === "failed") {
        clearTimeout(timer);
        fallBack("could not start", data.error);
      } else if (data.type === "stopped") stopped?.();
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      clearTimeout(timer);
      fallBack("failed", event.message);
    };
    try {
      post({ type: "start", config, holder: options.holder });
    } catch (error) {
      // The configuration could not be cloned to the worker (a setting that is a function, say).
      clearTimeout(timer);
      fallBack("unavailable", error instanceof Error ? error.message : String(error));
    }
  }

  return {
    thread,
    wake: () => worker ? post({ type: "wake" }) : main?.wake(),
    async stop() {
      closing = true;
      decided(worker ? "worker" : "main");
      clearTimeout(timer);
      if (worker) {
        const done = new Promise<void>((resolve) => stopped = resolve);
        post({ type: "stop" });
        const limit = setTimeout(() => stopped?.(), WORKER_STOP_MS);
        await done;
        clearTimeout(limit);
        worker?.terminate();
        worker = null;
      }
      await main?.stop();
    },
  };
}
