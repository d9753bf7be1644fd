import { createMemoryRateLimiter, createWindowLimit } from "@keyport/node-edge";
import type { H3Event } from "h3";
import type { Logger } from "pino";
import type { ApiError } from "../http/errors.js";
import type { ResolveSession } from "../session/resolver.js";

/** Who may chat: signed-in wallets only (default), or anyone the origin and per-IP rules let in. */
export type ChatAccess = "session" | "public";

/** What the access check needs. */
export interface ChatAccessOptions {
  access: ChatAccess;
  /** Absent: no session can be found, so session access refuses every chat (401). */
  resolveSession?: ResolveSession | undefined;
  /** Chats a wallet may start per window (session access). */
  perWalletLimit: number;
  windowMs: number;
  logger: Logger;
}

/** Answers whether a chat may go ahead: `undefined` when it may, else the error to answer with. */
export type ChatAccessCheck = (event: H3Event) => Promise<ApiError | undefined>;

/**
 * Builds the chat access check. Under `session`, the proxy never relays for an anonymous caller
 * (the agent's key is spent on signed-in wallets only), and each wallet has its own limit on top
 * of the per-IP one. Under `public`, the guards' origin and per-IP rules are all there is.
 */
export function createChatAccessCheck(options: ChatAccessOptions): ChatAccessCheck {
  if (options.access === "public") return async () => undefined;
  const limiter = createWindowLimit(createMemoryRateLimiter(), {
    limit: options.perWalletLimit,
    windowSeconds: options.windowMs / 1_000,
  });
  const { resolveSession, logger } = options;

  return async (event) => {
    let session: { wallet: string } | null = null;
    try {
      session = resolveSession === undefined ? null : await resolveSession(event);
    } catch (error) {
      // Name only: the session lookup's errors may quote the server's URL.
      logger.warn(
        { error: error instanceof Error ? error.name : "unknown", reqId: event.context.requestId },
        "chat session lookup failed",
      );
      return { code: "BAD_GATEWAY", message: "The Keyport server could not check the session" };
    }
    if (session === null) return { code: "UNAUTHORIZED", message: "Sign in to use chat" };
    const verdict = limiter.hit(session.wallet.toLowerCase());
    if (verdict.allowed) return undefined;
    return {
      code: "TOO_MANY_REQUESTS",
      message: `Too many chats from this wallet; retry after ${verdict.retryAfterSeconds} s`,
      headers: { "retry-after": String(verdict.retryAfterSeconds) },
    };
  };
}
