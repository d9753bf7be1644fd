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
import { MAX_RATE_LIMITS } from "../schemas/rate-limits.js";
import { verification, verifyKeyInput } from "../schemas/verification.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";
import { createKeyFor } from "./key-create.js";
import { introspectKey } from "./key-introspection.js";
import { listKeysPage } from "./key-list-page.js";
import { keyVerifications } from "./key-verifications.js";
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
    errors: [401, 404, 409, 413, 415],
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
    errors: [401, 404, 409, 413, 415],
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
        description:
          "Returns the secret once (`key`); only its SHA-256 is stored. `wallet`, if given, must be the session's wallet (else 403). `expiresAt` must be in the future. `allowedIps` (up to 100 IPv4 or IPv6 addresses or CIDR blocks, stored normalised; a bad entry is 400 naming it) binds the key to those client addresses; omitted or null: any address. A wallet holds at most MAX_ACTIVE_KEYS_PER_WALLET active keys (default 50): one more is 409. Responds 201.",
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
        description:
          "Newest first (by creation time, then id) unless `sort` (`created`, `lastUsed`, `name`) and `order` (`desc`, `asc`) say otherwise; keys never used come last in both orders of `lastUsed`. `status` filters by the status at request time (default all); `q` keeps the keys whose name contains it (any case) or whose `start` begins with it. `total` counts every key matching wallet, status and q. A cursor is only valid with the sort and order that issued it (else 400). `activeKeyCap` is MAX_ACTIVE_KEYS_PER_WALLET, the most active keys the wallet may hold (count them with `status=active`). Another wallet's list is 403. Secrets never appear here.",
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
        description:
          "The key as the list shows it (credits included, read live), whatever its status: a revoked or expired key is returned with that status. Only the session's wallet's keys: another wallet's key is 404, the same answer as an unknown id. Secrets never appear here.",
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
        description:
          "Changes any of name, rateLimits (replaces the list; the deprecated rateLimit sets or removes only the limit named default, and cannot be sent with rateLimits), expiresAt, permissions, credits, meta and allowedIps. An absent field is unchanged; `null` clears a nullable one (rateLimit, expiresAt, credits, meta, allowedIps: null allows any address); `meta`, `permissions` and `allowedIps` are replaced whole. Setting `credits` sets the allowance (and its refill rule) now and keeps the purchased credits; a rolled key shares one balance with the key it replaced. `credits: null` on a key whose balance holds purchased credits is 409. A revoked key is 409. `expiresAt` must be in the future; giving an expired key a new expiry (or none) makes it active again, which at MAX_ACTIVE_KEYS_PER_WALLET is 409. Every instance verifies with the change within about 1 second. Records a `key.updated` event. Another wallet's key is 404.",
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
      const updated = await ctx.keys.update({ id, wallet: ctx.wallet, patch, now });
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
        description:
          "Revokes now; the key fails verification from the next request. Idempotent: revoking a revoked key returns it unchanged (200). A key in a roll's grace period is revoked now. Another wallet's key is 404.",
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
        description:
          "The new key inherits name, rate limit, expiry, permissions, meta and allowedIps and is returned with its secret (once). The old key's `revokedAt` is set to min(now + gracePeriodSeconds, its expiresAt): during the grace period it is still active and `revokedAt` lies in the future. Only an active key that has not been rolled or revoked can be rolled (else 409). Keys in a grace period count against MAX_ACTIVE_KEYS_PER_WALLET: a roll with a grace period when the wallet is at the cap is 409 (roll without grace, or revoke a key first); a roll without grace is always allowed. Another wallet's key is 404. Responds 201.",
      }),
    )
    .input(rollKeyInput)
    .output(rollKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const rolled = await ctx.keys.roll({
        id: input.id,
        wallet: ctx.wallet,
        gracePeriodSeconds: input.gracePeriodSeconds,
        now: new Date(),
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
        description:
          "No session: the key is the credential. Always 200 with a `Verification` whose `code` is VALID, NOT_FOUND (unknown, malformed or failed checksum: no database query), REVOKED, EXPIRED, IP_NOT_ALLOWED (the key has allowedIps and `ip` is missing or outside them: no rate limit or credit is spent), INSUFFICIENT_PERMISSIONS (`permissions` asked that the key does not hold; a held `x:*` grants every `x:...`, `*` grants all), USAGE_EXCEEDED (the key has credits and fewer than `cost`, default 1) or RATE_LIMITED, with that precedence. Work is done in this order: the key's own rate-limit window, then its wallet's (see PUT /api-keys/{wallet}/limits), then one exact spend of `cost` credits; a step that refuses gives back what earlier steps took, so a refused request spends neither credits nor rate limit. When a window refuses, a short balance still answers USAGE_EXCEEDED. `ratelimit` shows the binding window: the one that refused, else the one with fewer requests left. `credits` is the balance after this verification (null for a key without credits, or when the checks stopped before credits: REVOKED, EXPIRED, IP_NOT_ALLOWED, INSUFFICIENT_PERMISSIONS). `permissions` and `meta` are the key's, so a backend can map the key to its customer. Credits are refilled (set to the refill amount) from the first verification after each UTC day or month start. Every outcome of a known key counts in its usage. A revoked or updated key takes effect from the next request on this instance and within about 1 second on other instances; a key with credits answers 503 while the database (or, with REDIS_URL, Redis, where balances are spent) cannot answer. Answers carry `Cache-Control: no-store`. 400 when the body is not `{ key, ip?, permissions?, cost? }` (key at most 256 characters, ip an IPv4 or IPv6 address, cost 0-1,000)",
      }),
    )
    .input(verifyKeyInput)
    .output(verification)
    .mutation(({ ctx, input }) => ctx.verifier.verify(input.key, input, ctx.deadline)),

  introspect: introspectKey,
  verifications: keyVerifications,
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
