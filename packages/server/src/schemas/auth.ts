import { z } from "zod";
import { timestamp, wallet } from "./common.js";

export const nonceOutput = z.object({
  nonce: z.string().meta({ description: "Put this in the EIP-4361 message; single use" }),
  expiresAt: timestamp,
});

export const verifyInput = z.object({
  message: z.string().min(1).max(4096).meta({ description: "The EIP-4361 message that was signed" }),
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
});

export const logoutOutput = z.object({ ok: z.literal(true) });
