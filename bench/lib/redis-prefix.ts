import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

/** One RESP reply: a simple string, error, integer, bulk string (null when absent) or array. */
type Reply = string | number | null | Error | Reply[];

/** Parses one reply at `offset`; null when `buffer` does not hold all of it yet. */
function parseReply(buffer: Buffer, offset: number): { reply: Reply; next: number } | null {
  const end = buffer.indexOf("\r\n", offset);
  if (end < 0) return null;
  const type = String.fromCharCode(buffer[offset] ?? 0);
  const line = buffer.toString("utf8", offset + 1, end);
  const next = end + 2;
  switch (type) {
    case "+":
      return { reply: line, next };
    case "-":
      return { reply: new Error(line), next };
    case ":":
      return { reply: Number(line), next };
    case "$": {
      const length = Number(line);
      if (length < 0) return { reply: null, next };
      if (buffer.length < next + length + 2) return null;
      return { reply: buffer.toString("utf8", next, next + length), next: next + length + 2 };
    }
    case "*": {
      const count = Number(line);
      const items: Reply[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (item === null) return null;
        items.push(item.reply);
        at = item.next;
      }
      return { reply: items, next: at };
    }
    default:
      throw new Error(`unexpected Redis reply type ${JSON.stringify(type)}`);
  }
}

/** Sends one command and resolves with its reply (one command at a time per socket). */
function command(socket: Socket, args: readonly string[]): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const parsed = parseReply(buffer, 0);
      if (parsed === null) return;
      socket.off("data", onData);
      socket.off("error", reject);
      if (parsed.reply instanceof Error) reject(parsed.reply);
      else resolve(parsed.reply);
    };
    socket.on("data", onData);
    socket.once("error", reject);
    const parts = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`);
    socket.write(`*${args.length}\r\n${parts.join("")}`);
  });
}

/** Deletes every key under `prefix` in the Redis at `url` (SCAN, then DEL in batches). */
async function deletePrefix(url: string, prefix: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port || 6379), hostname || "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  try {
    let cursor = "0";
    do {
      const reply = await command(socket, ["SCAN", cursor, "MATCH", `${prefix}*`, "COUNT", "1000"]);
      if (!Array.isArray(reply) || typeof reply[0] !== "string" || !Array.isArray(reply[1])) {
        throw new Error("unexpected SCAN reply");
      }
      cursor = reply[0];
      const keys = reply[1].filter((key): key is string => typeof key === "string");
      if (keys.length > 0) await command(socket, ["DEL", ...keys]);
    } while (cursor !== "0");
  } finally {
    socket.destroy();
  }
}

/** A Redis key prefix of one bench run (`keyport:bench:<random>:`) and its removal. */
export interface RedisPrefix {
  prefix: string;
  /** Deletes every key the run left under the prefix. */
  remove(): Promise<void>;
}

/** A fresh key prefix in the Redis at `url`; `remove()` deletes what the servers left under it. */
export function createRedisPrefix(url: string): RedisPrefix {
  const prefix = `keyport:bench:${randomBytes(4).toString("hex")}:`;
  return { prefix, remove: () => deletePrefix(url, prefix) };
}
