import type { LimitStore } from "./limit-store.js";

/**
 * Answers from `fallback` (this process) whenever `primary` (Redis) fails, so limits keep counting
 * during an outage, each instance on its own (docs/verifying-keys.md#when-redis-is-down). `onError`
 * is told why; the verification is not refused for it.
 */
export function createFallbackLimitStore(
  primary: LimitStore,
  fallback: LimitStore,
  onError: (error: unknown) => void,
): LimitStore {
  return {
    async apply(wallet, checks, nowMs) {
      try {
        return await primary.apply(wallet, checks, nowMs);
      } catch (error) {
        onError(error);
        return await fallback.apply(wallet, checks, nowMs);
      }
    },
    async peek(wallet, checks, nowMs) {
      try {
        return await primary.peek(wallet, checks, nowMs);
      } catch (error) {
        onError(error);
        return await fallback.peek(wallet, checks, nowMs);
      }
    },
    async refund(wallet, checks, nowMs) {
      try {
        await primary.refund(wallet, checks, nowMs);
      } catch (error) {
        onError(error);
        await fallback.refund(wallet, checks, nowMs);
      }
    },
  };
}
