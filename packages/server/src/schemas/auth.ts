import { z } from "zod";
import { timestamp, wallet } from "./common.js";
import { storedText } from "./stored-text.js";

export const nonceOutput = z.object({
  nonce: z.string().meta({ description: "Put this in the EIP-4361 message; single use" }),
  expiresAt: timestamp,
});

export const verifyInput = z.object({
  message: storedText.min(1).max(4096).meta({ description: "The EIP-4361 message that was signed" }),
  signature: z
    .string()
    .max(20_000)
    .regex(/^0x[0-9a-fA-F]*$/, "must be a 0x-prefixed hex signature"),
});

export const verifyOutput = z.object({
  token: z.string().meta({ description: "Opaque session token; send as `Authorization: Bearer <token>`" }),
  wallet,
  expiresAt: timestamp.meta({
    description:
      "When the session ends: SESSION_TTL_SECONDS after sign-in, or the message's expiration time if sooner",
  }),
});

export const sessionOutput = z.object({
  wallet,
  expiresAt: timestamp.meta({
    description:
      "When the session ends: SESSION_TTL_SECONDS after sign-in, or the message's expiration time if sooner",
  }),
  operator: z.boolean().meta({
    description:
      "Whether the wallet is one of this deployment's operators (OPERATOR_WALLETS, as of this request): it may use the operator API and console (docs/operator.md)",
  }),
});

export const logoutOutput = z.object({ ok: z.literal(true) });

/** The public id format of a session: `ses_` + 16-64 base62 characters (auth/session.ts mints 22). */
export const SESSION_ID_PATTERN = /^ses_[0-9A-Za-z]{16,64}$/;

/** A session's public id: names a session, never authenticates (it is not the token or its hash). */
export const sessionId = z
  .string()
  .regex(SESSION_ID_PATTERN, "must be a session id: ses_ followed by 16-64 base62 characters")
  .meta({ description: "Session id (public; not the token)", example: "ses_4kQ9xT2mLp7Rs8Vw1Yz3Ab" });

export const walletSession = z
  .object({
    id: sessionId,
    createdAt: timestamp.meta({ description: "When the session signed in" }),
    lastSeenAt: timestamp.meta({
      description: "Its last request, to within a minute (written at most once a minute)",
    }),
    expiresAt: timestamp.meta({ description: "When the session ends" }),
    userAgent: z
      .string()
      .nullable()
      .meta({ description: "The signing-in browser's User-Agent, at most 256 characters; null when none" }),
    ip: z.string().nullable().meta({ description: "The signing-in client's address; null when unknown" }),
    current: z.boolean().meta({ description: "True for the session of the token asking" }),
  })
  .meta({ id: "Session" });

export const sessionsOutput = z.object({ sessions: z.array(walletSession) });

export const endSessionInput = z.object({ id: sessionId });

export const endSessionOutput = z.object({ ok: z.literal(true) });

export const endOtherSessionsOutput = z.object({
  ended: z.number().int().min(0).meta({ description: "How many other sessions ended" }),
});

/** One of a wallet's sessions, as `auth.sessions` lists it. */
export type WalletSession = z.infer<typeof walletSession>;
