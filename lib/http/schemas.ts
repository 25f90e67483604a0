/**
 * The API's error answer, as OpenAPI documents it (`errors.ts` writes it).
 *
 * @module
 */
import { z } from "zod";

/** `{ message, statusCode, errors? }`: every error under `/api`. */
export const ErrorSchema = z.object({
  message: z.string(),
  statusCode: z.number().int(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
}).meta({ id: "Error" });
