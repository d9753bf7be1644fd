import { createServer } from "node:http";
import { closeServer, exitOnSignal, portFromEnv } from "./shutdown.js";

// Baseline: the least a node server can do per request. Answers every request with the same
// JSON, shaped and sized like a successful verification, after reading the request body.
const BODY = JSON.stringify({
  valid: true,
  code: "VALID",
  keyId: "key_0123456789abcdefABCD",
  wallet: "0x52908400098527886E0F7030069857D2E4169EE7",
  expiresAt: null,
  ratelimit: null,
});

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(BODY);
  });
});
server.listen(portFromEnv(), "127.0.0.1");
exitOnSignal(() => closeServer(server));
