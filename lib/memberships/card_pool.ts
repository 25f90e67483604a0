/**
 * Member cards (and their Apple Wallet passes), drawn only here: by workers (`card_worker.ts`), as receipts are (`lib/receipts/
 * pdf_pool.ts`): a worker per spare core, one card at a time each, behind a bounded queue
 * (`lib/core/worker_pool.ts`); jobs beyond it are refused at once ({@link MemberCardsBusyError}).
 * Workers start with the first card and stay; {@link MemberCardPool.close} ends them.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import { spareCores, WorkerPool } from "@/lib/core/worker_pool.ts";
import type { MemberCardFace } from "./card_face.ts";
import type { CardJob } from "./card_worker.ts";
import { MemberCardsBusyError } from "./errors.ts";

/**
 * Draws a card as a PDF or a PNG, or makes its Apple Wallet pass (`wallet_pass.ts`): the app's pool
 * (`services.memberCards.render`).
 */
export type RenderMemberCard = (face: MemberCardFace, format: CardJob["format"]) => Promise<Uint8Array>;

const cardWorker = () => new Worker(new URL("./card_worker.ts", import.meta.url).href, { type: "module" });

/**
 * The card workers and their queue.
 *
 * @example
 * ```ts
 * const cards = new MemberCardPool();
 * const png = await cards.render(face, "png");
 * await cards.close();
 * ```
 */
export class MemberCardPool {
  readonly #pool: WorkerPool<CardJob, Uint8Array>;

  constructor(options: { workers?: number; maxQueue?: number; log?: Pick<Logger, "warn"> } = {}) {
    this.#pool = new WorkerPool({
      workers: options.workers ?? spareCores(),
      maxQueue: options.maxQueue ?? 64,
      createWorker: cardWorker,
      busy: (seconds) => new MemberCardsBusyError(seconds),
      name: "member card",
      firstGuessMs: 80,
      log: options.log,
    });
  }

  /** The card drawn by a worker; {@link MemberCardsBusyError} when the queue is full. */
  render: RenderMemberCard = (face, format) => this.#pool.run({ face, format });

  /** Terminates the workers; waiting jobs fail. Idempotent. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
