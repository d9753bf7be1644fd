import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** A small HTTP server on 127.0.0.1 standing in for Keyport where the real one cannot misbehave on cue. */
export interface StandIn {
  baseUrl: string;
  /** TCP connections it accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts `handle` on a loopback port; `close` also drops requests it left hanging. */
export async function startStandIn(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<StandIn> {
  let connections = 0;
  const server = createServer((req, res) => {
    // Read the body before answering, as Keyport does.
    req.resume();
    req.on("end", () => handle(req, res));
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A VALID verification body, as Keyport sends it. */
export const VALID_BODY = JSON.stringify({
  valid: true,
  code: "VALID",
  keyId: "key_0123456789abcdefghij",
  wallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  expiresAt: null,
  ratelimit: null,
  permissions: [],
  credits: null,
  meta: null,
});
