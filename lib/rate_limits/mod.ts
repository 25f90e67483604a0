/**
 * Rate limits: per address, per card and per origin, kept in storage so every instance counts together.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export {
  addressBucket,
  declineCaps,
  limitHits,
  ORIGIN_TTL_MS,
  paymentAdmission,
  RateLimitedError,
  type RateLimitSettings,
  recordDecline,
  refusalError,
} from "./rate_limits.ts";
