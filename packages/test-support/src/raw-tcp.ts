import { connect } from "node:net";

/** What came back on a raw connection, read until the server closed it. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, for "never echoes the request" checks. */
  text: string;
}

/**
 * Writes `bytes` as-is to 127.0.0.1:`port` over node:net (no HTTP client to fix them up)
 * and reads until the server closes the connection.
 * @example const answer = await sendBytes(port, "NOT HTTP\r\n\r\n")
 */
export function sendBytes(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: "127.0.0.1" }, () => socket.write(bytes));
    socket.setTimeout(30_000, () => socket.destroy(new Error("no answer within 30 s")));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // The server may close while we still write (a reset); what it answered before that still counts.
    socket.on("error", (error) => {
      if (chunks.length === 0) reject(error);
    });
    socket.on("close", () => {
      if (chunks.length === 0) return reject(new Error("connection closed without an answer"));
      resolve(parseAnswer(Buffer.concat(chunks).toString("latin1")));
    });
  });
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf("\r\n\r\n");
  const head = split === -1 ? text : text.slice(0, split);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: split === -1 ? "" : text.slice(split + 4),
    text,
  };
}
