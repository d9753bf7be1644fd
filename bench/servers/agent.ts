import { createServer } from "node:http";
import { closeServer, exitOnSignal, portFromEnv } from "./shutdown.js";

// Chat agent stand-in: after reading the request, sends the first server-sent event at once
// and the rest a few milliseconds later, like a model streaming tokens.
const REST_DELAY_MS = 5;

const server = createServer((req, res) => {
  if (req.url === "/healthz") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
    return;
  }
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write('data: {"delta":"Hello"}\n\n');
    setTimeout(() => res.end('data: {"delta":" world"}\n\ndata: [DONE]\n\n'), REST_DELAY_MS);
  });
});
server.listen(portFromEnv(), "127.0.0.1");
exitOnSignal(() => closeServer(server));
