import { randomBytes } from "node:crypto";
import { request } from "@keyport/test-support/http";
import { newAccount } from "@keyport/test-support/siwe";
import type { PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

// The launcher's dashboard origin, as a deployment that accepts only it would configure.
const DOMAIN = "localhost:3001";
const NONCE_MESSAGE =
  "The message's nonce is unknown, expired or already used: ask for a new one (POST /auth/nonce)";
const SIGNATURE_MESSAGE = "The signature is not the message's address's signature of this message";

type Fields = Partial<Parameters<typeof createSiweMessage>[0]>;

/** A message for `DOMAIN` on chain 1, issued now, unless `fields` says otherwise. */
function messageFor(account: PrivateKeyAccount, nonce: string, fields: Fields = {}): string {
  return createSiweMessage({
    address: account.address,
    domain: DOMAIN,
    uri: `http://${DOMAIN}/`,
    version: "1",
    chainId: 1,
    nonce,
    issuedAt: new Date(),
    ...fields,
  });
}

/** A nonce the server never issued (EIP-4361: alphanumeric, 8 characters or more). */
const inventedNonce = () => randomBytes(12).toString("hex");

async function nonceFrom(baseUrl: string, from = "198.51.100.1"): Promise<string> {
  const { body } = await request(baseUrl, "POST", "/auth/nonce", { headers: { "x-forwarded-for": from } });
  if (typeof body !== "object" || body === null || !("nonce" in body)) throw new Error("no nonce");
  return String(body.nonce);
}

/** One refused case: the message's fields (or a nonce the server issues), the signer, and the sentence. */
interface Case {
  fields: (now: number) => Fields;
  /** True: the nonce is issued by the server; false: invented. */
  issuedNonce: boolean;
  signedByAnother?: boolean;
  message: (fields: Fields) => string;
}

const cases: Record<string, Case> = {
  domain: {
    fields: () => ({ domain: "localhost" }),
    issuedNonce: true,
    message: () => "The message's domain localhost is not one this server accepts (localhost:3001)",
  },
  uri: {
    fields: () => ({ uri: "http://localhost:8080/login" }),
    issuedNonce: true,
    message: () => "The message's URI host localhost:8080 is not one this server accepts (localhost:3001)",
  },
  chain: {
    fields: () => ({ chainId: 8453 }),
    issuedNonce: true,
    message: () => "The message's chain ID 8453 is not one this server accepts (1, 31337)",
  },
  expired: {
    fields: (now) => ({ expirationTime: new Date(now - 1_000) }),
    issuedNonce: true,
    message: (fields) => `The message expired at ${fields.expirationTime?.toISOString()}`,
  },
  "not yet valid": {
    fields: (now) => ({ notBefore: new Date(now + 3_600_000) }),
    issuedNonce: true,
    message: (fields) => `The message is not yet valid: its Not Before is ${fields.notBefore?.toISOString()}`,
  },
  "nonce unknown": { fields: () => ({}), issuedNonce: false, message: () => NONCE_MESSAGE },
  signature: {
    fields: () => ({}),
    issuedNonce: true,
    signedByAnother: true,
    message: () => SIGNATURE_MESSAGE,
  },
};

describeDatabases("a refused sign-in says which check failed", (target) => {
  // PGlite counts refusals in process, PostgreSQL in Redis when it answers: both limiters hear the reasons.
  const redisEnv: Record<string, string> =
    target.kind === "postgres" && TEST_REDIS_URL ? sharedRedisEnv(TEST_REDIS_URL) : {};
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, {
      SIWE_DOMAINS: DOMAIN,
      SIWE_CHAIN_IDS: "1,31337",
      NONCE_RATE_LIMIT: "4/60",
      ...redisEnv,
    });
  });
  afterAll(async () => {
    await server?.close();
    await removeRedisKeys(redisEnv);
  });

  /** Signs the case's message and posts it over `surface`; answers its status and its error's code and message. */
  async function refuse(name: string, surface: "rest" | "trpc", from: string) {
    const spec = cases[name];
    if (spec === undefined) throw new Error(name);
    const account = newAccount();
    const fields = spec.fields(Date.now());
    const nonce = spec.issuedNonce ? await nonceFrom(server.baseUrl, from) : inventedNonce();
    const message = messageFor(account, nonce, fields);
    const signature = await (spec.signedByAnother ? newAccount() : account).signMessage({ message });
    const headers = { "x-forwarded-for": from };
    if (surface === "rest") {
      const { status, body } = await request(server.baseUrl, "POST", "/auth/verify", {
        body: { message, signature },
        headers,
      });
      return { status, body, expected: spec.message(fields) };
    }
    const { status, body } = await request(server.baseUrl, "POST", "/trpc/auth.verify", {
      body: { json: { message, signature } },
      headers,
    });
    const error = (body as { error: { json: { message: string; data: { code: string } } } }).error.json;
    return {
      status,
      body: { code: error.data.code, message: error.message },
      expected: spec.message(fields),
    };
  }

  // Each case from its own client address, so the refusal limit of one never meets another's.
  let client = 10;
  it.each(Object.keys(cases).flatMap((name) => [[name, "rest"] as const, [name, "trpc"] as const]))(
    "refuses the check %s over %s with 401 UNAUTHORIZED and its own sentence",
    async (name, surface) => {
      const outcome = await refuse(name, surface, `203.0.113.${client++}`);
      expect(outcome.status).toBe(401);
      expect(outcome.body).toEqual({ code: "UNAUTHORIZED", message: outcome.expected });
    },
  );

  it("says a nonce already used is unknown or used, and the sign-in that used it succeeded", async () => {
    const account = newAccount();
    const message = messageFor(account, await nonceFrom(server.baseUrl));
    const signature = await account.signMessage({ message });
    const first = await request(server.baseUrl, "POST", "/auth/verify", { body: { message, signature } });
    expect(first.status).toBe(200);
    const replay = await request(server.baseUrl, "POST", "/auth/verify", { body: { message, signature } });
    expect(replay).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED", message: NONCE_MESSAGE } });
  });

  it("still counts each refusal with a reason against the client: past the limit, 429", async () => {
    const from = "203.0.113.200";
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++)
      statuses.push((await refuse("nonce unknown", "rest", from)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    // Another client address keeps its own budget and still hears the reason.
    expect(await refuse("nonce unknown", "rest", "203.0.113.201")).toMatchObject({
      status: 401,
      body: { message: NONCE_MESSAGE },
    });
  });
});
