/** One turn of the conversation as the page keeps it. */
export interface Turn {
  role: "user" | "assistant";
  content: string;
  /** The answer was stopped before it finished. */
  stopped?: boolean;
}

// The proxy's limits: at most 50 messages of 1 to 8,000 characters each.
const MAX_MESSAGES = 50;
const MAX_CONTENT = 8_000;

/**
 * The messages to send for the next question: the conversation so far (empty answers left out, long
 * ones cut to the proxy's limit), newest 50 kept.
 */
export function messagesToSend(turns: readonly Turn[]): { role: "user" | "assistant"; content: string }[] {
  return turns
    .filter((turn) => turn.content.trim() !== "")
    .map((turn) => ({ role: turn.role, content: turn.content.slice(0, MAX_CONTENT) }))
    .slice(-MAX_MESSAGES);
}
