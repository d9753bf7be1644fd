import { TRPCError } from "@trpc/server";
import type { Context } from "../context.js";
import type { TopUpKeyView } from "../payments/top-up-service.js";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { refuse } from "../refusal.js";
import { topUpDescriptions } from "../schemas/descriptions/top-up.js";
import { topUpInput, topUpOutput, topUpQuoteInput, topUpQuoteOutput } from "../schemas/top-up.js";
import { requireSession, settlementProcedure } from "../trpc.js";

/** The header a key's holder authenticates a top-up with, instead of a session. */
export const API_KEY_HEADER = "x-api-key";

/** How the top-up procedures are served as REST (see routers/rest.ts). */
export const topUpHttp = {
  topUp: {
    method: "POST",
    path: "/api-keys/{id}/top-up",
    successStatus: 200,
    errors: [401, 402, 403, 404, 409, 413, 415, 501],
    security: "public",
  },
} as const satisfies Record<string, HttpPolicy>;

const NOT_FOUND = "No such key";

// The two 503s of a payment (docs/payments.md#when-the-chain-does-not-answer): before it was
// recorded nothing was settled; after, it may have been, and the same payment again shows the result.
const NOTHING_CHARGED =
  "The payment could not be checked now (the facilitator or the chain did not answer); nothing was charged: retry with the same payment";
const MAY_BE_CREDITED =
  "The payment could not be confirmed in time (the facilitator or the chain did not answer); the payment may still be credited: send the same payment again to see its result, or look at the key's credits";

/**
 * The checks both procedures share, in their order (docs/payments.md): the caller (the owner's
 * session, or `X-API-Key` with the key's own secret and no session: 401), the key (404), its wallet
 * not suspended (403), payments on
 * (501), the key metered and active (409), the amount (400).
 */
async function checkTopUp(ctx: Context, id: string, amount: string) {
  const now = new Date();
  const secret = ctx.bearerToken === null ? ctx.requestHeader(API_KEY_HEADER) : undefined;
  let allowed: (key: TopUpKeyView) => boolean;
  if (secret === undefined) {
    const { wallet } = await requireSession(ctx);
    allowed = (key) => key.wallet === wallet;
  } else {
    const holds = await ctx.topUps.holderOf(secret);
    if (holds === null)
      throw new TRPCError({
        code: "UNAUTHORIZED",
        message: "A valid session token or X-API-Key is required",
      });
    allowed = (key) => key.id === holds;
  }
  const key = await ctx.topUps.key(id, now);
  if (key === null || !allowed(key)) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
  // Before any payment is looked at: a suspended wallet is never charged (docs/operator.md#suspension).
  if (key.suspended)
    throw refuse(
      "FORBIDDEN",
      "WALLET_SUSPENDED",
      "This key's wallet is suspended by this deployment: it cannot be topped up",
    );
  const payments = ctx.topUps.payments;
  if (payments === null)
    throw new TRPCError({ code: "NOT_IMPLEMENTED", message: "Payments are off on this server" });
  if (key.creditsId === null) {
    throw new TRPCError({
      code: "CONFLICT",
      message: "This key has no credits: give it credits before topping it up",
    });
  }
  if (key.status !== "active")
    throw new TRPCError({ code: "CONFLICT", message: `A ${key.status} key cannot be topped up` });
  const quote = payments.quote(amount);
  if (!quote.ok) throw new TRPCError({ code: "BAD_REQUEST", message: quote.message });
  return { key: { ...key, creditsId: key.creditsId }, payments, quote };
}

/** keys.topUpQuote and keys.topUp: credits bought with USDC over x402 (docs/payments.md). */
export const topUpProcedures = {
  topUpQuote: settlementProcedure
    .input(topUpQuoteInput)
    .output(topUpQuoteOutput)
    .query(async ({ ctx, input }) => {
      const { quote } = await checkTopUp(ctx, input.id, input.amount);
      return { amount: quote.amount, credits: quote.credits, requirement: quote.requirement };
    }),

  topUp: settlementProcedure
    .meta(
      openApiMeta(topUpHttp.topUp, {
        tags: ["keys"],
        summary: "Top up a key's credits with USDC (x402)",
        description: topUpDescriptions.topUp,
      }),
    )
    .input(topUpInput)
    .output(topUpOutput)
    .mutation(async ({ ctx, input }) => {
      const { key, payments } = await checkTopUp(ctx, input.id, input.amount);
      const resource = `${ctx.publicUrl()}/api-keys/${encodeURIComponent(key.id)}/top-up`;
      const payment = input.payment ?? ctx.requestHeader("payment-signature");
      if (payment === undefined) {
        const unpaid = payments.unpaid(input.amount, resource);
        if (unpaid === null) throw new Error("a quoted amount has no requirement");
        ctx.setResponseHeader("PAYMENT-REQUIRED", unpaid.header);
        throw new TRPCError({ code: "PAYMENT_REQUIRED", message: unpaid.message });
      }
      const answer = await payments.pay(key, input.amount, payment, resource);
      if (answer.kind === "unavailable") {
        throw new TRPCError({
          code: "SERVICE_UNAVAILABLE",
          message: answer.recorded ? MAY_BE_CREDITED : NOTHING_CHARGED,
        });
      }
      if (answer.kind === "payment_required") {
        ctx.setResponseHeader("PAYMENT-REQUIRED", answer.header);
        throw new TRPCError({ code: "PAYMENT_REQUIRED", message: answer.message });
      }
      ctx.setResponseHeader("PAYMENT-RESPONSE", answer.answer.paymentResponse);
      const apiKey = await ctx.topUps.apiKey(key.id, new Date());
      if (apiKey === null) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      return { apiKey, topUp: answer.answer.topUp };
    }),
};
