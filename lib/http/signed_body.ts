/**
 * Reading a signed JSON body (spec section 7): the signature is checked over the raw values first,
 * then the body is validated. A bad signature answers 401 with its reason.
 *
 * @module
 */
import type { z } from "zod";
import { verifySignedPayload } from "../signature_check.ts";
import type { Services } from "../state.ts";
import { readJsonValue, validate } from "./validation.ts";

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
  services: Services,
): Promise<z.output<S>> {
  const raw = await readJsonValue(req);
  await verifySignedPayload(raw, {
    appSecret: services.config.appSecret,
    serverKeys: services.config.signingKeys,
    nonces: services.store.nonces,
  });
  return validate(schema, raw);
}
