import { z } from "zod";

/** The largest request body the proxy reads, in bytes (64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * One chat turn. Only `user` and `assistant`: a system prompt is the proxy's own
 * (`AGENT_SYSTEM_PROMPT`), so a page cannot rewrite the agent's instructions.
 */
export const chatMessageSchema = z.strictObject({
  role: z.enum(["user", "assistant"], { error: "must be user or assistant" }),
  content: z.string().min(1).max(8_000),
});

/**
 * `POST /api/chat` body. Strict, so nothing else can reach the agent. `sessionId` is passed to a
 * plain-text agent (`AGENT_PROTOCOL=text`) and accepted but not forwarded to an OpenAI-style one.
 * @example { messages: [{ role: "user", content: "What moved ETH today?" }], sessionId: "s_123" }
 */
export const chatRequestSchema = z.strictObject({
  messages: z.array(chatMessageSchema).min(1).max(50),
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, "must be 1-128 characters of A-Z, a-z, 0-9, '_' or '-'")
    .optional(),
});

export type ChatMessage = z.output<typeof chatMessageSchema>;
export type ChatRequest = z.output<typeof chatRequestSchema>;

/**
 * The event stream `POST /api/chat` answers with (`text/event-stream`): unnamed events carrying
 * `{"delta":"<text>"}` in order, then one `done` event (`{}`), or one `error` event carrying the
 * error envelope when the agent fails after the stream began.
 */
export const CHAT_EVENTS = { done: "done", error: "error" } as const;

/** The data of a text event: the next piece of the answer. */
export const chatDeltaSchema = z.object({ delta: z.string() });
