import { connect } from "node:net";

/** What a slow client saw before the server hung up. */
export interface SlowClientResult {
  /** Everything the server sent (latin1), e.g. a 408 envelope. */
  text: string;
  /** From connecting to the server closing the connection. */
  elapsedMs: number;
  /** Bytes of `rest` written before the close. */
  sent: number;
}

/**
 * A client that writes `head` at once, then `rest` one byte every `intervalMs` (as a slowloris
 * attack does), until the server closes the connection. Rejects if the server has not closed it by
 * the time every byte is sent plus `graceMs`.
 * @example await trickle(port, "", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1_000)
 */
export function trickle(
  port: number,
  head: string,
  rest: string,
  intervalMs: number,
  graceMs = 5_000,
): Promise<SlowClientResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const socket = connect({ port, host: "127.0.0.1" }, () => {
      if (head.length > 0) socket.write(head);
      timer = setInterval(() => {
        if (sent < rest.length) {
          socket.write(rest.charAt(sent));
          sent += 1;
          return;
        }
        clearInterval(timer);
        socket.destroy(new Error(`the server still held the connection after all ${sent} bytes`));
      }, intervalMs);
    });
    socket.setTimeout(rest.length * intervalMs + graceMs, () =>
      socket.destroy(new Error("the server never closed the connection")),
    );
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    let failure: Error | undefined;
    socket.on("error", (error) => {
      // The server may reset a connection it closes while we still write: what it sent still counts.
      if (!("code" in error)) failure = error;
    });
    socket.on("close", () => {
      clearInterval(timer);
      if (failure !== undefined) return reject(failure);
      resolve({
        text: Buffer.concat(chunks).toString("latin1"),
        elapsedMs: performance.now() - started,
        sent,
      });
    });
  });
}
