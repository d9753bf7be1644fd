import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { logoutOutput, nonceOutput, verifyInput, verifyOutput } from "../schemas/auth.js";
import { noInput } from "../schemas/common.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";

// One message for every sign-in failure, so a caller learns nothing about which check failed.
const SIGN_IN_FAILED = "Sign-in failed: the message or signature is invalid, expired or already used";

/** How each procedure is served as REST (see routers/rest.ts). */
export const authHttp = {
  nonce: { method: "POST", path: "/auth/nonce", successStatus: 200, errors: [413, 415], security: "public" },
  verify: {
    method: "POST",
    path: "/auth/verify",
    successStatus: 200,
    errors: [401, 413, 415],
    security: "public",
  },
  logout: {
    method: "POST",
    path: "/auth/logout",
    successStatus: 200,
    errors: [401, 413, 415],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

/** Sign-In with Ethereum: nonce, verify (returns a session token), logout. */
export const authRouter = router({
  nonce: publicProcedure
    .meta(
      openApiMeta(authHttp.nonce, {
        tags: ["auth"],
        summary: "Issue a sign-in nonce",
        description: "Returns a single-use nonce for an EIP-4361 message. It expires after 10 minutes.",
      }),
    )
    .input(noInput)
    .output(nonceOutput)
    .mutation(({ ctx }) => ctx.nonces.issue()),

  verify: publicProcedure
    .meta(
      openApiMeta(authHttp.verify, {
        tags: ["auth"],
        summary: "Sign in with a signed EIP-4361 message",
        description:
          "Checks domain (SIWE_DOMAINS), chain id (SIWE_CHAIN_IDS), version 1, issued-at (at most 60 s in the future), expiration-time, not-before, the signature (EOA; ERC-1271/6492 when RPC_URL is set) and finally consumes the nonce atomically. Any failure is 401 with the same message.",
      }),
    )
    .input(verifyInput)
    .output(verifyOutput)
    .mutation(async ({ ctx, input }) => {
      const checked = await ctx.siwe.check(input.message, input.signature);
      if (!checked || !(await ctx.nonces.consume(checked.nonce))) {
        throw new TRPCError({ code: "UNAUTHORIZED", message: SIGN_IN_FAILED });
      }
      const session = await ctx.sessions.create(checked.address);
      return { token: session.token, wallet: checked.address, expiresAt: session.expiresAt };
    }),

  logout: sessionProcedure
    .meta(
      openApiMeta(authHttp.logout, {
        tags: ["auth"],
        summary: "End the current session",
        description: "Revokes the bearer token; it gets 401 afterwards.",
      }),
    )
    .input(noInput)
    .output(logoutOutput)
    .mutation(async ({ ctx }) => {
      await ctx.sessions.revoke(ctx.bearerToken);
      return { ok: true as const };
    }),
});
