import { z } from "zod";

/** The largest request body the proxy reads, in bytes (64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** One chat turn. */
export const chatMessageSchema = z.strictObject({
  role: z.enum(["user", "assistant", "system"]),
  content: z.string().min(1).max(8_000),
});

/**
 * `POST /api/chat` body. Strict, so only these fields are ever forwarded to the agent.
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
