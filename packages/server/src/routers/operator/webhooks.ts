import { TRPCError } from "@trpc/server";
import { type HttpPolicy, openApiMeta } from "../../procedure-meta.js";
import { operatorWebhooksDescriptions } from "../../schemas/descriptions/operator-webhooks.js";
import {
  createOperatorWebhookInput,
  listOperatorWebhooksInput,
  listOperatorWebhooksOutput,
  operatorWebhookInput,
  operatorWebhookOutput,
  operatorWebhookWithSecret,
  redeliverOperatorWebhookInput,
  updateOperatorWebhookInput,
} from "../../schemas/operator-webhooks.js";
import {
  deleteWebhookOutput,
  listWebhookDeliveriesOutput,
  webhookDeliveryOutput,
} from "../../schemas/webhook.js";
import { operatorProcedure, router } from "../../trpc.js";

const NOT_FOUND = "No such operator webhook";

function notFound(): never {
  throw new TRPCError({ code: "NOT_FOUND", message: NOT_FOUND });
}

/** A URL the address policy refuses is 400 naming why (webhooks/target.ts). */
function refuseTarget(refusal: string | null): void {
  if (refusal !== null) throw new TRPCError({ code: "BAD_REQUEST", message: `url ${refusal}` });
}

const BASE = "/operator/webhooks";
const ONE = `${BASE}/{id}` as const;
const WRITE_ERRORS = [401, 403, 404, 413, 415] as const;

/** How each procedure is served as REST (see routers/rest.ts). Every one needs an operator session. */
export const operatorWebhooksHttp = {
  list: {
    method: "GET",
    path: BASE,
    successStatus: 200,
    errors: [401, 403],
    security: "operator",
    requires: "session",
  },
  create: {
    method: "POST",
    path: BASE,
    successStatus: 201,
    errors: [401, 403, 409, 413, 415],
    security: "operator",
    requires: "session",
  },
  get: {
    method: "GET",
    path: ONE,
    successStatus: 200,
    errors: [401, 403, 404],
    security: "operator",
    requires: "session",
  },
  update: {
    method: "PATCH",
    path: ONE,
    successStatus: 200,
    errors: WRITE_ERRORS,
    security: "operator",
    requires: "session",
  },
  delete: {
    method: "DELETE",
    path: ONE,
    successStatus: 200,
    errors: [401, 403, 404],
    security: "operator",
    requires: "session",
  },
  rotateSecret: {
    method: "POST",
    path: `${ONE}/rotate-secret`,
    successStatus: 200,
    errors: WRITE_ERRORS,
    security: "operator",
    requires: "session",
  },
  test: {
    method: "POST",
    path: `${ONE}/test`,
    successStatus: 202,
    errors: [401, 403, 404, 409, 413, 415],
    security: "operator",
    requires: "session",
  },
  deliveries: {
    method: "GET",
    path: `${ONE}/deliveries`,
    successStatus: 200,
    errors: [401, 403, 404],
    security: "operator",
    requires: "session",
  },
  redeliver: {
    method: "POST",
    path: `${ONE}/deliveries/{deliveryId}/redeliver`,
    successStatus: 202,
    errors: [401, 403, 404, 409, 413, 415],
    security: "operator",
    requires: "session",
  },
} as const satisfies Record<string, HttpPolicy>;

const tags = ["operator"];
const meta = (policy: HttpPolicy, summary: string, description: string) =>
  openApiMeta(policy, { tags, summary, description });
const d = operatorWebhooksDescriptions;

/**
 * The deployment's own webhook endpoints (docs/operator.md#webhooks): deployment-wide events of every
 * wallet. An operator session only: an endpoint's secret and a URL that receives every wallet's
 * payments are as sensitive as a token, and no token mints tokens.
 */
