import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A small node:http server on 127.0.0.1 standing in for a third party. */
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{
  server: Server;
  url: string;
  close(): Promise<void>;
}> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on TCP");
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** CoinGecko stand-in: answers its three endpoints like CoinGecko, or with `failWith` when set. */
export interface CoinGeckoStandIn {
  /** Use as COINGECKO_BASE_URL. */
  baseUrl: string;
  /** Paths (with query) it was asked for, in order. */
  requests: string[];
  /** Answer every request with this status from now on (undefined: answer normally). */
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startCoinGecko(): Promise<CoinGeckoStandIn> {
  const standIn: CoinGeckoStandIn = { baseUrl: "", requests: [], failWith: undefined, close: async () => {} };
  const running = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    standIn.requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (standIn.failWith !== undefined)
      return send(standIn.failWith, { status: { error_message: "trouble" } });
    const path = url.pathname.replace(/^\/api\/v3/, "");
    if (path === "/simple/price") {
      const ids = (url.searchParams.get("ids") ?? "").split(",");
      const currencies = (url.searchParams.get("vs_currencies") ?? "").split(",");
      return send(
        200,
        Object.fromEntries(ids.map((id) => [id, Object.fromEntries(currencies.map((c) => [c, 42]))])),
      );
    }
    if (path === "/coins/markets") {
      return send(200, [
        { id: "bitcoin", symbol: "btc", name: "Bitcoin", current_price: 42, extra_field: true },
      ]);
    }
    if (/^\/coins\/[^/]+\/ohlc$/.test(path)) return send(200, [[1_700_000_000_000, 40, 44, 39, 42]]);
    if (/^\/coins\/[^/]+\/market_chart(\/range)?$/.test(path)) {
      return send(200, {
        prices: [[1_700_000_000_000, 42]],
        market_caps: [[1_700_000_000_000, 1]],
        total_volumes: [],
      });
    }
    return send(404, { error: "unknown path" });
  });
  standIn.baseUrl = `${running.url}/api/v3`;
  standIn.close = running.close;
  return standIn;
}

/** One chat request the agent stand-in received, and how its response ended. */
export interface AgentCall {
  body: string;
  /** `"finished"` when the agent sent everything, `"aborted"` when the other side hung up first. */
  ended: Promise<"finished" | "aborted">;
}

/** Agent stand-in: streams SSE `first`, holds the response until `release()`, then sends `rest` and ends. */
export interface AgentStandIn {
  url: string;
  calls: AgentCall[];
  release(): void;
  close(): Promise<void>;
}

export async function startAgent(first: string, rest: string): Promise<AgentStandIn> {
  const calls: AgentCall[] = [];
  const held: ServerResponse[] = [];
  const running = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const ended = new Promise<"finished" | "aborted">((resolve) => {
        res.on("close", () => resolve(res.writableFinished ? "finished" : "aborted"));
      });
      calls.push({ body: Buffer.concat(chunks).toString("utf8"), ended });
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(first);
      held.push(res);
    });
  });
  return {
    url: `${running.url}/chat`,
    calls,
    release() {
      for (const res of held.splice(0)) if (!res.destroyed) res.end(rest);
    },
    close: running.close,
  };
}
