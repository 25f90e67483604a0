/**
 * Starts the real app on a free port for integration and browser tests: real HTTP, real storage
 * (in-memory Deno KV unless a store is given), logs captured.
 *
 * @module
 */
import { loadConfig } from "@/lib/app/config.ts";
import { loadBuild } from "@/lib/framework/assets.ts";
import { ensureBuild } from "@/lib/framework/build.ts";
import { seedFlags } from "@/lib/settings/flags.ts";
import { createLogger } from "@/lib/core/log.ts";
import type { RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import type { Config } from "@/lib/app/config.ts";
import type { Services } from "@/lib/app/state.ts";
import { ADMIN_SECTIONS } from "@/lib/shared/admin_sections.ts";

/**
 * Every page of the spec's route table (and the kiosk pairing page, issue 13; the back office's
 * sections, issue 26, and its two-factor page), under a language.
 */
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
  "account",
  "login",
  "register",
  ...ADMIN_SECTIONS.map((s) => s.path ? `admin/${s.path}` : "admin"),
  "admin/two-factor",
  "kiosk-pair",
];

export const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/**
 * Rate limits raised by setting (never switched off in code) for tests and benchmarks that send
 * many donors, payments, declines or registrations from the one test address: the limiter still
 * runs, and counts, on every request. Tests of the limits themselves set their own, low ones.
 */
export const RAISED_RATE_LIMITS: Readonly<Record<string, string>> = {
  RATE_LIMIT_PER_ADDRESS: "100000000",
  RATE_LIMIT_GLOBAL: "100000000",
  REGISTRATION_LIMIT_PER_ADDRESS: "100000000",
  REGISTRATION_LIMIT_GLOBAL: "100000000",
  DECLINE_LIMIT_PER_EMAIL: "100000000",
  DECLINE_LIMIT_PER_ADDRESS: "100000000",
};

/** A running test app. */
export interface TestApp {
  url: string;
  store: Store;
  config: Config;
  /** The app's services (e.g. its password pool, to count hashes). */
  services: Services;
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** The app's own `fetch` (what `Deno.serve` calls), to look at an answer before the server sends it. */
  fetch(req: Request): Response | Promise<Response>;
  close(): Promise<void>;
}

let built: Promise<unknown> | null = null;

/** Builds the client once per test process (a no-op when `_build` is current). */
export function ensureTestBuild(): Promise<unknown> {
  built ??= ensureBuild(ROOT).then(() => loadBuild(`${ROOT}/_build`));
  return built;
}

/**
 * Starts the app with test defaults (the {@link RAISED_RATE_LIMITS} among them) plus `env`.
 *
 * @example
 * ```ts
 * const app = await startTestApp({ env: { FEATURE_MONTHLY_PAYMENT: "0" } });
 * const res = await fetch(`${app.url}/en/`);
 * await app.close();
 * ```
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    store?: Store;
    render?: RenderMessage;
    /** Makes the outbox sender's worker (`createServices`' option): tests of its fallback. */
    createSenderWorker?: () => Worker;
  } = {},
): Promise<TestApp> {
  await ensureTestBuild();
  const config = await loadConfig({
    DENO_ENV: "test",
    APP_SECRET: "test-secret-that-is-long-enough-0123456789",
    KV_PATH: ":memory:",
    ...RAISED_RATE_LIMITS,
    ...options.env,
  });
  // A store the caller gives stays the caller's to close.
  const ownStore = !options.store;
  const store = options.store ?? await openStore({ kvPath: ":memory:" });
  await seedFlags(store, config.features);
  const logs: Record<string, unknown>[] = [];
  const log = createLogger((line) => logs.push(JSON.parse(line)));
  const { createApp } = await import("@/lib/app/app.ts");
  const { createServices } = await import("@/lib/app/services.ts");
  const services = await createServices(config, store, log, {
    render: options.render,
    createSenderWorker: options.createSenderWorker,
  });
  const app = createApp(services);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    store,
    config,
    logs,
    services,
    fetch: (req) => app.fetch(req),
    async close() {
      await server.shutdown();
      await services.mail.sender?.stop();
      await services.passwords.close();
      await services.receiptPdfs.close();
      await services.memberCards.close();
      if (ownStore) await store.close();
    },
  };
}
