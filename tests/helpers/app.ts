/**
 * Starts the real app on a free port for integration and browser tests: real HTTP, real storage
 * (in-memory Deno KV unless a store is given), logs captured.
 *
 * @module
 */
import { loadConfig } from "../../lib/config.ts";
import { loadBuild } from "../../lib/framework/assets.ts";
import { ensureBuild } from "../../lib/framework/build.ts";
import { seedFlags } from "../../lib/flags.ts";
import { createLogger } from "../../lib/log.ts";
import { openStore } from "../../lib/storage/mod.ts";
import type { Store } from "../../lib/storage/types.ts";
import type { Config } from "../../lib/config.ts";

/** Every page of the spec's route table (and the kiosk pairing page, issue 13), under a language. */
export const PAGE_PATHS = [
  "",
  "terminal-payment/7",
  "terminal-payment",
  "terminal-success/7",
  "terminal-success",
  "terminal-error/7",
  "terminal-error",
  "success",
  "error",
  "cancel-subscription",
  "login",
  "register",
  "admin",
  "kiosk-pair",
];

export const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/** A running test app. */
export interface TestApp {
  url: string;
  store: Store;
  config: Config;
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

let built: Promise<unknown> | null = null;

/** Builds the client once per test process (a no-op when `_build` is current). */
export function ensureTestBuild(): Promise<unknown> {
  built ??= ensureBuild(ROOT).then(() => loadBuild(`${ROOT}/_build`));
  return built;
}

/**
 * Starts the app with test defaults plus `env`.
 *
 * @example
 * ```ts
 * const app = await startTestApp({ env: { FEATURE_MONTHLY_PAYMENT: "0" } });
 * const res = await fetch(`${app.url}/en/`);
 * await app.close();
 * ```
 */
export async function startTestApp(
  options: { env?: Record<string, string>; store?: Store } = {},
): Promise<TestApp> {
  await ensureTestBuild();
  const config = await loadConfig({
    DENO_ENV: "test",
    APP_SECRET: "test-secret-that-is-long-enough-0123456789",
    KV_PATH: ":memory:",
    ...options.env,
  });
  // A store the caller gives stays the caller's to close.
  const ownStore = !options.store;
  const store = options.store ?? await openStore({ kvPath: ":memory:" });
  await seedFlags(store, config.features);
  const logs: Record<string, unknown>[] = [];
  const log = createLogger((line) => logs.push(JSON.parse(line)));
  const { createApp } = await import("../../lib/app.ts");
  const { createServices } = await import("../../lib/services.ts");
  const app = createApp(await createServices(config, store, log));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    store,
    config,
    logs,
    async close() {
      await server.shutdown();
      if (ownStore) await store.close();
    },
  };
}