export const operatorWebhooksRouter = router({
  list: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.list, "List the operator's webhook endpoints", d.list))
    .input(listOperatorWebhooksInput)
    .output(listOperatorWebhooksOutput)
    .query(async ({ ctx }) => ({ webhooks: await ctx.webhooks.operator.list() })),

  create: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.create, "Add an operator webhook endpoint", d.create))
    .input(createOperatorWebhookInput)
    .output(operatorWebhookWithSecret)
    .mutation(async ({ ctx, input }) => {
      const hooks = ctx.webhooks.operator;
      refuseTarget(await hooks.checkUrl(input.url));
      const created = await hooks.create(
        {
          url: input.url,
          events: input.events,
          description: input.description === undefined || input.description === "" ? null : input.description,
          now: new Date(),
        },
        ctx.operator.actor,
      );
      if (!created.ok) {
        throw new TRPCError({
          code: "CONFLICT",
          message: `This deployment already has the maximum of ${hooks.max} operator webhook endpoints: delete one first`,
        });
      }
      return { webhook: created.webhook, secret: created.secret };
    }),

  get: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.get, "One operator webhook endpoint", d.get))
    .input(operatorWebhookInput)
    .output(operatorWebhookOutput)
    .query(async ({ ctx, input }) => ({
      webhook: (await ctx.webhooks.operator.get(input.id)) ?? notFound(),
    })),

  update: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.update, "Change an operator webhook endpoint", d.update))
    .input(updateOperatorWebhookInput)
    .output(operatorWebhookOutput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...patch } = input;
      if (patch.url !== undefined) refuseTarget(await ctx.webhooks.operator.checkUrl(patch.url));
      const description = patch.description === "" ? null : patch.description;
      const webhook = await ctx.webhooks.operator.update(
        id,
        { ...patch, description },
        new Date(),
        ctx.operator.actor,
      );
      return { webhook: webhook ?? notFound() };
    }),

  delete: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.delete, "Delete an operator webhook endpoint", d.delete))
    .input(operatorWebhookInput)
    .output(deleteWebhookOutput)
    .mutation(async ({ ctx, input }) => {
      if (!(await ctx.webhooks.operator.delete(input.id, new Date(), ctx.operator.actor))) notFound();
      return { deleted: true as const };
    }),

  rotateSecret: operatorProcedure("session")
    .meta(
      meta(operatorWebhooksHttp.rotateSecret, "Rotate an operator webhook endpoint's secret", d.rotateSecret),
    )
    .input(operatorWebhookInput)
    .output(operatorWebhookWithSecret)
    .mutation(
      async ({ ctx, input }) =>
        (await ctx.webhooks.operator.rotateSecret(input.id, new Date(), ctx.operator.actor)) ?? notFound(),
    ),

  test: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.test, "Send a test event to an operator webhook endpoint", d.test))
    .input(operatorWebhookInput)
    .output(webhookDeliveryOutput)
    .mutation(async ({ ctx, input }) => {
      const tested = await ctx.webhooks.operator.test(input.id, new Date());
      if (!tested.ok && tested.reason === "disabled") {
        throw new TRPCError({
          code: "CONFLICT",
          message: "This webhook endpoint is disabled: enable it before sending a test event",
        });
      }
      if (!tested.ok) notFound();
      return { delivery: tested.delivery };
    }),

  deliveries: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.deliveries, "An operator webhook endpoint's delivery log", d.deliveries))
    .input(operatorWebhookInput)
    .output(listWebhookDeliveriesOutput)
    .query(async ({ ctx, input }) => ({
      deliveries: (await ctx.webhooks.operator.deliveries(input.id)) ?? notFound(),
    })),

  redeliver: operatorProcedure("session")
    .meta(meta(operatorWebhooksHttp.redeliver, "Send an operator delivery again", d.redeliver))
    .input(redeliverOperatorWebhookInput)
    .output(webhookDeliveryOutput)
    .mutation(async ({ ctx, input }) => {
      const redelivered = await ctx.webhooks.operator.redeliver(input.id, input.deliveryId, new Date());
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
