import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";
const STORED_VERSION = "v1";

/**
 * A new signing secret in Standard Webhooks' format: `whsec_` + base64 of 32 random bytes, which
 * the `standardwebhooks` package and Svix's libraries take as is.
 */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/**
 * Encrypts a secret for the `webhooks` table with AES-256-GCM under the server's key
 * (WEBHOOKS_ENCRYPTION_KEY): signing needs the secret itself, so unlike an API key it cannot be
 * stored as a hash. The result is `v1:` + base64 of iv, tag and ciphertext.
 */
export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `${STORED_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

/**
 * Decrypts what `encryptSecret` stored.
 * @throws Error when the value was not encrypted under `key` (a changed WEBHOOKS_ENCRYPTION_KEY).
 */
export function decryptSecret(key: Buffer, stored: string): string {
  const [version, encoded] = stored.split(":");
  if (version !== STORED_VERSION || encoded === undefined) throw new Error("Unknown webhook secret format");
  const raw = Buffer.from(encoded, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
