/**
 * The outbox's sender: claims due messages, renders each (the injected {@link RenderMessage}, so
 * the outbox never imports the renderers), hands it to the transport and records the outcome.
 *
 * Exactly once, with several app instances and crashes:
 * - a message is claimed for one holder for a lease (`store.outbox.claim`); a holder that dies
 *   leaves it due again when the lease ends, and the next claim sends it (with the same
 *   Message-ID, derived from the key, so a receiver can drop the rare repeat of a send that
 *   reached the server but whose answer was lost);
 * - a message is sent only while well inside its lease ({@link LEASE_MARGIN_MS} before it ends),
 *   and the transport gives up long before that margin (`SMTP_TIMEOUTS`);
 * - a transport error retries after {@link RETRY_SCHEDULE_MS} (1, 5, 15, 60 minutes, 3 and 12
 *   hours), then the message is failed for good with the last reason; a render that answers null
 *   (nothing to send: the donor was erased) skips it.
 *
 * Runs in every instance: woken right after this process enqueues ({@link wakeOnMessages}), and
 * polling every {@link POLL_MS} otherwise; `stop()` ends the loop and waits for the pass under way.
 * Log lines name a message by its Message-ID and the server's codes; the full reason of a failure
 * (which may name the recipient) is kept with the message in storage only.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import { sha256 } from "@/lib/core/sha256.ts";
import type { OutboxMessage, Store, WithMessages } from "@/lib/storage/types.ts";
import type { RenderedMessage } from "@/lib/storage/message_types.ts";
import type { MailTransport } from "./smtp.ts";

/** Renders a stored message for its recipient, or answers null when there is nothing to send. */
export type RenderMessage = (message: OutboxMessage) => Promise<RenderedMessage | null>;

/** Waits before each retry after a transport error; after the last, the message fails for good. */
export const RETRY_SCHEDULE_MS: readonly number[] = [1, 5, 15, 60, 180, 720].map((min) => min * 60_000);
/** How long a claim holds a message. */
export const LEASE_MS = 2 * 60_000;
/** A message is not sent when less than this is left of its claim (it waits for the next claim). */
export const LEASE_MARGIN_MS = 60_000;
/** How often an instance looks for due messages when nothing woke it. */
export const POLL_MS = 5_000;
/** Messages claimed at once. */
const BATCH = 20;
/**
 * Messages being delivered at once, each lane taking the next as its last is done and claiming
 * more when none is left: a message mostly waits (for storage, its receipt's PDF from the receipt
 * workers, the SMTP server), so sixteen keep the workers and the SMTP connections busy: at 100
 * payments a second on PostgreSQL, eight sent ~32 a second (p99 5.3 s), sixteen ~40 (p99 4.2 s;
 * `bench/README.md`); three at a time, each three waiting for the slowest and each batch for its
 * last, left them idle while a gala's receipts queued.
 */
const PARALLEL = 16;

/** What a pass did. */
export interface SendReport {
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
}

/** What the sender works with. */
export interface OutboxSenderOptions {
  store: Store;
  render: RenderMessage;
  transport: MailTransport;
  log: Logger;
  /** This instance's name in claims (host, process, random). */
  holder: string;
  now?: () => Date;
  retryScheduleMs?: readonly number[];
  leaseMs?: number;
  leaseMarginMs?: number;
  pollMs?: number;
}

/**
 * The Message-ID of the outbox message `key`: a hash (keys hold characters a Message-ID may not),
 * at the sender's domain.
 */
export function messageIdOf(key: string, from: string): string {
  // The address is the last part of `from` (`a@b.org` or `Name <a@b.org>`).
  const at = from.lastIndexOf("@");
  const domain = at < 0 ? "localhost" : from.slice(at + 1).replace(">", "").trim();
  const hash = [...sha256(new TextEncoder().encode(key)).slice(0, 16)]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return `<outbox.${hash}@${domain}>`;
}

