/**
 * The desk's queue of check-ins (issue 28, item 2): every check-in and allow-anyway is first kept in
 * the browser's IndexedDB with the desk's own id (`crypto.randomUUID()`), then sent; one made while
 * the network is down stays there ("waiting to send (N)") and is sent when it returns (the `online`
 * event, the page's load, a retry timer), in the order they were made.
 *
 * Exactly once: the id travels with the check-in and the server records each id once (sending it
 * again answers the visit stored first), so a check-in whose answer was lost is resent safely; in
 * the page, one flush runs at a time (a Web Lock across the desk's tabs where there are locks).
 * A 2xx removes the entry; a 4xx keeps it visible as failed with the server's reason (a card lapsed
 * since the desk last synced, say) until staff dismiss it; a network failure or a 5xx leaves it
 * waiting and stops the flush there, so later ones do not overtake it.
 *
 * @module
 */

/** One kept check-in: the request to send (with its `id`), and where it stands. */
export interface QueuedCheckIn<T extends { id: string } = { id: string }> {
  /** The order it was made in (IndexedDB's key). */
  seq: number;
  request: T;
  /** When it was made (ISO 8601). */
  queuedAt: string;
  state: "waiting" | "failed";
  /** The server's reason, when failed. */
  reason?: string;
}

/** How one send ended: `sent` (2xx, or already recorded), `refused` (a 4xx with its reason). */
export type SendResult = { sent: true } | { sent: false; reason: string };

/**
 * Sends one check-in: resolves with its result, rejects when the network failed (or the server
 * answered 5xx), so the entry stays waiting.
 */
export type SendCheckIn<T> = (request: T) => Promise<SendResult>;

const DB_NAME = "museum-desk";
const STORE = "check-ins";

function promised<R>(request: IDBRequest<R>): Promise<R> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openDb(name: string): Promise<IDBDatabase> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
  return promised(open);
}

/** The desk's queue over one IndexedDB database. */
export class CheckInQueue<T extends { id: string }> {
  #db: Promise<IDBDatabase>;
  #flushing: Promise<void> | null = null;
  #listeners = new Set<() => void>();

  /** Opens (or makes) the queue's database; `name` only differs in tests. */
  constructor(name: string = DB_NAME) {
    this.#db = openDb(name);
  }

  async #store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    return (await this.#db).transaction(STORE, mode).objectStore(STORE);
  }

  /** Calls `listener` after every change of the queue; answers a function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed() {
    for (const listener of this.#listeners) listener();
  }

  /**
   * Keeps a check-in (with a new id unless it has one) and answers it as kept.
   *
   * @example
   * ```ts
   * const entry = await queue.add({ id: crypto.randomUUID(), kind: "check-in", number, holder, guests: 0 });
   * ```
   */
  async add(request: T, now: Date = new Date()): Promise<QueuedCheckIn<T>> {
    const entry = { request, queuedAt: now.toISOString(), state: "waiting" as const };
    const seq = await promised((await this.#store("readwrite")).add(entry));
    this.#changed();
    return { ...entry, seq: seq as number };
  }

  /** Every kept check-in, in the order made. */
  async list(): Promise<QueuedCheckIn<T>[]> {
    return await promised((await this.#store("readonly")).getAll()) as QueuedCheckIn<T>[];
  }

  /** Forgets an entry (a failed one staff have read). */
  async remove(seq: number): Promise<void> {
    await promised((await this.#store("readwrite")).delete(seq));
    this.#changed();
  }

  /**
   * Sends the waiting check-ins in order, once at a time; resolves when done or stopped by a network
   * failure. A flush asked for while one runs joins it.
   *
   * @example
   * ```ts
   * addEventListener("online", () => queue.flush(send));
   * ```
   */
  flush(send: SendCheckIn<T>): Promise<void> {
    if (!this.#flushing) {
      const run = () => this.#flushOnce(send);
      const locks = (globalThis.navigator as Navigator | undefined)?.locks;
      this.#flushing = (locks ? locks.request(`${DB_NAME}-flush`, run) : run())
        .finally(() => this.#flushing = null);
    }
    return this.#flushing;
  }

  async #flushOnce(send: SendCheckIn<T>): Promise<void> {
    for (const entry of await this.list()) {
      if (entry.state !== "waiting") continue;
      let result: SendResult;
      try {
        result = await send(entry.request);
      } catch {
        return; // Offline (or the server down): the rest waits behind it, in order.
      }
      if (result.sent) await this.remove(entry.seq);
      else {
        await promised(
          (await this.#store("readwrite")).put({ ...entry, state: "failed", reason: result.reason }),
        );
        this.#changed();
      }
    }
  }
}

/**
 * Sends the queue whenever it may go through: now, when the browser is back online, and every
 * `retryMs` while entries wait. Answers a function that stops it.
 *
 * @example
 * ```ts
 * const stop = keepSending(queue, send);
 * ```
 */
export function keepSending<T extends { id: string }>(
  queue: CheckInQueue<T>,
  send: SendCheckIn<T>,
  retryMs = 30_000,
): () => void {
  const flush = () => void queue.flush(send).catch(() => {});
  addEventListener("online", flush);
  const timer = setInterval(flush, retryMs);
  flush();
  return () => {
    removeEventListener("online", flush);
    clearInterval(timer);
  };
}
