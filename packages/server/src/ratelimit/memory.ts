// The in-process limiter lives in @keyport/node-edge; re-exported for the modules that still import it from here.
export { createMemoryRateLimiter, type MemoryRateLimiter } from "@keyport/node-edge";
