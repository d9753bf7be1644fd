/**
 * How much of the agent's stream the proxy holds and waits for (docs/decisions.md, agent stream
 * bounds): past any of these the answer ends with the chat's `error` event and the upstream is
 * closed, so a hostile or broken agent costs at most a line's and an answer's bytes and a bounded
 * silence.
 */
export interface StreamBounds {
  /** Bytes of one event-stream line (OpenAI protocol; a plain-text body has no lines to hold). */
  lineBytes: number;
  /** Bytes of one whole answer, as the agent sends them. */
  answerBytes: number;
  /** Time the proxy waits for the agent's next event (`CHAT_IDLE_TIMEOUT_MS`). */
  idleMs: number;
}

/** The decided bounds: 1 MiB a line, 8 MiB an answer, 60 s between events. */
export const AGENT_STREAM_BOUNDS: StreamBounds = {
  lineBytes: 1024 * 1024,
  answerBytes: 8 * 1024 * 1024,
  idleMs: 60_000,
};

/** Why an agent's answer was cut short; `reason` is for logs (never agent text). */
export type AgentStreamFailure =
  | "error event"
  | "unreadable event"
  | "line too long"
  | "answer too long"
  | "idle";

/** The agent broke the protocol or a bound mid-answer. */
export class AgentStreamError extends Error {
  override name = "AgentStreamError";
  constructor(readonly reason: AgentStreamFailure) {
    super(`agent stream: ${reason}`);
  }
}

/**
 * The agent's silence since its last event, counted only while the proxy waits on it (a browser that
 * reads slowly pauses the reading, and that pause is not the agent's). `event()` restarts it.
 */
export class IdleWatch {
  #waitedMs = 0;
  constructor(readonly limitMs: number) {}

  /** The agent completed an event: its next silence starts now. */
  event(): void {
    this.#waitedMs = 0;
  }

  /** How long the next read may wait. */
  remainingMs(): number {
    return Math.max(0, this.limitMs - this.#waitedMs);
  }

  /** Adds a read's wait. */
  waited(ms: number): void {
    this.#waitedMs += ms;
  }
}