/** The outbox's sender for one instance; see the module header. */
export class OutboxSender {
  #o: Required<Omit<OutboxSenderOptions, "now">> & { now: () => Date };
  #from: string;
  #running: Promise<void> | null = null;
  #stopped = false;
  #again = false;
  #wake: (() => void) | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Brings the pass under way back to its full lanes (a wake during it). */
  #topUp: (() => void) | null = null;

  constructor(options: OutboxSenderOptions & { from: string }) {
    this.#from = options.from;
    this.#o = {
      now: () => new Date(),
      retryScheduleMs: RETRY_SCHEDULE_MS,
      leaseMs: LEASE_MS,
      leaseMarginMs: LEASE_MARGIN_MS,
      pollMs: POLL_MS,
      ...options,
    };
  }

  /** Starts the loop: a pass now, then one per wake or poll, until {@link stop}. */
  start(): void {
    if (this.#running || this.#stopped) return;
    this.#running = this.#loop();
  }

  /** Asks for a pass soon (a message was just enqueued); cheap, and safe to call often. */
  wake(): void {
    this.#again = true;
    this.#topUp?.();
    this.#wake?.();
  }

  /** Ends the loop and waits for the pass under way; closes the transport. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#running;
    this.#o.transport.close();
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      this.#again = false;
      try {
        await this.runOnce();
      } catch (error) {
        // Storage unavailable, most likely: the next poll tries again.
        this.#o.log.error("outbox pass failed", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      if (this.#stopped || this.#again) continue;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        this.#timer = setTimeout(resolve, this.#o.pollMs);
      });
      clearTimeout(this.#timer);
      this.#wake = null;
    }
  }

  /**
   * Claims and sends due messages until none is left (or the sender stops); answers what it did.
   * A {@link wake} during the pass is part of it: a lane that found nothing comes back, and a claim
   * under way when the wake came does not end the pass, so a message enqueued now never waits for
   * the pass's slowest message (a receipt whose number or PDF is slow) to end.
   */
  async runOnce(): Promise<SendReport> {
    const report: SendReport = { sent: 0, retried: 0, failed: 0, skipped: 0 };
    const { store, holder, leaseMs } = this.#o;
    // Claimed and not yet taken; one claim at a time refills it, the lanes take from it, each as
    // its last message is done: no lane waits for the others (nor for a whole batch) to finish.
    const claimed: OutboxMessage[] = [];
    let claiming: Promise<void> | null = null;
    let drained = false;
    let wakes = 0;
    const refill = () => {
      const seen = wakes;
      return claiming ??= store.outbox.claim(holder, this.#o.now().toISOString(), leaseMs, BATCH)
        .then((batch) => {
          claimed.push(...batch);
          // Nothing due, unless a wake came while the claim ran: its message may be after it.
          drained = batch.length === 0 && wakes === seen;
        })
        .finally(() => claiming = null);
    };
    const lanes = new Set<Promise<void>>();
    const lane = async () => {
      for (;;) {
        const message = claimed.shift();
        if (message) {
          const outcome = await this.#deliver(message);
          if (outcome) report[outcome]++;
        } else if (drained || this.#stopped) return;
        else await refill();
      }
    };
    const topUp = () => {
      wakes++;
      drained = false;
      while (lanes.size < PARALLEL && !this.#stopped) {
        const running: Promise<void> = lane().finally(() => lanes.delete(running));
        lanes.add(running);
      }
    };
    this.#topUp = topUp;
    try {
      topUp();
      while (lanes.size > 0) await Promise.all(lanes);
    } finally {
      if (this.#topUp === topUp) this.#topUp = null;
    }
    return report;
  }

  /** Renders, sends and settles one claimed message; answers its outcome (null: left for later). */
  async #deliver(message: OutboxMessage): Promise<keyof SendReport | null> {
    const { store, log, transport } = this.#o;
    const at = () => this.#o.now().toISOString();
    let rendered: RenderedMessage | null;
    try {
      rendered = await this.#o.render(message);
    } catch (error) {
      return await this.#retry(message, `render: ${reasonOf(error)}`, error);
    }
    if (rendered === null) {
      await store.outbox.settle(message, { state: "skipped", at: at(), reason: "nothing to send" });
      log.info("outbox message skipped", this.#logFields(message));
      return "skipped";
    }
    // Too little left of the claim to send safely: the next claim sends it.
    if (Date.parse(message.dueAt!) - this.#o.now().getTime() < this.#o.leaseMarginMs) return null;
    try {
      await transport.send({ ...rendered, messageId: messageIdOf(message.key, this.#from) });
    } catch (error) {
      return await this.#retry(message, reasonOf(error), error);
    }
    await store.outbox.settle(message, { state: "sent", at: at() });
    log.info("outbox message sent", this.#logFields(message));
    return "sent";
  }

  /** After a failed attempt: a retry after the schedule's wait, or failed for good after the last. */
  /**
   * What a log line says of a message: its Message-ID (to find it in the mail server's logs),
   * kind and attempts; never its key, which can hold a donor id (a capability).
   */
  #logFields(message: OutboxMessage, error?: unknown): Record<string, unknown> {
    const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
    return {
      messageId: messageIdOf(message.key, this.#from),
      kind: message.kind,
      attempts: message.attempts,
      // The server's codes, not its text: a refusal names the recipient's address.
      ...(error === undefined ? {} : { code: code ?? null, responseCode: responseCode ?? null }),
    };
  }

  async #retry(message: OutboxMessage, reason: string, error: unknown): Promise<"retried" | "failed"> {
    const { store, log, retryScheduleMs } = this.#o;
    const now = this.#o.now();
    if (message.attempts > retryScheduleMs.length) {
      await store.outbox.settle(message, { state: "failed", at: now.toISOString(), reason });
      log.error("outbox message failed for good", this.#logFields(message, error));
      return "failed";
    }
    const retryAt = new Date(now.getTime() + retryScheduleMs[message.attempts - 1]).toISOString();
    await store.outbox.settle(message, { state: "queued", retryAt, reason });
    log.warn("outbox message not sent; retrying", { ...this.#logFields(message, error), retryAt });
    return "retried";
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * `store`, calling `wake` after each call that wrote messages (a cause's with `messages`, or
 * `outbox.enqueue`), so this instance's sender sends them at once instead of at its next poll.
 */
export function wakeOnMessages(store: Store, wake: () => void): Store {
  const after = <T>(result: Promise<T>, options: WithMessages | undefined) =>
    result.then((value) => {
      if (options?.messages?.length) wake();
      return value;
    });
  // Each method that takes messages, and the index of its `WithMessages` argument.
  const wrap = <R extends object>(repo: R, optionsAt: Partial<Record<keyof R, number>>) =>
    new Proxy(repo, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        const at = optionsAt[prop as keyof R];
        if (at === undefined || typeof value !== "function") return value;
        return (...args: unknown[]) => after(value.apply(target, args), args[at] as WithMessages | undefined);
      },
    });
  const repos: Partial<Record<keyof Store, unknown>> = {
    transactions: wrap(store.transactions, { record: 1 }),
    subscriptions: wrap(store.subscriptions, { cancelForDonor: 2, updateIfVersion: 3 }),
    admins: wrap(store.admins, { create: 1 }),
    refunds: wrap(store.refunds, { settle: 3 }),
    donorSessions: wrap(store.donorSessions, { createSignIn: 1 }),
    outbox: new Proxy(store.outbox, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== "enqueue" || typeof value !== "function") return value;
        return (...args: unknown[]) => after(value.apply(target, args), { messages: args[0] as never });
      },
    }),
  };
  return new Proxy(store, {
    get: (target, prop, receiver) =>
      prop in repos ? repos[prop as keyof Store] : Reflect.get(target, prop, receiver),
  });
}
