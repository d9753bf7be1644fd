import { H3, serve } from "h3";
import { portFromEnv } from "./shutdown.js";

// Baseline of the proxy's cached price route: bare h3 on the same adapter (srvx via `serve`),
// answering a constant JSON shaped like a CoinGecko /simple/price body.
const PRICES = { bitcoin: { usd: 100, eur: 92 }, ethereum: { usd: 100, eur: 92 } };

const app = new H3();
app.get("/healthz", () => ({ status: "ok" }));
app.get("/api/prices/simple", () => PRICES);

const server = serve(app, {
  port: portFromEnv(),
  hostname: "127.0.0.1",
  silent: true,
  gracefulShutdown: false,
});
const stop = () => {
  server.close(true).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
