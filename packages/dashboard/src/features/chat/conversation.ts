import { z } from "zod";

/** One turn of the conversation as the page keeps it. */
export const turnSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  /** The user stopped the answer before it finished. */
  stopped: z.boolean().optional(),
  /** The agent (or the way to it) failed before the answer finished. */
  failed: z.boolean().optional(),
});

export type Turn = z.output<typeof turnSchema>;

/** A kept conversation, as read back from the tab's memory. */
export const conversationSchema = z.array(turnSchema).max(200);

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

/** The conversation before its last question, and that question: what "Retry" asks again. */
export function lastQuestion(turns: readonly Turn[]): { before: Turn[]; question: string } | undefined {
  for (let index = turns.length - 1; index >= 0; index--) {
    const turn = turns[index];
    if (turn?.role === "user") return { before: turns.slice(0, index), question: turn.content };
  }
  return undefined;
}
