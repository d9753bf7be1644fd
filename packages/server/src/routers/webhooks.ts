import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../procedure-meta.js";
import { webhooksDescriptions } from "../schemas/descriptions/webhooks.js";
import {
  createWebhookInput,
  deleteWebhookOutput,
  listWebhookDeliveriesOutput,
  listWebhooksInput,
  listWebhooksOutput,
  redeliverWebhookInput,
  updateWebhookInput,
  updateWebhookOutput,
  webhookDeliveryOutput,
  webhookInput,
  webhookWithSecret,
} from "../schemas/webhook.js";
import { router, sessionProcedure } from "../trpc.js";

const OTHER_WALLET = "A session can only manage its own wallet's webhooks";
const NOT_FOUND = "No such webhook";

/** Another wallet's endpoints are 403, as keys are: the wallet is in the path, so nothing is revealed. */
function ownWallet(input: { wallet: string }, ctx: { wallet: string }): void {
  if (input.wallet !== ctx.wallet) throw new TRPCError({ code: "FORBIDDEN", message: OTHER_WALLET });
}

function notFound(): never {
  throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
}

/** A URL the address policy refuses is 400 naming why (webhooks/target.ts). */
function refuseTarget(refusal: string | null): void {
  if (refusal !== null) throw new TRPCError({ code: "BAD_REQUEST", message: `url ${refusal}` });
}

const BASE = "/api-keys/{wallet}/webhooks";
const ONE = `${BASE}/{id}` as const;

