import { createServer, type IncomingMessage } from "node:http";
import { portOf } from "@keyport/test-support/port";

/** One request the stand-in received. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** How the stand-in answers `/trpc/*`. */
export type KeyportBehaviour =
  | {
      kind: "answer";
      status: number;
      body: string;
      headers?: Record<string, string | string[]>;
      /** Waits this long before answering (a top-up waiting for its settlement). */
      delayMs?: number;
    }
  /** Never sends headers. */
  | { kind: "hang" };

/** A stand-in for the Keyport server, to see exactly what the proxy sends and how it relays answers. */
export interface KeyportStandIn {
  url: string;
  requests: SeenRequest[];
  behave(behaviour: KeyportBehaviour): void;
  close(): Promise<void>;
}

/** Starts it on 127.0.0.1; by default every request gets tRPC's 200 `{"result":{"data":{"json":[]}}}`. */
export async function startKeyportStandIn(): Promise<KeyportStandIn> {
  const requests: SeenRequest[] = [];
  let behaviour: KeyportBehaviour = {
    kind: "answer",
    status: 200,
    body: '{"result":{"data":{"json":[]}}}',
    headers: { "content-type": "application/json" },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const answer = behaviour;
      if (answer.kind === "hang") return;
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${portOf(server.address())}`,
    requests,
    behave: (next) => {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
