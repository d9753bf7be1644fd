import { createServer, type Server } from "node:http";

/** A webhook receiver on 127.0.0.1 that answers 204 and records when each change first arrived. */
export interface WebhookReceiver {
  url: string;
  /**
   * First arrival (performance.now()) of each change's message, by the key name the change set: a
   * `key.updated` rename's new name, or a `key.created` key's name.
   */
  arrivals: Map<string, number>;
  /** Messages received again under a `webhook-id` already seen (at-least-once delivery; docs/webhooks.md). */
  duplicates(): number;
  close(): Promise<void>;
}

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, name) : null;

/**
 * The name a change set (docs/webhooks.md#events): `data.changes.name` of a `key.updated` body,
 * `data.key.name` of a `key.created` one; null for anything else.
 */
function changedName(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const data = field(parsed, "data");
    const type = field(parsed, "type");
    const name =
      type === "key.updated"
        ? field(field(data, "changes"), "name")
        : type === "key.created"
          ? field(field(data, "key"), "name")
          : null;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
}

/**
 * Starts the receiver in the bench's own process, so arrival times share a clock with the PATCH
 * answer times the lag is measured from.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals = new Map<string, number>();
  const seen = new Set<string>();
  let duplicates = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = performance.now();
      const id = request.headers["webhook-id"];
      if (typeof id === "string") {
        if (seen.has(id)) duplicates += 1;
        seen.add(id);
      }
      const name = changedName(Buffer.concat(chunks).toString("utf8"));
      if (name !== null && !arrivals.has(name)) arrivals.set(name, at);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the webhook receiver has no port");
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    duplicates: () => duplicates,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
