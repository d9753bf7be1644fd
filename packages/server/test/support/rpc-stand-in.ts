import { createServer } from "node:http";

/** A JSON-RPC node on 127.0.0.1 that counts the calls it receives. */
export interface RpcStandIn {
  /** e.g. `http://127.0.0.1:54321/` */
  url: string;
  /** JSON-RPC calls received so far (each call of a batch counts). */
  calls(): number;
  /** Forgets the calls received so far. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts a node that serves chain `chainId` and holds no contract anywhere: `eth_chainId` answers
 * it, `eth_getCode` answers "0x", anything else a JSON-RPC error, as a node does for what it lacks.
 */
export async function startRpcStandIn(chainId: number): Promise<RpcStandIn> {
  let calls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const answer = (call: unknown) => {
        calls++;
        const id = typeof call === "object" && call !== null && "id" in call ? call.id : null;
        const method = typeof call === "object" && call !== null && "method" in call ? call.method : "";
        if (method === "eth_chainId") return { jsonrpc: "2.0", id, result: `0x${chainId.toString(16)}` };
        if (method === "eth_getCode") return { jsonrpc: "2.0", id, result: "0x" };
        return { jsonrpc: "2.0", id, error: { code: -32601, message: "method not found" } };
      };
      const body = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the RPC stand-in has no port");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    calls: () => calls,
    reset: () => {
      calls = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
