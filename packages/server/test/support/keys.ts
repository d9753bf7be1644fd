import { request } from "@keyport/test-support/http";
import { createTRPCClient, httpBatchLink, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../../src/index.js";

/** The REST shape of a created key. */
export interface CreatedKey {
  key: string;
  apiKey: { id: string; wallet: string; name: string; revokedAt: string | null; expiresAt: string | null };
}

/** Creates a key over REST (201 expected) with a session token. */
export async function createKeyOver(
  baseUrl: string,
  token: string,
  body: Record<string, unknown> = { name: "test key" },
): Promise<CreatedKey> {
  const { status, body: created } = await request(baseUrl, "POST", "/api-keys", { token, body });
  if (status !== 201) throw new Error(`create failed with ${status}: ${JSON.stringify(created)}`);
  return created as CreatedKey;
}

/** One applied limit in a `Verification`. */
export interface VerificationLimit {
  name: string;
  scope: "key" | "wallet";
  limit: number;
  remaining: number;
  resetAt: string;
}

/** The REST shape of docs/api.md's `Verification`. */
export interface VerificationBody {
  valid: boolean;
  code: string;
  keyId: string | null;
  wallet: string | null;
  expiresAt: string | null;
  ratelimit: VerificationLimit | null;
  ratelimits: VerificationLimit[];
  permissions: string[];
  credits: { remaining: number; purchased: number; refillAt: string | null } | null;
  meta: Record<string, unknown> | null;
}

/** `POST /api-keys/verify` with no session: the key is the credential; `ask` adds the client's ip, permissions and cost. */
export async function verifyOver(
  baseUrl: string,
  key: string,
  ask: {
    ip?: string;
    permissions?: string[];
    cost?: number;
    ratelimits?: { name: string; cost: number }[];
  } = {},
): Promise<VerificationBody> {
  const { status, body } = await request(baseUrl, "POST", "/api-keys/verify", { body: { key, ...ask } });
  if (status !== 200) throw new Error(`verify failed with ${status}: ${JSON.stringify(body)}`);
  return body as VerificationBody;
}

/** A typed tRPC client (superjson), batched unless `batch` is false, with an optional session. */
export function trpcClient(baseUrl: string, token?: string, batch = true) {
  const options = {
    url: `${baseUrl}/trpc`,
    transformer: superjson,
    headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
  };
  return createTRPCClient<AppRouter>({ links: [batch ? httpBatchLink(options) : httpLink(options)] });
}

/** The REST shape of docs/api.md's `Introspection`. */
export interface IntrospectionBody {
  keyId: string;
  status: "active" | "revoked" | "expired";
  expiresAt: string | null;
  ratelimit: VerificationLimit | null;
  credits: { remaining: number; purchased: number; refillAt: string | null } | null;
  suspended: boolean;
  topUpUrl: string | null;
}

/** `POST /api-keys/introspect` with no session (200 expected): the key's own state. */
export async function introspectOver(baseUrl: string, key: string): Promise<IntrospectionBody> {
  const { status, body } = await request(baseUrl, "POST", "/api-keys/introspect", { body: { key } });
  if (status !== 200) throw new Error(`introspect failed with ${status}: ${JSON.stringify(body)}`);
  return body as IntrospectionBody;
}
