import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** A Lua script and its SHA-1, so it is sent once and then called by hash. */
export interface RedisScript {
  source: string;
  sha: string;
}

/** Prepares a script for {@link runScript}. */
export function defineScript(source: string): RedisScript {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

/**
 * Runs `script` with EVALSHA, falling back to EVAL (which caches it again) when Redis answers
 * NOSCRIPT (after a restart or SCRIPT FLUSH).
 */
export async function runScript(
  redis: Redis,
  script: RedisScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
    return await redis.eval(script.source, keys.length, ...keys, ...args);
  }
}

/** Reads a script reply that must be an array of integers. */
export function integerReply(reply: unknown, length: number): number[] {
  if (Array.isArray(reply) && reply.length === length && reply.every((item) => typeof item === "number")) {
    return reply;
  }
  throw new Error("Unexpected reply from a Redis script");
}