/** How each procedure is served as REST (see routers/rest.ts). */
export const webhooksHttp = {
  list: { method: "GET", path: BASE, successStatus: 200, errors: [401, 403], security: "session" },
  create: {
    method: "POST",
    path: BASE,
    successStatus: 201,
    errors: [401, 403, 409, 413, 415],
    security: "session",
  },
  update: {
    method: "PATCH",
    path: ONE,
    successStatus: 200,
    errors: [401, 403, 404, 413, 415],
    security: "session",
  },
  delete: { method: "DELETE", path: ONE, successStatus: 200, errors: [401, 403, 404], security: "session" },
  rotateSecret: {
    method: "POST",
    path: `${ONE}/rotate-secret`,
    successStatus: 200,
    errors: [401, 403, 404, 413, 415],
    security: "session",
  },
  test: {
    method: "POST",
    path: `${ONE}/test`,
    successStatus: 202,
    errors: [401, 403, 404, 409, 413, 415],
    security: "session",
  },
  deliveries: {
    method: "GET",
    path: `${ONE}/deliveries`,
    successStatus: 200,
    errors: [401, 403, 404],
    security: "session",
  },
  redeliver: {
    method: "POST",
    path: `${ONE}/deliveries/{deliveryId}/redeliver`,
    successStatus: 202,
    errors: [401, 403, 404, 409, 413, 415],
    security: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

const tags = ["webhooks"];

/** The session wallet's webhook endpoints, their secrets and delivery log (docs/webhooks.md). */
export const webhooksRouter = router({
  list: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.list, {
        tags,
        summary: "List a wallet's webhook endpoints",
        description: "Oldest first. Secrets never appear here. Another wallet's list is 403.",
      }),
    )
    .input(listWebhooksInput)
    .output(listWebhooksOutput)
    .query(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      return { webhooks: await ctx.webhooks.list(ctx.wallet) };
    }),

  create: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.create, {
        tags,
        summary: "Add a webhook endpoint",
        description: webhooksDescriptions.create,
      }),
    )
    .input(createWebhookInput)
    .output(webhookWithSecret)
    .mutation(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      refuseTarget(await ctx.webhooks.checkUrl(input.url));
      const created = await ctx.webhooks.create({
        wallet: ctx.wallet,
        url: input.url,
        events: input.events,
        description: input.description === undefined || input.description === "" ? null : input.description,
        now: new Date(),
      });
      if (!created.ok) {
        throw new TRPCError({
          code: "CONFLICT",
          message: `This wallet already has the maximum of ${ctx.webhooks.maxPerWallet} webhook endpoints: delete one first`,
        });
      }
      return { webhook: created.webhook, secret: created.secret };
    }),

  update: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.update, {
        tags,
        summary: "Change a webhook endpoint",
        description: webhooksDescriptions.update,
      }),
    )
    .input(updateWebhookInput)
    .output(updateWebhookOutput)
    .mutation(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      const { wallet, id, ...patch } = input;
      if (patch.url !== undefined) refuseTarget(await ctx.webhooks.checkUrl(patch.url));
      const description = patch.description === "" ? null : patch.description;
      const webhook = await ctx.webhooks.update({ wallet, id }, { ...patch, description }, new Date());
      return { webhook: webhook ?? notFound() };
    }),

  delete: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.delete, {
        tags,
        summary: "Delete a webhook endpoint",
        description:
          "Deletes the endpoint and its delivery log; nothing more is sent to it. Records a `webhook.deleted` event. Another wallet is 403; an unknown id 404.",
      }),
    )
    .input(webhookInput)
    .output(deleteWebhookOutput)
    .mutation(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      if (!(await ctx.webhooks.delete(input, new Date()))) notFound();
      return { deleted: true as const };
    }),

  rotateSecret: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.rotateSecret, {
        tags,
        summary: "Rotate a webhook endpoint's signing secret",
        description: webhooksDescriptions.rotateSecret,
      }),
    )
    .input(webhookInput)
    .output(webhookWithSecret)
    .mutation(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      return (await ctx.webhooks.rotateSecret(input, new Date())) ?? notFound();
    }),

  test: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.test, {
        tags,
        summary: "Send a test event to a webhook endpoint",
        description:
          'Queues one `webhook.test` event (`data: { webhookId, message: "This is a test event from Keyport" }`) to this endpoint alone, whatever it subscribes to, and returns its delivery (pending); follow it in the delivery log. A disabled endpoint is 409: enable it first. Another wallet is 403; an unknown id 404. Responds 202.',
      }),
    )
    .input(webhookInput)
    .output(webhookDeliveryOutput)
    .mutation(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      const tested = await ctx.webhooks.test(input, new Date());
      if (!tested.ok && tested.reason === "disabled") {
        throw new TRPCError({
          code: "CONFLICT",
          message: "This webhook endpoint is disabled: enable it before sending a test event",
        });
      }
      if (!tested.ok) notFound();
      return { delivery: tested.delivery };
    }),

  deliveries: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.deliveries, {
        tags,
        summary: "A webhook endpoint's delivery log",
        description:
          "The endpoint's newest 100 deliveries, newest first: event, status, attempts, next and last attempt, the last answer's status, duration and first 1 KiB. Another wallet is 403; an unknown id 404.",
      }),
    )
    .input(webhookInput)
    .output(listWebhookDeliveriesOutput)
    .query(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      return { deliveries: (await ctx.webhooks.deliveries(input)) ?? notFound() };
    }),

  redeliver: sessionProcedure
    .meta(
      openApiMeta(webhooksHttp.redeliver, {
        tags,
        summary: "Send a delivery again",
        description: webhooksDescriptions.redeliver,
      }),
    )
    .input(redeliverWebhookInput)
    .output(webhookDeliveryOutput)
    .mutation(async ({ ctx, input }) => {
      ownWallet(input, ctx);
      const redelivered = await ctx.webhooks.redeliver(input, input.deliveryId, new Date());
      if (!redelivered.ok && redelivered.reason === "pending") {
        throw new TRPCError({
          code: "CONFLICT",
          message: "This delivery is still pending: it will be attempted again on its own",
        });
      }
      if (!redelivered.ok && redelivered.reason === "disabled") {
        throw new TRPCError({
          code: "CONFLICT",
          message: "This webhook endpoint is disabled: enable it before sending a delivery again",
        });
      }
      if (!redelivered.ok) notFound();
      return { delivery: redelivered.delivery };
    }),
});
