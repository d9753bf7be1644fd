import { createServer } from "node:http";
import { closeServer, exitOnSignal, portFromEnv } from "./shutdown.js";

// OpenAI-style chat agent stand-in: after reading the request, sends the first chunk at once
// and the rest a few milliseconds later, like a model streaming tokens.
const REST_DELAY_MS = 5;

/** One OpenAI-style streamed chat-completion chunk (the proxy's default AGENT_PROTOCOL). */
const chunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

const server = createServer((req, res) => {
  if (req.url === "/healthz") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
    return;
  }
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(chunk("Hello"));
    setTimeout(() => res.end(`${chunk(" world")}data: [DONE]\n\n`), REST_DELAY_MS);
  });
});
server.listen(portFromEnv(), "127.0.0.1");
exitOnSignal(() => closeServer(server));
