import type { Server, Socket } from "node:net";

/**
 * How long a connection may hold bytes the client does not read (docs/decisions.md, "Write
 * timeout"): past it with no progress, the socket is destroyed.
 */
export const WRITE_TIMEOUT_MS = 20_000;

/** What was last seen of one socket's queue, and when it last moved. */
interface Progress {
  mark: string;
  since: number;
}

/**
 * Destroys a connection of `server` whose answer has bytes queued unread (`writableLength > 0`) and
 * no progress for `timeoutMs`: a client that asked for a large file and stopped reading would
 * otherwise hold the socket, and megabytes queued in the kernel and in memory, for as long as it
 * likes. The connection is reset (RST), which frees what the kernel still holds for it. Progress is any write completing or any byte of a pending write reaching the kernel, so a
 * slow but reading client is never cut, and a response that writes nothing while it waits (a
 * settlement, a paused stream) has nothing queued and is not affected. One check of every open
 * socket each second (or each quarter of `timeoutMs` when shorter); a socket is cut between
 * `timeoutMs` and `timeoutMs` plus one check after its last progress.
 *
 * Node's own `socket.setTimeout` cannot do this: it re-arms instead of firing while a write is
 * pending whose queue changed since its last expiry, and is reset by reads, so it fires late or
 * never for a client that keeps sending but does not read.
 * @example applyWriteTimeout(httpServer, WRITE_TIMEOUT_MS)
 */
export function applyWriteTimeout(server: Server, timeoutMs: number = WRITE_TIMEOUT_MS): void {
  const sockets = new Map<Socket, Progress>();
  let timer: NodeJS.Timeout | undefined;
  const checkEveryMs = Math.max(10, Math.min(1_000, Math.floor(timeoutMs / 4)));

  const check = () => {
    const now = Date.now();
    for (const [socket, progress] of sockets) {
      if (socket.destroyed) {
        sockets.delete(socket);
        continue;
      }
      const mark = queueMark(socket);
      if (mark === undefined || mark !== progress.mark) {
        progress.mark = mark ?? "";
        progress.since = now;
      } else if (now - progress.since >= timeoutMs) {
        sockets.delete(socket);
        // A reset, not a close: a close would leave the kernel sending what it holds (megabytes) to
        // a peer that does not read, for minutes; a reset frees it at once and tells the client.
        socket.resetAndDestroy();
      }
    }
    if (sockets.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  server.on("connection", (socket: Socket) => {
    sockets.set(socket, { mark: "", since: Date.now() });
    socket.once("close", () => sockets.delete(socket));
    if (timer === undefined) {
      timer = setInterval(check, checkEveryMs);
      // The check never keeps a process alive on its own.
      timer.unref();
    }
  });
  server.once("close", () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  });
}

/**
 * A fingerprint of `socket`'s unsent bytes, or undefined when none are queued: the bytes whose writes
 * completed (`bytesWritten` counts the queued ones too) and what libuv still holds of the pending
 * write (`writeQueueSize` on the handle, which shrinks as the kernel takes each part; node's own
 * socket timeout reads it too). Either changing is progress.
 */
function queueMark(socket: Socket): string | undefined {
  const queued = socket.writableLength;
  if (queued === 0) return undefined;
  const handle: unknown = Reflect.get(socket, "_handle");
  const inLibuv = typeof handle === "object" && handle !== null ? Reflect.get(handle, "writeQueueSize") : 0;
  return `${socket.bytesWritten - queued}:${String(inLibuv)}`;
}
