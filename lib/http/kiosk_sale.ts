/**
 * Reading a terminal sale's request (`pay-emv`, `test-emv`): who may start one, checked before
 * anything costs storage. A body signed with a `SIGNING_KEYS` server key (an integration) is
 * verified as any signed body. Anything else must come from a paired kiosk, and its device cookie
 * is checked first: a browser that is not a paired kiosk is refused (403) before its signature is
 * checked and its nonce written, so a flood of them from the internet writes nothing.
 *
 * @module
 */
import type { z } from "zod";
import type { Logger } from "@/lib/core/log.ts";
import type { Store } from "@/lib/storage/types.ts";
import { type KioskSale, requireKioskDevice } from "./kiosk_cookie.ts";
import { type SigningServices, verifySigned } from "./signed_body.ts";
import { validate } from "./validation.ts";

/** How {@link readKioskSale} reads one route's sales. */
export interface KioskSaleRoute<S extends z.ZodType> {
  schema: S;
  /** Of the app's services: what checks the signature and the device (`Services` has it). */
  services: SigningServices & { store: Store };
  log: Logger;
  /** The sale's shop and language, from its valid body. */
  sale: (body: z.output<S>) => Omit<KioskSale, "log">;
  /** Whether the body must be signed (`test-emv` allows none, as the spec sends none). */
  signatureRequired: boolean;
}

/**
 * Validates, authorises and verifies a sale's parsed body: with a server key, its signature; else
 * the body (400), the kiosk device for the sale's shop (403, logged), and then a signature when
 * the body carries one.
 *
 * @example
 * ```ts
 * const body = await readKioskSale(req, raw, {
 *   schema: PayEmvSchema, services, log, signatureRequired: true,
 *   sale: (b) => ({ shopNumber: b.shopNumber, lang: b.language }),
 * });
 * ```
 */
export async function readKioskSale<S extends z.ZodType>(
  req: Request,
  raw: unknown,
  { schema, services, log, sale, signatureRequired }: KioskSaleRoute<S>,
): Promise<z.output<S>> {
  const keyId = raw !== null && typeof raw === "object" ? (raw as { keyId?: unknown }).keyId : undefined;
  // A server key, or no key at all (refused as unsigned, before any write), as any signed body.
  if ((signatureRequired && typeof keyId !== "string") || services.config.signingKeys.has(String(keyId))) {
    return (await verifySigned(raw, schema, services)).body;
  }
  const body = validate(schema, raw);
  await requireKioskDevice(req, services.store, { ...sale(body), log });
  const signed = raw !== null && typeof raw === "object" && "signature" in raw;
  if (signatureRequired || signed) await verifySigned(raw, schema, services);
  return body;
}
