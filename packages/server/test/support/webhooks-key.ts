/**
 * The WEBHOOKS_ENCRYPTION_KEY tests pass with a PostgreSQL DATABASE_URL, where env.ts requires one
 * (docs/webhooks.md): 32 bytes, base64. A test value, never a deployment's.
 */
export const TEST_WEBHOOKS_KEY = Buffer.alloc(32, 7).toString("base64");
