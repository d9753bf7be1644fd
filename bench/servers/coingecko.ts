import { createServer } from "node:http";
import { closeServer, exitOnSignal, portFromEnv } from "./shutdown.js";

// CoinGecko stand-in for the proxy scenarios: answers /api/v3/simple/price with a price for
// every requested id and currency. The proxy caches it, so it is called about once a minute.
const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://stand-in");
  if (url.pathname === "/healthz") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
    return;
  }
  if (url.pathname !== "/api/v3/simple/price") {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"not found"}');
    return;
  }
  const ids = (url.searchParams.get("ids") ?? "").split(",");
  const currencies = (url.searchParams.get("vs_currencies") ?? "").split(",");
  const body = Object.fromEntries(
    ids.map((id) => [id, Object.fromEntries(currencies.map((currency, i) => [currency, 100 - i * 8]))]),
  );
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
});
server.listen(portFromEnv(), "127.0.0.1");
exitOnSignal(() => closeServer(server));
