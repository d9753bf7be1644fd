import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { portOf } from "./port.js";

/** How the agent answers. */
export type AgentBehaviour =
  /**
   * OpenAI-style streaming chat completion: a role-only chunk and one chunk per `first` piece at
   * once, then waits for `release()` before the `rest` pieces and the ending: `[DONE]` (default),
   * `"no-done"` (a clean end without it), `"reset"` (the connection dies) or `"error"` (an
   * `{"error":...}` event, as OpenAI sends mid-stream).
   */
  | { kind: "openai"; first: string[]; rest: string[]; end?: "done" | "no-done" | "reset" | "error" }
  /** Plain bytes: headers and `first` at once, then waits for `release()` before `rest` and the end. */
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
  /** The full chat-completions URL (AGENT_URL). */
  url: string;
  calls: AgentCall[];
  behave(behaviour: AgentBehaviour): void;
  /** Lets every held stream send the rest and finish. */
  release(): void;
  close(): Promise<void>;
}

/** The default answer: "first" at once, "rest" after `release()`, then `[DONE]`. */
export const OPENAI_FIRST_REST: AgentBehaviour = { kind: "openai", first: ["first"], rest: ["rest"] };

/** One streamed chat-completion chunk as OpenAI frames it. */
export function openAiChunk(delta: { role?: string; content?: string }): string {
  const chunk = {
    id: "chatcmpl-standin",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "stand-in",
    choices: [{ index: 0, delta, finish_reason: null }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Starts the agent stand-in. */
export async function startAgent(): Promise<AgentStandIn> {
  const calls: AgentCall[] = [];
  let behaviour: AgentBehaviour = OPENAI_FIRST_REST;
  let releaseAll: () => void = () => {};
  let released = new Promise<void>((resolve) => {
    releaseAll = resolve;
  });

  const answer = (res: ServerResponse, current: AgentBehaviour) => {
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
    if (current.kind === "stream") {
      res.write(current.first);
      void released.then(() => {
        if (!res.destroyed) res.end(current.rest);
      });
      return;
    }
    res.write(
      openAiChunk({ role: "assistant", content: "" }) +
        current.first.map((c) => openAiChunk({ content: c })).join(""),
    );
    void released.then(() => {
      if (res.destroyed) return;
      res.write(current.rest.map((content) => openAiChunk({ content })).join(""));
      const end = current.end ?? "done";
      if (end === "reset") res.destroy();
      else if (end === "error")
        res.end(
          `data: ${JSON.stringify({ error: { message: "agent secret detail", type: "server_error" } })}\n\n`,
        );
      else res.end(end === "done" ? "data: [DONE]\n\n" : "");
    });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const ended = new Promise<"finished" | "aborted">((resolve) => {
        res.on("close", () => resolve(res.writableFinished ? "finished" : "aborted"));
      });
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), ended });
      answer(res, behaviour);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${portOf(server.address())}/v1/chat/completions`,
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
