import { TRPCError } from "@trpc/server";
import { decodeCursor } from "../keys/cursor.js";
import { toApiKey } from "../keys/status.js";
import { createKey, listKeys, revokeKey, rollKey } from "../keys/store.js";
import {
  createKeyInput,
  createKeyOutput,
  listKeysInput,
  listKeysOutput,
  revokeKeyInput,
  revokeKeyOutput,
  rollKeyInput,
  rollKeyOutput,
} from "../schemas/api-key.js";
import { verification, verifyKeyInput } from "../schemas/verification.js";
import { publicProcedure, router, sessionProcedure } from "../trpc.js";

const NOT_FOUND = "No such key";

/** The key lifecycle of the session's wallet (create, list, revoke, roll), and verify for backends. */
export const keysRouter = router({
  create: sessionProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api-keys",
        tags: ["keys"],
        summary: "Create an API key",
        description:
          "Returns the secret once (`key`); only its SHA-256 is stored. `wallet`, if given, must be the session's wallet (else 403). `expiresAt` must be in the future. A wallet holds at most MAX_ACTIVE_KEYS_PER_WALLET active keys (default 50): one more is 409. Responds 201.",
      },
    })
    .input(createKeyInput)
    .output(createKeyOutput)
    .mutation(async ({ ctx, input }) => {
      if (input.wallet !== undefined && input.wallet !== ctx.wallet) {
        throw new TRPCError({
          code: "FORBIDDEN",
          message: "A session can only create keys for its own wallet",
        });
      }
      const now = new Date();
      if (input.expiresAt !== undefined && input.expiresAt <= now) {
        throw new TRPCError({ code: "BAD_REQUEST", message: "expiresAt must be in the future" });
      }
      const created = await createKey(ctx.db, {
        wallet: ctx.wallet,
        name: input.name,
        expiresAt: input.expiresAt ?? null,
        rateLimit: input.rateLimit ?? null,
        prefix: ctx.env.KEY_PREFIX,
        maxActiveKeys: ctx.env.MAX_ACTIVE_KEYS_PER_WALLET,
        now,
      });
      if (!created.ok) {
        throw new TRPCError({
          code: "CONFLICT",
          message: `This wallet already holds the maximum of ${ctx.env.MAX_ACTIVE_KEYS_PER_WALLET} active keys`,
        });
      }
      return { key: created.key, apiKey: toApiKey(created.row, now) };
    }),

  list: sessionProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api-keys/{wallet}",
        tags: ["keys"],
        summary: "List a wallet's keys",
        description:
          "Newest first (by creation time, then id). `status` filters by the status at request time (default all). Another wallet's list is 403. Secrets never appear here.",
      },
    })
    .input(listKeysInput)
    .output(listKeysOutput)
    .query(async ({ ctx, input }) => {
      if (input.wallet !== ctx.wallet) {
        throw new TRPCError({ code: "FORBIDDEN", message: "A session can only list its own wallet's keys" });
      }
      const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor);
      if (input.cursor !== undefined && cursor === null) {
        throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not one this server issued" });
      }
      const now = new Date();
      const page = await listKeys(ctx.db, {
        wallet: ctx.wallet,
        status: input.status,
        limit: input.limit,
        cursor,
        now,
      });
      return { keys: page.rows.map((row) => toApiKey(row, now)), nextCursor: page.nextCursor };
    }),

  revoke: sessionProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/api-keys/{id}",
        tags: ["keys"],
        summary: "Revoke a key",
        description:
          "Revokes now; the key fails verification from the next request. Idempotent: revoking a revoked key returns it unchanged (200). A key in a roll's grace period is revoked now. Another wallet's key is 404.",
      },
    })
    .input(revokeKeyInput)
    .output(revokeKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const now = new Date();
      const row = await revokeKey(ctx.db, input.id, ctx.wallet, now);
      if (!row) throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      // Other instances hear the NOTIFY; this one must not wait for it.
      ctx.keyCache.invalidate(row.id);
      return { apiKey: toApiKey(row, now) };
    }),

  roll: sessionProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api-keys/{id}/roll",
        tags: ["keys"],
        summary: "Roll a key: issue a new secret, retire the old one",
        description:
          "The new key inherits name, rate limit and expiry and is returned with its secret (once). The old key's `revokedAt` is set to min(now + gracePeriodSeconds, its expiresAt): during the grace period it is still active and `revokedAt` lies in the future. Only an active key that has not been rolled or revoked can be rolled (else 409). A roll does not count against the active-key cap. Another wallet's key is 404. Responds 201.",
      },
    })
    .input(rollKeyInput)
    .output(rollKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const now = new Date();
      const rolled = await rollKey(ctx.db, {
        id: input.id,
        wallet: ctx.wallet,
        gracePeriodSeconds: input.gracePeriodSeconds,
        prefix: ctx.env.KEY_PREFIX,
        now,
      });
      if (!rolled.ok && rolled.reason === "not_found") {
        throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
      }
      if (!rolled.ok) {
        throw new TRPCError({
          code: "CONFLICT",
          message: "Only an active key that was not rolled or revoked can be rolled",
        });
      }
      ctx.keyCache.invalidate(rolled.previous.id);
      return { key: rolled.key, apiKey: toApiKey(rolled.row, now), previous: toApiKey(rolled.previous, now) };
    }),

  verify: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api-keys/verify",
        tags: ["keys"],
        protect: false,
        summary: "Verify a key (for backends)",
        description:
          "No session: the key is the credential. Always 200 with a `Verification` whose `code` is VALID, NOT_FOUND (unknown, malformed or failed checksum: no database query), REVOKED, EXPIRED or RATE_LIMITED (checked in that order; only a key that is otherwise valid consumes its rate limit, and a rejected request consumes nothing). Every outcome of a known key counts in its usage. A revoked key fails from the next request on this instance and within about 1 second on other instances. Answers carry `Cache-Control: no-store`. 400 only when the body is not `{ key: string }` (at most 256 characters).",
      },
    })
    .input(verifyKeyInput)
    .output(verification)
    .mutation(({ ctx, input }) => ctx.verifier.verify(input.key)),
});
