import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One request the receiver got. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** Which of the receiver's secrets verified it with the `standardwebhooks` package (empty: none did). */
  verifiedBy: string[];
}

/** How the receiver answers a request: the default answers 204. */
export type ReceiverAnswer = (req: IncomingMessage, res: ServerResponse, received: ReceivedWebhook) => void;

/** A stand-in for a wallet's backend on 127.0.0.1 that verifies each request as a receiver would. */
export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Answers the next requests with these, in turn; after them, `fallback`. */
  answerNext(...answers: ReceiverAnswer[]): void;
  setSecrets(secrets: string[]): void;
  close(): Promise<void>;
}

export const answerStatus =
  (status: number, body = ""): ReceiverAnswer =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "text/plain" }).end(body);
  };

/**
 * Starts a receiver on 127.0.0.1:`port` (any free one by default) that reads each request, verifies
 * it with `standardwebhooks`' `Webhook.verify` under each of `secrets`, records it, and answers.
 */
export async function startWebhookReceiver(
  secrets: string[],
  fallback = answerStatus(204),
  port = 0,
): Promise<WebhookReceiver> {
  let verifiers = secrets;
  const queue: ReceiverAnswer[] = [];
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers[name] = value;
      }
      const verifiedBy = verifiers.filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const entry = { headers, body, verifiedBy };
      received.push(entry);
      (queue.shift() ?? fallback)(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = server.address();
  const listening = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${listening}/hooks`,
    port: listening,
    received,
    answerNext: (...answers) => queue.push(...answers),
    setSecrets: (next) => {
      verifiers = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Polls `check` every 20 ms until it returns a value other than undefined, or fails after `timeoutMs`.
 * @example const row = await pollFor(async () => (await readDelivery()).status === "succeeded" || undefined);
 */
export async function pollFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  // performance.now: tests move the fake Date forward, which must not cut the wait short.
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
