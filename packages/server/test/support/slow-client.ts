import { connect, type Socket } from "node:net";

/** How a trickling connection ended. */
export interface TrickleResult {
  /** Everything the server sent before it closed the connection. */
  text: string;
  /** From the first byte written to the server's close. */
  elapsedMs: number;
  /** Bytes of `slow` written before the close. */
  written: number;
}

/**
 * A slow client: writes `fast` at once, then `slow` one byte every `intervalMs`, and resolves when the
 * server closes the connection. Rejects after `giveUpMs` (the server never closed it).
 * @example const { text } = await trickle(port, "", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 50, 5_000)
 */
export function trickle(
  port: number,
  fast: string,
  slow: string,
  intervalMs: number,
  giveUpMs: number,
): Promise<TrickleResult> {
  return new Promise((resolve, reject) => {
    let text = "";
    let written = 0;
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket: Socket = connect({ port, host: "127.0.0.1" }, () => {
      started = performance.now();
      if (fast !== "") socket.write(fast);
      timer = setInterval(() => {
        if (written >= slow.length || socket.destroyed || !socket.writable) return;
        socket.write(slow.charAt(written++));
      }, intervalMs);
    });
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", () => {
      // A reset after the answer: the close below still reports what arrived.
    });
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ text, elapsedMs: performance.now() - started, written });
    });
  });
}
