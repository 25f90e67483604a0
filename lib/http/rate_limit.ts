/**
 * The HTTP side of the rate limits (`lib/rate_limits/rate_limits.ts`): a request's client address (behind a
 * trusted proxy, the one it appended) and the app's settings, so a route counts an action in one
 * call. A refusal is a {@link RateLimitedError}, which `domain_errors.ts` answers 429 with
 * `Retry-After`.
 *
 * @module
 */
import type { RouteContext } from "@/lib/framework/mod.ts";
import {
  type LimitedAction,
  limitRequest,
  RateLimitedError,
  type RateLimitSettings,
  requestAdmission,
} from "@/lib/rate_limits/rate_limits.ts";
import type { Admission, Store } from "@/lib/storage/types.ts";
import type { Logger } from "@/lib/core/log.ts";
import { clientAddress } from "./client_address.ts";

/** What a request's limits read of its state (the app's `AppState` has it). */
export interface LimitedState {
  services: { store: Store; config: { trustProxy: boolean; rateLimits: RateLimitSettings } };
  log: Logger;
}

/**
 * The client address of the request, as the rate limits and the decline caps count it.
 *
 * @example
 * ```ts
 * requestAddress(ctx); // "203.0.113.7"
 * ```
 */
export function requestAddress<T>(ctx: RouteContext<T, LimitedState>): string {
  return clientAddress(ctx.hono, ctx.state.services.config.trustProxy);
}

/**
 * Counts `action` for the request's client (its address, then everyone); throws
 * {@link RateLimitedError} (429) when a limit is reached.
 *
 * @example
 * ```ts
 * await limitClient(ctx, "donor");
 * ```
 */
export async function limitClient<T>(
  ctx: RouteContext<T, LimitedState>,
  action: LimitedAction,
): Promise<void> {
  const { store, config } = ctx.state.services;
  await loggingRefusal(
    ctx,
    action,
    () => limitRequest(store, config.rateLimits, action, requestAddress(ctx)),
  );
}

/**
 * What `action` by the request's client is counted against (its address, then everyone), for a
 * storage call that counts it with what it creates (`createDonor`'s admission).
 *
 * @example
 * ```ts
 * const donor = await loggingRefusal(ctx, "donor", () => createDonor(store, input, new Date(), clientAdmission(ctx, "donor")));
 * ```
 */
export function clientAdmission<T>(ctx: RouteContext<T, LimitedState>, action: LimitedAction): Admission {
  return requestAdmission(ctx.state.services.config.rateLimits, action, requestAddress(ctx));
}

/**
 * Runs `counted`, logging a refusal ({@link RateLimitedError}) of `action` before passing it on.
 *
 * @example
 * ```ts
 * await loggingRefusal(ctx, "donor", () => limitRequest(store, settings, "donor", address));
 * ```
 */
export async function loggingRefusal<T, R>(
  ctx: RouteContext<T, LimitedState>,
  action: LimitedAction,
  counted: () => Promise<R>,
): Promise<R> {
  try {
    return await counted();
  } catch (e) {
    // One line per refusal: a burst of them is what a card tester or a flood looks like.
    if (e instanceof RateLimitedError) {
      ctx.state.log.warn("rate limited", { action, retryAfterSeconds: e.retryAfterSeconds });
    }
    throw e;
  }
}
