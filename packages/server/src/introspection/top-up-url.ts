/** What decides whether an introspection names a top-up URL. */
export interface TopUpUrlOptions {
  /** Whether the server takes payments (docs/configuration.md, payments). */
  paymentsEnabled: boolean;
  /** The server's own base URL, `http://host:port` (http/public-url.ts); undefined before it listens. */
  baseUrl: string | undefined;
  keyId: string;
  /** Only an active metered key can be topped up: anything else would be refused (409). */
  canBeToppedUp: boolean;
}

/**
 * The absolute URL of `POST /api-keys/:id/top-up` for a key, or null when a top-up could not
 * succeed: payments off, or the key not metered or not active (docs/decisions.md, introspection).
 * @example topUpUrl({ paymentsEnabled: true, baseUrl: "http://localhost:3000", keyId: "key_1", canBeToppedUp: true })
 * // "http://localhost:3000/api-keys/key_1/top-up"
 */
export function topUpUrl(options: TopUpUrlOptions): string | null {
  const { paymentsEnabled, baseUrl, keyId, canBeToppedUp } = options;
  if (!paymentsEnabled || baseUrl === undefined || !canBeToppedUp) return null;
  return `${baseUrl}/api-keys/${encodeURIComponent(keyId)}/top-up`;
}
