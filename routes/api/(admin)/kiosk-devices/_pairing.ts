/**
 * What the kiosk device routes share: the pairing link of a code (a file starting with `_` beside
 * routes is a helper, not a route).
 */
import type { PairingCode } from "@/lib/kiosk/devices.ts";
import type { AppState } from "@/lib/app/state.ts";

/** The code with its pairing link, on our public origin, in the admin's language. */
export function withLink(
  pairing: PairingCode,
  state: AppState,
  url: URL,
  language: string | undefined,
): PairingCode & { url: string } {
  const origin = state.services.config.publicUrl ?? url.origin;
  const link = new URL(`/${language ?? "en"}/kiosk-pair`, origin);
  link.searchParams.set("code", pairing.code);
  return { ...pairing, url: link.href };
}
