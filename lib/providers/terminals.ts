/**
 * Which provider and terminal serve a request: the sandbox's own controls, and a kiosk shop's terminal.
 *
 * @module
 */
import type { PaymentSettings } from "./config.ts";
import type { PaymentProvider } from "./provider.ts";
import type { SandboxControls } from "@/lib/providers/sandbox/sandbox.ts";

/** The sandbox's own controls, when the sandbox is the provider. */
export function sandboxOf(provider: PaymentProvider): (PaymentProvider & SandboxControls) | null {
  return provider.id === "sandbox" ? provider as PaymentProvider & SandboxControls : null;
}

/**
 * The terminal (PinPad) that serves a kiosk's shop: the configured one (`TERMINALS`), or, on the
 * sandbox, a simulated `sim-<shop>` so any shop works on a fresh machine; `null` when none is known.
 *
 * @example
 * ```ts
 * terminalFor(config, "12"); // "pp-12" with TERMINALS=12:pp-12, "sim-12" on the sandbox
 * ```
 */
export function terminalFor(
  config: { payments: Pick<PaymentSettings, "terminals" | "provider"> },
  shop: string | null | undefined,
): string | null {
  if (!shop) return null;
  return config.payments.terminals.get(shop) ??
    (config.payments.provider === "sandbox" ? `sim-${shop}` : null);
}
