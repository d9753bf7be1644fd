import { TRPCError } from "@trpc/server";
import type { SiweRefused } from "../auth/siwe-rules.js";
import { boundUserAgent } from "../auth/user-agent.js";
import type { Context } from "../context.js";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { RetryAfter, secondsUntil } from "../ratelimit/retry-after.js";
import {
  endOtherSessionsOutput,
  endSessionInput,
  endSessionOutput,
  logoutOutput,
  nonceOutput,
  sessionOutput,
  sessionsOutput,
  verifyInput,
  verifyOutput,
} from "../schemas/auth.js";
import { noInput } from "../schemas/common.js";
import { authDescriptions } from "../schemas/descriptions/auth.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";
import { refuseWhenSuspended } from "./wallet-suspended.js";

/** How far a refused sign-in got with its nonce. */
type NonceState = { claimed: true } | { claimed: false; unclaimed: string | undefined };

/**
 * Logs which check refused a sign-in (for the operator) and counts it against the client; answers
 * 401 with the check's sentence (docs/decisions.md#nonces-and-sessions: none is secret), or 429 once the client is past its refusals, unless the request held a
 * valid unused nonce (claimed by this request, or left usable by an earlier check): a real sign-in
 * attempt is never turned away by the limit.
 */
async function refuseSignIn(
  ctx: Pick<Context, "signInLog" | "signInRefusals" | "nonces" | "clientIp" | "requestId">,
  refused: SiweRefused,
  nonce: NonceState,
): Promise<never> {
  ctx.signInLog.refused(refused.check, ctx.clientIp(), ctx.requestId);
  const verdict = await ctx.signInRefusals.count(ctx.clientIp());
  // Only a client past its limit pays for the look at its nonce.
  const heldValidNonce = async () =>
    nonce.claimed || (nonce.unclaimed !== undefined && (await ctx.nonces.isUsable(nonce.unclaimed)));
  if (!verdict.allowed && !(await heldValidNonce())) {
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `Too many refused sign-ins from this address: try again in ${verdict.retryAfterSeconds} s`,
      cause: new RetryAfter(verdict.retryAfterSeconds),
    });
  }
  throw new TRPCError({ code: "UNAUTHORIZED", message: refused.message });
}

/** How each procedure is served as REST (see routers/rest.ts). */
export const authHttp = {
  nonce: {
    method: "POST",
    path: "/auth/nonce",
    successStatus: 200,
    errors: [413, 415, 429],
    security: "public",
  },
  verify: {
    method: "POST",
    path: "/auth/verify",
    successStatus: 200,
    errors: [401, 403, 413, 415, 429],
    security: "public",
  },
  session: { method: "GET", path: "/auth/session", successStatus: 200, errors: [401], security: "session" },
  logout: {
    method: "POST",
    path: "/auth/logout",
    successStatus: 200,
    errors: [401, 413, 415],
    security: "session",
  },
  sessions: { method: "GET", path: "/auth/sessions", successStatus: 200, errors: [401], security: "session" },
  endSession: {
    method: "DELETE",
    path: "/auth/sessions/{id}",
    successStatus: 200,
    errors: [401, 404],
    security: "session",
  },
  endOtherSessions: {
    method: "POST",
    path: "/auth/logout-others",
    successStatus: 200,
    errors: [401, 413, 415],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

/**
 * Sign-In with Ethereum: nonce, verify (returns a session token), session (who am I), logout; and the
 * wallet's sessions: list them, end one, end every other.
 */
export const authRouter = router({
  nonce: publicProcedure
    .meta(
      openApiMeta(authHttp.nonce, {
        tags: ["auth"],
        summary: "Issue a sign-in nonce",
        description: authDescriptions.nonce,
      }),
    )
    .input(noInput)
    .output(nonceOutput)
    .mutation(async ({ ctx }) => {
      const issued = await ctx.nonces.issue(ctx.clientIp());
      if (issued.ok) return { nonce: issued.nonce, expiresAt: issued.expiresAt };
      const seconds = secondsUntil(issued.resetAt, Date.now());
      throw new TRPCError({
        code: "TOO_MANY_REQUESTS",
        message: `Too many sign-in nonces from this address: try again in ${seconds} s`,
        cause: new RetryAfter(seconds),
      });
    }),

  verify: publicProcedure
    .meta(
      openApiMeta(authHttp.verify, {
        tags: ["auth"],
        summary: "Sign in with a signed EIP-4361 message",
        description: authDescriptions.verify,
      }),
    )
    .input(verifyInput)
    .output(verifyOutput)
    .mutation(async ({ ctx, input }) => {
      let nonceClaimed = false;
      const claimNonce = async (nonce: string) => {
        nonceClaimed = await ctx.nonces.consume(nonce);
        return nonceClaimed;
      };
      const checked = await ctx.siwe.check(input.message, input.signature, claimNonce, ctx.requestId);
      if (!checked.ok)
        return refuseSignIn(
          ctx,
          checked,
          nonceClaimed ? { claimed: true } : { claimed: false, unclaimed: checked.nonce },
        );
      // After a valid signature only: nobody learns a wallet is suspended without signing as it.
      await refuseWhenSuspended(
        ctx,
        checked.address,
        "This wallet is suspended by this deployment: it cannot sign in. Ask the deployment's operator why",
      );
      const session = await ctx.sessions.create(checked.address, checked.expirationTime, {
        userAgent: boundUserAgent(ctx.userAgent),
        ip: ctx.clientIp() ?? null,
      });
      return { token: session.token, wallet: checked.address, expiresAt: session.expiresAt };
    }),

  session: sessionProcedure
    .meta(
      openApiMeta(authHttp.session, {
        tags: ["auth"],
        summary: "Describe the current session",
        description: authDescriptions.session,
      }),
    )
    .input(noInput)
    .output(sessionOutput)
    .query(({ ctx }) => ({
      wallet: ctx.wallet,
      expiresAt: ctx.sessionExpiresAt,
      operator: ctx.operators.isOperatorWallet(ctx.wallet),
    })),

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
      await ctx.sessions.revoke(ctx.wallet, ctx.bearerToken);
      return { ok: true as const };
    }),

  sessions: sessionProcedure
    .meta(
      openApiMeta(authHttp.sessions, {
        tags: ["auth"],
        summary: "List the wallet's sessions",
        description: authDescriptions.sessions,
      }),
    )
    .input(noInput)
    .output(sessionsOutput)
    .query(async ({ ctx }) => ({ sessions: await ctx.sessions.list(ctx.wallet, ctx.bearerToken) })),

  endSession: sessionProcedure
    .meta(
      openApiMeta(authHttp.endSession, {
        tags: ["auth"],
        summary: "End one of the wallet's sessions",
        description: authDescriptions.endSession,
      }),
    )
    .input(endSessionInput)
    .output(endSessionOutput)
    .mutation(async ({ ctx, input }) => {
      if (!(await ctx.sessions.end(ctx.wallet, input.id)))
        throw new TRPCError({ code: "NOT_FOUND", message: "No such session" });
      return { ok: true as const };
    }),

  endOtherSessions: sessionProcedure
    .meta(
      openApiMeta(authHttp.endOtherSessions, {
        tags: ["auth"],
        summary: "End every other session of the wallet",
        description:
          "Ends every live session of the bearer's wallet but the bearer's own, each as a sign-out does; answers how many ended (0 when there were none).",
      }),
    )
    .input(noInput)
    .output(endOtherSessionsOutput)
    .mutation(async ({ ctx }) => ({ ended: await ctx.sessions.endOthers(ctx.wallet, ctx.bearerToken) })),
});
