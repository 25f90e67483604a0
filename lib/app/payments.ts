/**
 * Choosing and wiring the payment provider (`PAYMENT_PROVIDER`), and the context the payment
 * routes hand to `lib/donations/service.ts`: composition, so it reads the app's configuration.
 *
 * @module
 */
import type { Config } from "./config.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { Store } from "@/lib/storage/types.ts";
import {
  createPelecardProvider,
  createSandboxProvider,
  type PaymentProvider,
  type ProviderFactory,
  type SandboxControls,
} from "@/lib/providers/mod.ts";
import type { PaymentsContext } from "@/lib/donations/mod.ts";

/**
 * What {@link paymentsContext} needs of the app's services (`Services` of `lib/app/state.ts` has it):
 * named here, so that payments need not know the app's state and state can name the factory.
 */
export interface PaymentServices {
  config: Config;
  store: Store;
  providerFor: ProviderFactory;
}

/**
 * The provider factory for the configuration.
 *
 * @example
 * ```ts
 * const providerFor = createProviderFactory(config, store, log);
 * providerFor("https://donate.museum.org").id; // "pelecard"
 * ```
 */
export function createProviderFactory(config: Config, store: Store, log: Logger): ProviderFactory {
  const p = config.payments;
  if (p.provider === "pelecard") {
    const pelecard = createPelecardProvider({
      ...p.pelecard!,
      log: (msg, fields) => log.info(msg, fields),
    });
    return () => pelecard;
  }
  // One sandbox per origin, kept: every donation page asks for its provider, and making one is a few
  // dozen closures. Without PUBLIC_URL the origin comes from the request, so only a few are kept.
  const sandboxes = new Map<string, PaymentProvider & SandboxControls>();
  return (origin) => {
    let sandbox = sandboxes.get(origin);
    if (!sandbox) {
      if (sandboxes.size >= 8) sandboxes.delete(sandboxes.keys().next().value!);
      sandbox = createSandboxProvider({
        store,
        origin,
        secret: `${config.appSecret}/sandbox`,
        terminalMode: p.sandboxTerminal,
      });
      sandboxes.set(origin, sandbox);
    }
    return sandbox;
  };
}

/**
 * The payments context of a request: its origin (or `PUBLIC_URL`), the provider and limits, and
 * the client's address when the request starts a payment (for the decline caps).
 *
 * @example
 * ```ts
 * const ctx = paymentsContext(state.services, state.flags.MONTHLY_PAYMENT, url, state.log);
 * ```
 */
export function paymentsContext(
  services: PaymentServices,
  monthlyEnabled: boolean,
  url: URL,
  log: Logger,
  clientAddress?: string,
): PaymentsContext {
  const origin = services.config.publicUrl ?? url.origin;
  return {
    store: services.store,
    provider: services.providerFor(origin),
    log,
    origin,
    maxAmount: services.config.payments.maxAmount,
    monthlyEnabled,
    rateLimits: services.config.rateLimits,
    membershipGraceDays: services.config.memberships.graceDays,
    clientAddress,
  };
}
