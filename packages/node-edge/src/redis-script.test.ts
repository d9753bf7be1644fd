import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { defineScript, integerReply, runScript } from "./redis-script.js";

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;

afterAll(async () => {
  await redis?.quit();
});

describe("redis scripts", () => {
  it.runIf(redis)("runs by hash, and sends the source again when Redis has forgotten it", async () => {
    if (!redis) return;
    // A script no other test defines: flushing it (SCRIPT FLUSH would empty every script) is unnecessary.
    const script = defineScript(`return {tonumber(ARGV[1]) + 1, ${Date.now()}, '${randomUUID()}' ~= ''}`);
    expect(await redis.script("EXISTS", script.sha)).toEqual([0]);
    const [sum] = integerReply(await runScript(redis, script, [], [41]), 3);
    expect(sum).toBe(42);
    expect(await redis.script("EXISTS", script.sha)).toEqual([1]);
  });

  it("refuses a reply of the wrong shape", () => {
    expect(integerReply([1, 2], 2)).toEqual([1, 2]);
    expect(() => integerReply([1], 2)).toThrow("Unexpected reply from a Redis script");
    expect(() => integerReply(["1", 2], 2)).toThrow("Unexpected reply from a Redis script");
    expect(() => integerReply(null, 0)).toThrow("Unexpected reply from a Redis script");
  });
});
