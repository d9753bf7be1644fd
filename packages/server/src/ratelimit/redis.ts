// The Redis limiter lives in @keyport/node-edge; re-exported for the modules that still import it from here.
export { createRedisRateLimiter, type RedisRateLimiterOptions } from "@keyport/node-edge";
