import { MAX_OPERATOR_WEBHOOKS } from "../operator-webhooks.js";

const SESSION_ONLY = "An operator session only: an operator token is 403.";

/** The OpenAPI descriptions of routers/operator/webhooks.ts's operations, by procedure (docs/operator.md#webhooks says the same for people). */
export const operatorWebhooksDescriptions = {
  list: `The deployment's own endpoints, oldest first. Secrets never appear here. ${SESSION_ONLY}`,
  create: `An endpoint that receives deployment-wide events of every wallet (\`payment.settled\`, \`wallet.suspended\`, \`wallet.unsuspended\`, \`key.leaked\`) and its own \`webhook.disabled\`, signed and delivered like a wallet's (Standard Webhooks). The URL policy is the wallets' (https, no private or loopback address unless WEBHOOKS_ALLOW_PRIVATE). \`secret\` is shown once. At most ${MAX_OPERATOR_WEBHOOKS} endpoints (409 past it). Recorded in the operator trail as \`webhook.created\`. ${SESSION_ONLY} Responds 201.`,
  get: `One endpoint, never its secret; an unknown id is 404. ${SESSION_ONLY}`,
  update: `Changes the URL, events, description or enabled state; an absent field is unchanged, \`description: null\` clears it. Recorded as \`webhook.updated\`. ${SESSION_ONLY}`,
  delete: `Deletes the endpoint and its delivery log. Recorded as \`webhook.deleted\`. ${SESSION_ONLY}`,
  rotateSecret: `A new signing secret, shown once; the previous one keeps signing beside it for 24 hours. Recorded as \`webhook.updated\`. ${SESSION_ONLY}`,
  test: `Queues one \`webhook.test\` event to this endpoint alone and returns its delivery (pending). A disabled endpoint is 409. ${SESSION_ONLY} Responds 202.`,
  deliveries: `The endpoint's newest 100 deliveries, newest first. ${SESSION_ONLY}`,
  redeliver: `Sends a settled delivery's message again (same \`webhook-id\` and body); a pending one is 409. ${SESSION_ONLY} Responds 202.`,
} as const;
