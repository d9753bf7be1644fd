import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { RetryAfter } from "../ratelimit/retry-after.js";
import {
  createKeyInput,
  createKeyOutput,
  getKeyInput,
  getKeyOutput,
  listKeysInput,
  listKeysOutput,
  reportLeakInput,
  reportLeakOutput,
  revokeKeyInput,
  revokeKeyOutput,
  rollKeyInput,
  rollKeyOutput,
  updateKeyInput,
  updateKeyOutput,
} from "../schemas/api-key.js";
import { keysDescriptions } from "../schemas/descriptions/keys.js";
import { MAX_RATE_LIMITS } from "../schemas/rate-limits.js";
import { verification, verifyKeyInput } from "../schemas/verification.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";
import { createKeyFor } from "./key-create.js";
import { introspectKey } from "./key-introspection.js";
import { listKeysPage } from "./key-list-page.js";
import { keyRateLimitUse } from "./key-rate-limit-use.js";
import { keyVerifications } from "./key-verifications.js";
import { refuseKeyWritesWhenSuspended, requirePermissionsInPlan, walletBounds } from "./plan-bounds.js";
import { topUpProcedures } from "./top-up.js";

const NOT_FOUND = "No such key";

/** How each procedure is served as REST (see routers/rest.ts). */
export const keysHttp = {
  create: {
    method: "POST",
    path: "/api-keys",
    successStatus: 201,
    errors: [401, 403, 409, 413, 415],
    security: "session",
  },
  list: {
    method: "GET",
    path: "/api-keys/{wallet}",
    successStatus: 200,
    errors: [401, 403],
    security: "session",
  },
  get: {
    method: "GET",
    path: "/api-keys/{id}",
    successStatus: 200,
    errors: [401, 404],
    security: "session",
  },
  update: {
    method: "PATCH",
    path: "/api-keys/{id}",
    successStatus: 200,
    errors: [401, 403, 404, 409, 413, 415],
    security: "session",
  },
  revoke: {
    method: "DELETE",
    path: "/api-keys/{id}",
    successStatus: 200,
    errors: [401, 404],
    security: "session",
  },
  roll: {
    method: "POST",
    path: "/api-keys/{id}/roll",
    successStatus: 201,
    errors: [401, 403, 404, 409, 413, 415],
    security: "session",
  },
  verify: {
    method: "POST",
    path: "/api-keys/verify",
    successStatus: 200,
    errors: [413, 415],
    security: "public",
  },
  reportLeak: {
    method: "POST",
    path: "/api-keys/report-leak",
    successStatus: 202,
    errors: [413, 415, 429],
    security: "public",
  },
} as const satisfies Record<string, HttpPolicy>;

/**
 * The key lifecycle of the session's wallet (create, list, get, update, revoke, roll), verify for backends, and
 * introspect for a key's holder.
 */
