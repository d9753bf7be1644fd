import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "./port.js";

/** How the agent answers. */
export type AgentBehaviour =
  /** Headers and `first` at once, then waits for `release()` before `rest` and the end. */
  | { kind: "stream"; first: string; rest: string }
  | { kind: "status"; status: number; body: string }
  /** Never sends headers. */
  | { kind: "hang" };

/** One chat request as the agent saw it, and what became of it. */
export interface AgentCall {
  headers: IncomingMessage["headers"];
  body: string;
  /** Resolves when the response is over: `"finished"` or `"aborted"` (the proxy hung up first). */
  ended: Promise<"finished" | "aborted">;
}

/** An agent stand-in on 127.0.0.1 that streams with pauses the test controls. */
export interface AgentStandIn {
  url: string;
  calls: AgentCall[];
  behave(behaviour: AgentBehaviour): void;
  /** Lets every held stream send the rest and finish. */
  release(): void;
  close(): Promise<void>;
}

/** Starts the agent stand-in. */
export async function startAgent(): Promise<AgentStandIn> {
  const calls: AgentCall[] = [];
  let behaviour: AgentBehaviour = { kind: "stream", first: "data: first\n\n", rest: "data: rest\n\n" };
  let releaseAll: () => void = () => {};
  let released = new Promise<void>((resolve) => {
    releaseAll = resolve;
  });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const ended = new Promise<"finished" | "aborted">((resolve) => {
        res.on("close", () => resolve(res.writableFinished ? "finished" : "aborted"));
      });
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), ended });
      const current = behaviour;
      if (current.kind === "hang") return;
      if (current.kind === "status") {
        res.writeHead(current.status, { "content-type": "text/plain", "x-agent-internal": "secret-header" });
        res.end(current.body);
        return;
      }
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "x-agent-internal": "secret-header",
        "set-cookie": "agent_session=should-not-pass",
      });
      res.write(current.first);
      void released.then(() => {
        if (!res.destroyed) res.end(current.rest);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${portOf(server.address())}/chat`,
    calls,
    behave(next) {
      behaviour = next;
    },
    release() {
      releaseAll();
      released = new Promise<void>((resolve) => {
        releaseAll = resolve;
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        releaseAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
