import { createHmac } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** What one attempt signs: the message id, the attempt's time and the exact body sent. */
export interface SignedContent {
  /** The message id (`msg_...`), the same on every attempt: receivers deduplicate on it. */
  id: string;
  /** The attempt's time. */
  at: Date;
  body: string;
}

/**
 * The Standard Webhooks headers for one attempt: `webhook-id`, `webhook-timestamp` (unix seconds)
 * and `webhook-signature`, `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under each
 * secret (the base64 after `whsec_`), space-separated: during a rotation's overlap both the new and
 * the previous secret sign, so a receiver holding either verifies (docs/webhooks.md).
 * @example signatureHeaders({ id: "msg_01...", at: new Date(), body }, ["whsec_..."])
 */
export function signatureHeaders(content: SignedContent, secrets: readonly string[]): Record<string, string> {
  const timestamp = String(Math.floor(content.at.getTime() / 1000));
  const signed = `${content.id}.${timestamp}.${content.body}`;
  const signatures = secrets.map((secret) => {
    const raw = Buffer.from(
      secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
      "base64",
    );
    return `v1,${createHmac("sha256", raw).update(signed).digest("base64")}`;
  });
  return {
    "webhook-id": content.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}