export const keysRouter = router({
  create: sessionProcedure
    .meta(
      openApiMeta(keysHttp.create, {
        tags: ["keys"],
        summary: "Create an API key",
        description: keysDescriptions.create,
      }),
    )
    .input(createKeyInput)
    .output(createKeyOutput)
    .mutation(async ({ ctx, input }) => {
      if (input.wallet !== undefined && input.wallet !== ctx.wallet) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: "A session can only create keys for its own wallet",
        });
      }
      return createKeyFor(ctx, ctx.wallet, input);
    }),

  list: sessionProcedure
    .meta(
      openApiMeta(keysHttp.list, {
        tags: ["keys"],
        summary: "List a wallet's keys",
        description: keysDescriptions.list,
      }),
    )
    .input(listKeysInput)
    .output(listKeysOutput)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) {
        throw new TRPCError({ code: "FORBIDDEN", message: "A session can only list its own wallet's keys" });
      }
      return listKeysPage(ctx, ctx.wallet, input);
    }),

  get: sessionProcedure
    .meta(
      openApiMeta(keysHttp.get, {
        tags: ["keys"],
        summary: "Get one key",
        description: keysDescriptions.get,
      }),
    )
    .input(getKeyInput)
    .output(getKeyOutput)
    .query(async ({ ctx, input }) => {
      const apiKey = await ctx.keys.get({ id: input.id, wallet: ctx.wallet, now: new Date() });
      if (apiKey === null) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      return { apiKey };
    }),

  update: sessionProcedure
    .meta(
      openApiMeta(keysHttp.update, {
        tags: ["keys"],
        summary: "Update a key",
        description: keysDescriptions.update,
      }),
    )
    .input(updateKeyInput)
    .output(updateKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const now = new Date();
      const { id, ...patch } = input;
      if (patch.expiresAt != null && patch.expiresAt <= now) {
        throw new TRPCError({ code: "BAD_REQUEST", message: "expiresAt must be in the future" });
      }
      const bounds = await walletBounds(ctx, ctx.wallet, now);
      refuseKeyWritesWhenSuspended(bounds);
      // Only what the PATCH sets is judged: a key kept over a plan change down stays editable.
      if (patch.permissions !== undefined) requirePermissionsInPlan(bounds, patch.permissions);
      const updated = await ctx.keys.update({
        id,
        wallet: ctx.wallet,
        patch,
        maxActiveKeys: bounds.maxActiveKeys,
        now,
      });
      if (!updated.ok && updated.reason === "not_found") {
        throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      }
      if (!updated.ok && updated.reason === "cap") {
        throw new TRPCError({
          code: "CONFLICT",
          message: `This wallet already holds the maximum of ${updated.max} active keys: revoke a key before re-activating this one`,
        });
      }
      if (!updated.ok && updated.reason === "too_many_limits") {
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `A key holds at most ${MAX_RATE_LIMITS} rate limits: adding the default one would exceed it`,
        });
      }
      if (!updated.ok && updated.reason === "purchased") {
        throw new TRPCError({
          code: "CONFLICT",
          message: "This key's balance holds purchased credits: its credits cannot be removed",
        });
      }
      if (!updated.ok) throw new TRPCError({ code: "CONFLICT", message: "A revoked key cannot be changed" });
      return { apiKey: updated.apiKey };
    }),

  revoke: sessionProcedure
    .meta(
      openApiMeta(keysHttp.revoke, {
        tags: ["keys"],
        summary: "Revoke a key",
        description: keysDescriptions.revoke,
      }),
    )
    .input(revokeKeyInput)
    .output(revokeKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const apiKey = await ctx.keys.revoke({ id: input.id, wallet: ctx.wallet, now: new Date() });
      if (!apiKey) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      return { apiKey };
    }),

  roll: sessionProcedure
    .meta(
      openApiMeta(keysHttp.roll, {
        tags: ["keys"],
        summary: "Roll a key: issue a new secret, retire the old one",
        description: keysDescriptions.roll,
      }),
    )
    .input(rollKeyInput)
    .output(rollKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const now = new Date();
      const [bounds, current] = await Promise.all([
        walletBounds(ctx, ctx.wallet, now),
        ctx.keys.get({ id: input.id, wallet: ctx.wallet, now }),
      ]);
      refuseKeyWritesWhenSuspended(bounds);
      // The new key inherits the old one's permissions: they must fit the plan now.
      if (current !== null) requirePermissionsInPlan(bounds, current.permissions);
      const rolled = await ctx.keys.roll({
        id: input.id,
        wallet: ctx.wallet,
        gracePeriodSeconds: input.gracePeriodSeconds,
        maxActiveKeys: bounds.maxActiveKeys,
        now,
      });
      if (!rolled.ok && rolled.reason === "not_found") {
        throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      }
      if (!rolled.ok && rolled.reason === "cap") {
        throw new TRPCError({
          code: "CONFLICT",
          message: `This wallet already holds the maximum of ${rolled.max} active keys, counting keys in a grace period: roll without a grace period, or revoke a key first`,
        });
      }
      if (!rolled.ok) {
        throw new TRPCError({
          code: "CONFLICT",
          message: "Only an active key that was not rolled or revoked can be rolled",
        });
      }
      return { key: rolled.key, apiKey: rolled.apiKey, previous: rolled.previous };
    }),

  verify: publicProcedure
    .meta(
      openApiMeta(keysHttp.verify, {
        tags: ["keys"],
        summary: "Verify a key (for backends)",
        description: keysDescriptions.verify,
      }),
    )
    .input(verifyKeyInput)
    .output(verification)
    .mutation(({ ctx, input }) => ctx.verifier.verify(input.key, input, ctx.deadline)),

  introspect: introspectKey,
  verifications: keyVerifications,
  rateLimitUse: keyRateLimitUse,
  ...topUpProcedures,
  reportLeak: publicProcedure
    .meta(
      openApiMeta(keysHttp.reportLeak, {
        tags: ["keys"],
        summary: "Report a leaked key",
        description:
          'No session: whoever holds a key may have it revoked at once (docs/leaks.md). The key becomes `revoked` with `leak: { url: null, source: "self-report", reportedAt }` and one `key.leaked` event; every instance refuses it within about 1 second. The answer is 202 `{ received: true }` whether or not the key exists, so it tells nothing. Counted per client address (an IPv6 /64) under NONCE_RATE_LIMIT\'s rule (default 10 a minute): past it 429 `TOO_MANY_REQUESTS` with `Retry-After`.',
      }),
    )
    .input(reportLeakInput)
    .output(reportLeakOutput)
    .mutation(async ({ ctx, input }) => {
      const verdict = await ctx.leaks.selfReport(input.key, ctx.clientIp());
      if (!verdict.allowed) {
        throw new TRPCError({
          code: "TOO_MANY_REQUESTS",
          message: `Too many reports from this address: try again in ${verdict.retryAfterSeconds} s`,
          cause: new RetryAfter(verdict.retryAfterSeconds),
        });
      }
      return { received: true as const };
    }),
});
