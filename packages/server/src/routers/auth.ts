import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { consumeNonce, issueNonce } from "../auth/nonce.js";
import { createSession, revokeSession } from "../auth/session.js";
import { checkSiweMessage } from "../auth/siwe.js";
import { logoutOutput, nonceOutput, verifyInput, verifyOutput } from "../schemas/auth.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";

// One message for every sign-in failure, so a caller learns nothing about which check failed.
const SIGN_IN_FAILED = "Sign-in failed: the message or signature is invalid, expired or already used";

/** Sign-In with Ethereum: nonce, verify (returns a session token), logout. */
export const authRouter = router({
  nonce: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/auth/nonce",
        tags: ["auth"],
        protect: false,
        summary: "Issue a sign-in nonce",
        description: "Returns a single-use nonce for an EIP-4361 message. It expires after 10 minutes.",
      },
    })
    .input(z.void())
    .output(nonceOutput)
    .mutation(({ ctx }) => issueNonce(ctx.db)),

  verify: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/auth/verify",
        tags: ["auth"],
        protect: false,
        summary: "Sign in with a signed EIP-4361 message",
        description:
          "Checks domain (SIWE_DOMAINS), chain id (SIWE_CHAIN_IDS), version 1, issued-at (at most 60 s in the future), expiration-time, not-before, the signature (EOA; ERC-1271/6492 when RPC_URL is set) and finally consumes the nonce atomically. Any failure is 401 with the same message.",
      },
    })
    .input(verifyInput)
    .output(verifyOutput)
    .mutation(async ({ ctx, input }) => {
      const checked = await checkSiweMessage(ctx.siwe, input.message, input.signature);
      if (!checked || !(await consumeNonce(ctx.db, checked.nonce))) {
        throw new TRPCError({ code: "UNAUTHORIZED", message: SIGN_IN_FAILED });
      }
      const session = await createSession(ctx.db, checked.address, ctx.env.SESSION_TTL_SECONDS);
      return { token: session.token, wallet: checked.address, expiresAt: session.expiresAt };
    }),

  logout: sessionProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/auth/logout",
        tags: ["auth"],
        summary: "End the current session",
        description: "Revokes the bearer token; it gets 401 afterwards.",
      },
    })
    .input(z.void())
    .output(logoutOutput)
    .mutation(async ({ ctx }) => {
      await revokeSession(ctx.db, ctx.bearerToken);
      return { ok: true as const };
    }),
});
