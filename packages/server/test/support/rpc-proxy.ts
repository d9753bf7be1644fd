import { createServer } from "node:http";
import { portOf } from "@keyport/test-support/port";
import { z } from "zod";

/** A JSON-RPC proxy on 127.0.0.1 in front of a node, with a hosted provider's limits. */
export interface RpcProxy {
  /** e.g. `http://127.0.0.1:54321` */
  url: string;
  /** Every `eth_getLogs` range asked for, as [from, to] block numbers (resolved), refused ones included. */
  logRanges: [bigint, bigint][];
  /** `eth_getLogs` calls refused for their range. */
  refused(): number;
  /** Whether every `eth_getLogs` is answered with an error (a provider's outage of its log index). */
  setLogsDown(down: boolean): void;
  close(): Promise<void>;
}

export interface RpcProxyOptions {
  /** The widest `eth_getLogs` range answered, in blocks (both ends counted), as hosted providers cap it. */
  maxLogRange?: number;
  /** Milliseconds each call waits before it is forwarded (a slow or distant node). */
  delayMs?: number;
}

const call = z.object({ id: z.unknown(), method: z.string(), params: z.array(z.unknown()).optional() });
const logFilter = z.object({
  fromBlock: z.string().optional(),
  toBlock: z.string().optional(),
  blockHash: z.string().optional(),
});

/**
 * Starts a proxy that forwards JSON-RPC calls (single or batched) to `upstream` and refuses an
 * `eth_getLogs` whose range is wider than `maxLogRange` blocks with a JSON-RPC error, as Alchemy,
 * Infura and the public Base endpoints do ("earliest" is block 0, "latest" the node's head).
 * @example const proxy = await startRpcProxy(anvil.url, { maxLogRange: 1_000 });
 */
export async function startRpcProxy(upstream: string, options: RpcProxyOptions = {}): Promise<RpcProxy> {
  const maxLogRange = BigInt(options.maxLogRange ?? Number.MAX_SAFE_INTEGER);
  const logRanges: [bigint, bigint][] = [];
  let refused = 0;
  let logsDown = false;

  async function forward(body: unknown): Promise<unknown> {
    const response = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return response.json();
  }

  async function head(): Promise<bigint> {
    const answer = z
      .object({ result: z.string() })
      .parse(await forward({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] }));
    return BigInt(answer.result);
  }

  async function blockOf(tag: string | undefined): Promise<bigint> {
    if (tag === "earliest") return 0n;
    if (tag === undefined || !tag.startsWith("0x")) return head();
    return BigInt(tag);
  }

  async function answer(value: unknown): Promise<unknown> {
    const parsed = call.safeParse(value);
    if (!parsed.success) return forward(value);
    const { id, method, params } = parsed.data;
    if (options.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (method !== "eth_getLogs") return forward(value);
    const error = (message: string) => ({ jsonrpc: "2.0", id, error: { code: -32600, message } });
    if (logsDown) return error("logs are unavailable");
    const filter = logFilter.safeParse(params?.[0]);
    if (filter.success && filter.data.blockHash === undefined) {
      const from = await blockOf(filter.data.fromBlock);
      const to = await blockOf(filter.data.toBlock);
      logRanges.push([from, to]);
      if (to - from + 1n > maxLogRange) {
        refused++;
        return error(`eth_getLogs is limited to a ${maxLogRange} block range`);
      }
    }
    return forward(value);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const respond = async () => {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
      };
      respond().catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${portOf(server.address())}`,
    logRanges,
    refused: () => refused,
    setLogsDown(down) {
      logsDown = down;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
