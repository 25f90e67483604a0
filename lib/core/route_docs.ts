/**
 * What an API operation's documentation says, in the shape `lib/app/openapi.ts` turns into the
 * OpenAPI document. A type of its own below the concepts, so each concept writes its operations'
 * docs beside its schemas (`lib/<concept>/api_docs.ts`) and its route re-exports them as `docs`.
 *
 * @module
 */
import type { z } from "zod";
import type { Method } from "@/lib/framework/types.ts";

/** One documented operation. */
export interface OperationDoc {
  summary: string;
  description?: string;
  tags: string[];
  /** `bearer`: an admin access token; `signature`: a signed body (spec section 7). */
  auth?: "bearer" | "signature";
  body?: z.ZodType;
  query?: z.ZodType;
  /**
   * Status → description and the body's schema, JSON unless `mediaType` says otherwise (e.g.
   * `text/csv`); `headers` names response headers worth documenting (name → description), e.g. a
   * download's `Content-Disposition`.
   */
  responses: Record<
    number,
    { description: string; schema?: z.ZodType; mediaType?: string; headers?: Record<string, string> }
  >;
}

/** What an API route module exports as `docs`: its operations, by method. */
export type RouteDocs = Partial<Record<Method, OperationDoc>>;
