import { z } from "zod";
import { createKeyFields, oneLimitShape } from "./api-key.js";
import {
  keyId,
  nextCursor,
  pageCursor,
  pageLimit,
  timestamp,
  timestampInput,
  wallet,
  walletInput,
} from "./common.js";
import { keyName } from "./key-name.js";

/**
 * What an operator token may do (docs/operator.md#scopes). An operator session may do everything, and
 * only a session (or the command line) creates tokens: no scope mints tokens.
 */
export const OPERATOR_SCOPES = [
  "wallets:read",
  "wallets:write",
  "keys:write",
  "keys:issue",
  "payments:read",
  "usage:read",
  "plans:write",
  "credits:write",
] as const;

export const operatorScope = z.enum(OPERATOR_SCOPES).meta({
  id: "OperatorScope",
  description:
    "`wallets:read` (list and read wallets, the operator audit), `wallets:write` (suspend, unsuspend), `keys:write` (revoke any key), `keys:issue` (issue a key to a wallet), `payments:read`, `usage:read`, `plans:write`, `credits:write`",
});

/** One scope an operator procedure needs. */
export type OperatorScope = z.infer<typeof operatorScope>;

/** Who took an operator action: an operator wallet's session, a token, the command line, or a leak report. */
export const operatorActor = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("wallet"), address: wallet }),
    z.object({
      type: z.literal("token"),
      id: z.string().meta({ description: "The token's id (`opt_...`)" }),
      name: z.string(),
    }),
    z.object({
      type: z.literal("cli").meta({ description: "The operator-token command on the server's machine" }),
    }),
    z.object({
      type: z.literal("leak_report").meta({ description: "A leak report that found an operator token" }),
      source: z.string(),
    }),
  ])
  .meta({ id: "OperatorActor" });

export type OperatorActor = z.infer<typeof operatorActor>;

/** Most live operator tokens a deployment holds (docs/operator.md#tokens). */
export const MAX_ACTIVE_OPERATOR_TOKENS = 50;

/** `opt_` + 22 base62 characters. */
export const OPERATOR_TOKEN_ID_PATTERN = /^opt_[0-9A-Za-z]{22}$/;

export const operatorTokenId = z
  .string()
  .regex(OPERATOR_TOKEN_ID_PATTERN, "must be an operator token id: opt_ followed by 22 base62 characters")
  .meta({ description: "Operator token id", example: "opt_4fT9aQ2LmN7pR8sT1vW3yZ" });

/** An operator token as every route returns it; the secret is never part of it. */
export const operatorToken = z
  .object({
    id: operatorTokenId,
    name: z.string(),
    start: z.string().meta({ description: "Token prefix plus the first 4 random characters, for display" }),
    scopes: z.array(operatorScope),
    status: z.enum(["active", "revoked", "expired"]),
    createdAt: timestamp,
    createdBy: operatorActor,
    expiresAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable().meta({ description: "Last use, to within a minute" }),
    leakedAt: timestamp.nullable().meta({ description: "When a leak report found it (it is then revoked)" }),
  })
  .meta({ id: "OperatorToken" });

export type OperatorTokenView = z.infer<typeof operatorToken>;

export const createOperatorTokenInput = z.object({
  name: keyName,
  scopes: z
    .array(operatorScope)
    .min(1, "needs at least one scope")
    .max(OPERATOR_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, "must not repeat a scope"),
  expiresAt: timestampInput.optional().meta({ description: "When the token stops working; none: never" }),
});

export const createOperatorTokenOutput = z.object({
  token: operatorToken,
  secret: z.string().meta({
    description:
      "The token itself (`<KEY_PREFIX>o_...`): shown once, never again; send it as `Authorization: Bearer`",
  }),
});

export const listOperatorTokensInput = z.object({ limit: pageLimit, cursor: pageCursor }).optional();
export const listOperatorTokensOutput = z.object({ tokens: z.array(operatorToken), nextCursor });

export const revokeOperatorTokenInput = z.object({ id: operatorTokenId });
export const revokeOperatorTokenOutput = z.object({ token: operatorToken });

/** What an operator action did, in the operator audit trail. */
export const OPERATOR_ACTIONS = [
  "token.created",
  "token.revoked",
  "token.leaked",
  "wallet.suspended",
  "wallet.unsuspended",
  "key.revoked",
  "key.issued",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "plan.created",
  "plan.updated",
  "plan.archived",
  "wallet.plan_changed",
] as const;

export const operatorAction = z.enum(OPERATOR_ACTIONS);
export type OperatorAction = z.infer<typeof operatorAction>;

export const operatorEvent = z
  .object({
    id: z.string().meta({ description: "Event id; newer events have larger ids" }),
    at: timestamp,
    actor: operatorActor,
    action: operatorAction,
    wallet: wallet.nullable().meta({ description: "The wallet acted on, when there is one" }),
    keyId: z.string().nullable(),
    reason: z.string().nullable(),
    changes: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "OperatorEvent" });

export type OperatorEventView = z.infer<typeof operatorEvent>;

export const listOperatorEventsInput = z
  .object({
    limit: pageLimit,
    cursor: pageCursor,
    wallet: walletInput.optional().meta({ description: "Only the actions taken on this wallet" }),
  })
  .optional();
export const listOperatorEventsOutput = z.object({ events: z.array(operatorEvent), nextCursor });

/** Longest reason an operator gives for an action, in UTF-16 code units after trimming. */
export const MAX_OPERATOR_REASON_LENGTH = 500;

/**
 * Why an operator acted (recorded in both trails; the wallet reads it): one line of 1-500 characters,
 * no control character and no lone surrogate (PostgreSQL stores neither as sent).
 */
export const operatorReason = z
  .string()
  .trim()
  .min(1, "must say why: a reason is recorded with the action")
  .max(MAX_OPERATOR_REASON_LENGTH)
  .refine((text) => !/[\p{Cc}\p{Cs}]/u.test(text), "must be one line of text without control characters")
  .meta({ description: "Why, recorded in the operator's trail and the wallet's (the wallet reads it)" });

export const revokeAnyKeyInput = z.object({ id: keyId, reason: operatorReason });

/** Body of suspend: the wallet in the path and why (docs/operator.md#suspension). */
export const suspendWalletInput = z.object({ wallet: walletInput, reason: operatorReason });

/** Body of unsuspend: the wallet in the path and, optionally, why. */
export const unsuspendWalletInput = z.object({ wallet: walletInput, reason: operatorReason.optional() });

/** The owner's create body, for the wallet in the path, with an optional reason for the trails. */
export const issueKeyInput = createKeyFields
  .omit({ wallet: true })
  .extend({ wallet: walletInput, reason: operatorReason.optional() })
  .superRefine(oneLimitShape);
