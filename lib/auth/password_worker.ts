/**
 * The password worker: computes argon2id hashes for the pool (`password_pool.ts`) on its own
 * thread, so a hash (tens of milliseconds of CPU, 19 MiB of memory) never holds up the event loop
 * that serves requests. One job at a time; the pool sends the next when this one answers.
 *
 * Messages in: `{ id, params }` ({@link Argon2Params}); out: `{ id, hash }` or `{ id, error }`.
 *
 * @module
 */
import { argon2id } from "hash-wasm";

/** What one argon2id computation needs: the normalized password and the parameters. */
export interface Argon2Params {
  password: string;
  salt: Uint8Array;
  memorySize: number;
  iterations: number;
  parallelism: number;
  hashLength: number;
}

/** A job for this worker. */
export interface WorkerJob {
  id: number;
  params: Argon2Params;
}

/** This worker's answer to a job: the hash, or why there is none. */
export type WorkerAnswer = { id: number; hash: Uint8Array } | { id: number; error: string };

// `self` is the worker's global scope here; typed loosely because the project checks every file
// with the window's library.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerJob>) => void) | null;
  postMessage(message: WorkerAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = async ({ data: { id, params } }) => {
  try {
    const hash = await argon2id({ ...params, outputType: "binary" });
    scope.postMessage({ id, hash }, [hash.buffer]);
  } catch (e) {
    scope.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};
