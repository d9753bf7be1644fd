// The limiter's types live in @keyport/node-edge; re-exported for the modules that still import them from here.
export type { RateLimiter, RateLimitResult } from "@keyport/node-edge";
