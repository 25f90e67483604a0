/**
 * Reading a signed JSON body (spec section 7): the signature is checked over the raw values first,
 * then the body is validated. A bad signature answers 401 with its reason.
 *
 * @module
 */
import type { z } from "zod";
import { verifySignedPayload } from "@/lib/signing/signature_check.ts";
import type { Store } from "@/lib/storage/types.ts";
import { readJsonValue, validate } from "./validation.ts";

/** What signed bodies are checked with, of the app's services (`Services` of `lib/app/state.ts` has it). */
export interface SigningServices {
  config: { appSecret: string; signingKeys: Map<string, string> };
  store: Pick<Store, "nonces">;
}

/**
 * Reads, verifies and validates a signed body.
 *
 * @example
 * ```ts
 * const body = await readSignedJson(req, CreatePaymentSchema, ctx.state.services);
 * ```
 */
export async function readSignedJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  services: SigningServices,
): Promise<z.output<S>> {
  return (await readSigned(req, schema, services)).body;
}

/**
 * The same, answering also whether the body was signed with a `SIGNING_KEYS` server key (an
 * integration) rather than a browser key: terminal sales let server keys through without a paired
 * kiosk device, and require the device for browser keys, which any page hands out.
 *
 * @example
 * ```ts
 * const { body, serverKey } = await readSigned(req, PayEmvSchema, ctx.state.services);
 * ```
 */
export async function readSigned<S extends z.ZodType>(
  req: Request,
  schema: S,
  services: SigningServices,
): Promise<{ body: z.output<S>; serverKey: boolean }> {
  return await verifySigned(await readJsonValue(req), schema, services);
}

/** Verifies an already parsed body as {@link readSigned} does. */
export async function verifySigned<S extends z.ZodType>(
  raw: unknown,
  schema: S,
  services: SigningServices,
): Promise<{ body: z.output<S>; serverKey: boolean }> {
  const { keyId } = await verifySignedPayload(raw, {
    appSecret: services.config.appSecret,
    serverKeys: services.config.signingKeys,
    nonces: services.store.nonces,
  });
  return { body: validate(schema, raw), serverKey: services.config.signingKeys.has(keyId) };
}
