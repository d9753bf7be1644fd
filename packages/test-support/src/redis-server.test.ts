import { existsSync } from "node:fs";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startRedisServer } from "./redis-server.js";

/** The length of the first complete RESP value in `text`, or undefined while it is incomplete. */
function replyLength(text: string, at = 0): number | undefined {
  const end = text.indexOf("\r\n", at);
  if (end < 0) return undefined;
  const head = text.slice(at + 1, end);
  const after = end + 2;
  if (text[at] === "$") {
    const size = Number(head);
    if (size < 0) return after - at;
    return text.length >= after + size + 2 ? after + size + 2 - at : undefined;
  }
  if (text[at] !== "*") return after - at;
  let cursor = after;
  for (let i = 0; i < Number(head); i++) {
    const size = replyLength(text, cursor);
    if (size === undefined) return undefined;
    cursor += size;
  }
  return cursor - at;
}

/** Sends one inline command and resolves with the raw reply. */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    let reply = "";
    socket.on("error", reject);
    socket.on("connect", () => socket.write(`${line}\r\n`));
    socket.on("data", (data) => {
      reply += data.toString("latin1");
      if (replyLength(reply) !== undefined) {
        socket.destroy();
        resolve(reply);
      }
    });
  });
}

describe("startRedisServer", () => {
  it("keeps an acknowledged write across kill -9 and a restart on the same port, and removes its dir on close", async () => {
    const redis = await startRedisServer();
    try {
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
      expect(await command(redis.port, "CONFIG GET appendfsync")).toContain("always");
      expect(await command(redis.port, "SET survivor 42")).toBe("+OK\r\n");
      await redis.kill("SIGKILL");
      await expect(command(redis.port, "PING")).rejects.toThrow(/ECONNREFUSED/);
      await redis.restart();
      expect(await command(redis.port, "GET survivor")).toBe("$2\r\n42\r\n");
    } finally {
      await redis.close();
    }
    expect(existsSync(redis.dir)).toBe(false);
    await expect(command(redis.port, "PING")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("takes more arguments after its defaults", async () => {
    const redis = await startRedisServer({ args: ["--appendfsync", "everysec"] });
    try {
      expect(await command(redis.port, "CONFIG GET appendfsync")).toContain("everysec");
      expect(await command(redis.port, "CONFIG GET appendonly")).toContain("yes");
    } finally {
      await redis.close();
    }
  });
});
