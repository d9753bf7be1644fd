import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** How the proxy answers a faulted method: an HTTP status (429, 500...), or no answer at all. */
export type RpcFault = number | "hang";

/** A JSON-RPC proxy on 127.0.0.1 in front of a node, failing the methods it is told to. */
export interface RpcFaultProxy {
  /** e.g. `http://127.0.0.1:54321/` */
  url: string;
  /** Fails every call of `method` with `fault` from now on; `undefined` forwards it again. */
  fail(method: string, fault: RpcFault | undefined): void;
  /** How many calls of `method` were failed so far. */
  failed(method: string): number;
  close(): Promise<void>;
}

function methodsOf(body: string): string[] {
  const parsed: unknown = JSON.parse(body);
  const calls: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return calls.map((call) =>
    typeof call === "object" && call !== null && "method" in call && typeof call.method === "string"
      ? call.method
      : "",
  );
}

/**
 * Starts a proxy that forwards JSON-RPC to `nodeUrl` (anvil), except for the methods told to fail:
 * those are answered with the HTTP status given (as a rate-limiting or failing provider answers) or
 * never answered (a node that hangs). A batch holding a failed method fails whole.
 */
export async function startRpcFaultProxy(nodeUrl: string): Promise<RpcFaultProxy> {
  const faults = new Map<string, RpcFault>();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const body = Buffer.concat(chunks).toString("utf8");
    for (const method of methodsOf(body)) {
      const fault = faults.get(method);
      if (fault === undefined) continue;
      counts.set(method, (counts.get(method) ?? 0) + 1);
      if (fault === "hang") {
        hanging.add(res);
        return;
      }
      res
        .writeHead(fault, { "content-type": "application/json" })
        .end(
          JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32005, message: "limit exceeded" } }),
        );
      return;
    }
    const answer = await fetch(nodeUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  }
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the RPC proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    fail(method, fault) {
      if (fault === undefined) faults.delete(method);
      else faults.set(method, fault);
    },
    failed: (method) => counts.get(method) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
