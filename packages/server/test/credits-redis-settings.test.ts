import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { freePort } from "@keyport/test-support/port";
import { Redis } from "ioredis";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { warnAboutRedisDurability } from "../src/credits/redis-checks.js";

const started: ChildProcess[] = [];
const folders: string[] = [];

/** A redis-server of this test's own with `args`, and a client on it. */
async function startRedis(args: string[]): Promise<Redis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "keyport-credits-settings-"));
  folders.push(dir);
  const child = spawn("redis-server", ["--port", String(port), "--save", "", "--dir", dir, ...args], {
    stdio: "ignore",
  });
  started.push(child);
  const redis = new Redis(port, "127.0.0.1", { retryStrategy: (times) => (times > 50 ? null : 50) });
  redis.on("error", () => undefined);
  await redis.ping();
  return redis;
}

/** The warnings `warnAboutRedisDurability` logs for a Redis started with `args`. */
async function warningsFor(args: string[]): Promise<string[]> {
  const redis = await startRedis(args);
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  await warnAboutRedisDurability(redis, pino({ level: "warn" }, sink));
  redis.disconnect();
  return lines.map((line) => String(JSON.parse(line).msg));
}

afterEach(async () => {
  await Promise.all(
    started.splice(0).map(async (child) => {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    }),
  );
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the Redis settings credits need", () => {
  it("warns about a Redis without an fsynced AOF, and about eviction", async () => {
    const warnings = await warningsFor(["--appendonly", "no", "--maxmemory-policy", "allkeys-lru"]);
    expect(warnings).toEqual([
      expect.stringContaining("appendfsync always"),
      expect.stringContaining("maxmemory-policy noeviction"),
    ]);
    expect(await warningsFor(["--appendonly", "yes", "--appendfsync", "everysec"])).toEqual([
      expect.stringContaining("appendfsync always"),
    ]);
  });

  it("says nothing for appendonly yes, appendfsync always and noeviction, or when CONFIG is refused", async () => {
    const durable = ["--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"];
    expect(await warningsFor([...durable, "--appenddirname", `aof-${process.pid}-${Date.now()}`])).toEqual(
      [],
    );
    expect(await warningsFor(["--appendonly", "no", "--rename-command", "CONFIG", ""])).toEqual([]);
  });
});
