/**
 * Payment providers: one interface (`provider.ts`), one folder per provider (`pelecard/`, `sandbox/`), the pass every reconciler shares, and which terminal serves a kiosk.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { runPass } from "./pass.ts";
export { type PaymentProvider, ProviderError, type ProviderResult, type TerminalResult } from "./provider.ts";
export { sandboxRecordNeeded } from "@/lib/providers/sandbox/sandbox.ts";
export { createPelecardProvider } from "@/lib/providers/pelecard/pelecard.ts";
export { type ProviderFactory } from "./provider.ts";
export { createSandboxProvider, type SandboxControls } from "@/lib/providers/sandbox/sandbox.ts";
export { sandboxOf, terminalFor } from "./terminals.ts";
