import { MAX_WEBHOOKS_PER_WALLET } from "../webhook.js";

/** The OpenAPI descriptions of routers/webhooks.ts's operations, by procedure (docs/api.md says the same for people). */
export const webhooksDescriptions = {
  create: `Returns the signing secret (\`whsec_...\`) once; the server keeps it encrypted. \`url\` must be https (plain http only with WEBHOOKS_ALLOW_PRIVATE), at most 2048 characters, without credentials, and its host must not be, or resolve to, a loopback, private, link-local or metadata address (else 400 naming why; a name that does not resolve yet is accepted and checked at every send). \`events\`: at least one event type, none twice. \`description\`: at most 200 characters. A wallet holds at most ${MAX_WEBHOOKS_PER_WALLET} endpoints: one more is 409. Records a \`webhook.created\` event. Another wallet is 403. Responds 201.`,
  update:
    "Changes any of url, events, description and enabled; an absent field is unchanged, `description: null` clears it. `url` is checked as on create. `enabled: false` stops deliveries (disabledReason `manual`; nothing is sent while disabled, and its pending deliveries end as failed); `enabled: true` resumes them and clears disabledReason, also for an endpoint the server disabled. Records a `webhook.updated` event. Another wallet is 403; an unknown id 404.",
  rotateSecret:
    "Returns the new secret once. For 24 hours every request carries two signatures, one with the new secret and one with the old, so a receiver can switch without missing an event; a second rotation within that time ends the older secret's overlap. Records a `webhook.updated` event (`{ secretRotated: true }`). Another wallet is 403; an unknown id 404.",
  redeliver:
    "Sends the same message again, with the same `webhook-id` and body: the delivery goes back to pending, due now, its attempts counting on. A delivery still pending is 409, and so is one to a disabled endpoint (enable it first). Another wallet is 403; an unknown endpoint or delivery 404. Responds 202.",
} as const;
