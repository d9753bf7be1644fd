import { TRPCError } from "@trpc/server";
import { decodeEventCursor } from "../../events/cursor.js";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { listKeysInput, listKeysOutput } from "../../schemas/api-key.js";
import { operatorWalletsDescriptions } from "../../schemas/descriptions/operator-wallets.js";
import { listEventsInput, listEventsOutput } from "../../schemas/key-event.js";
import {
  getWalletInput,
  getWalletOutput,
  listWalletsInput,
  listWalletsOutput,
} from "../../schemas/operator-wallets.js";
import { usage, usageInput } from "../../schemas/usage.js";
import { operatorProcedure, router } from "../../trpc.js";
import { listKeysPage } from "../key-list-page.js";
import { readWalletUsage } from "../usage.js";
import { walletSuspensionProcedures } from "./wallet-suspension.js";

/** How each procedure is served as REST (see routers/rest.ts). */
export const operatorWalletsHttp = {
  list: {
    method: "GET",
    path: "/operator/wallets",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "wallets:read",
  },
  get: {
    method: "GET",
    path: "/operator/wallets/{wallet}",
    successStatus: 200,
    errors: [401, 403, 404],
    security: "operator",
    requires: "wallets:read",
  },
  keys: {
    method: "GET",
    path: "/operator/wallets/{wallet}/keys",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "wallets:read",
  },
  events: {
    method: "GET",
    path: "/operator/wallets/{wallet}/events",
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "wallets:read",
  },
  usage: {
    method: "GET",
    path: "/operator/wallets/{wallet}/usage",
    successStatus: 200,
    errors: [401, 403, 404],
    security: "operator",
    requires: "usage:read",
  },
} as const satisfies Record<string, HttpPolicy>;

const BAD_CURSOR = "cursor is not one this server issued";

/** The operator's view of the deployment's wallets (docs/operator.md#wallets). */
export const operatorWalletsRouter = router({
  list: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorWalletsHttp.list, {
        tags: ["operator"],
        summary: "List wallets",
        description: operatorWalletsDescriptions.list,
      }),
    )
    .input(listWalletsInput)
    .output(listWalletsOutput)
    .query(async ({ ctx, input }) => {
      const page = await ctx.operators.listWallets({
        q: input?.q,
        sort: input?.sort ?? "lastActive",
        limit: input?.limit ?? 50,
        cursor: input?.cursor,
      });
      if (page === null) throw new TRPCError({ code: "BAD_REQUEST", message: BAD_CURSOR });
      return page;
    }),

  get: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorWalletsHttp.get, {
        tags: ["operator"],
        summary: "Get one wallet",
        description: operatorWalletsDescriptions.get,
      }),
    )
    .input(getWalletInput)
    .output(getWalletOutput)
    .query(async ({ ctx, input }) => {
      const found = await ctx.operators.getWallet(input.wallet);
      if (found === null) throw new TRPCError({ code: "NOT_FOUND", message: "No such wallet" });
      return found;
    }),

  keys: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorWalletsHttp.keys, {
        tags: ["operator"],
        summary: "List a wallet's keys",
        description:
          "The wallet's keys exactly as its owner lists them (`GET /api-keys/{wallet}`: the same filters, sorts and cursors), secrets never included. Scope `wallets:read`.",
      }),
    )
    .input(listKeysInput)
    .output(listKeysOutput)
    .query(({ ctx, input }) => listKeysPage(ctx, input.wallet, input)),

  events: operatorProcedure("wallets:read")
    .meta(
      openApiMeta(operatorWalletsHttp.events, {
        tags: ["operator"],
        summary: "List a wallet's audit trail",
        description: operatorWalletsDescriptions.events,
      }),
    )
    .input(listEventsInput)
    .output(listEventsOutput)
    .query(async ({ ctx, input }) => {
      const before = input.cursor === undefined ? null : decodeEventCursor(input.cursor);
      if (input.cursor !== undefined && before === null) {
        throw new TRPCError({ code: "BAD_REQUEST", message: BAD_CURSOR });
      }
      return ctx.events.list({
        wallet: input.wallet,
        limit: input.limit,
        before,
        keyId: input.keyId ?? null,
        action: input.action ?? null,
      });
    }),

  usage: operatorProcedure("usage:read")
    .meta(
      openApiMeta(operatorWalletsHttp.usage, {
        tags: ["operator"],
        summary: "A wallet's usage",
        description:
          "The wallet's verifications by outcome as its owner reads them (`GET /api-keys/{wallet}/usage`: the same range, granularity and `keyId`; default the last 30 days by day). Scope `usage:read`.",
      }),
    )
    .input(usageInput)
    .output(usage)
    .query(({ ctx, input }) => readWalletUsage(ctx, input.wallet, input)),

  ...walletSuspensionProcedures,
});
