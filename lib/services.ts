/**
 * Builds the long-lived services the app runs on, once, from configuration and an open store.
 *
 * @module
 */
import { PasswordPool } from "./auth/password_pool.ts";
import { deriveKey } from "./auth/tokens.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";
import { createProviderFactory } from "./payments/mod.ts";
import type { Services } from "./state.ts";
import type { Store } from "./storage/types.ts";

/**
 * Creates the services. Their password pool starts its workers on the first sign-in; close it
 * (`services.passwords.close()`) when the server stops.
 *
 * @example
 * ```ts
 * const services = await createServices(config, store, createLogger());
 * const app = createApp(services);
 * ```
 */
export async function createServices(config: Config, store: Store, log: Logger): Promise<Services> {
  return {
    config,
    store,
    log,
    accessKey: await deriveKey(config.appSecret, "admin-access-token/v1"),
    providerFor: createProviderFactory(config, store, log),
    passwords: new PasswordPool({ ...config.passwords, log }),
  };
}
