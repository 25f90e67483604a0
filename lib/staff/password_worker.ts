/**
 * The password worker: computes argon2id hashes for the pool (`password_pool.ts`) on its own
 * thread, so a hash (tens of milliseconds of CPU, 19 MiB of memory) never holds up the event loop
 * that serves requests. One job at a time; the pool sends the next when this one answers.
 *
 * Messages in: `{ id, job }` (the {@link Argon2Params}); out: `{ id, result }` (the hash) or
 * `{ id, error }` (`lib/core/worker_pool.ts`).
 *
 * @module
 */
import { argon2id } from "hash-wasm";
import { serveJobs } from "@/lib/core/worker_pool.ts";

/** What one argon2id computation needs: the normalized password and the parameters. */
export interface Argon2Params {
  password: string;
  salt: Uint8Array;
  memorySize: number;
  iterations: number;
  parallelism: number;
  hashLength: number;
}

serveJobs(
  async (params: Argon2Params) => await argon2id({ ...params, outputType: "binary" }),
  (hash) => [hash.buffer],
);
