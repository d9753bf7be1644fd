import { createServer, type IncomingMessage } from "node:http";
import { portOf } from "@keyport/test-support/port";

/** One request a webhook receiver got: its headers and its body as sent. */
export interface ReceivedWebhook {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A backend's webhook endpoint on 127.0.0.1: answers 200 to every POST and keeps what arrived. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** Starts a receiver at `http://127.0.0.1:<port>/hooks/keyport`. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "content-type": "text/plain" }).end("received, thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${portOf(server.address())}/hooks/keyport`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
