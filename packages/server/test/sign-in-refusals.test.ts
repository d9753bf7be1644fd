import { randomBytes } from "node:crypto";
import { request } from "@keyport/test-support/http";
import { buildSiweMessage, newAccount } from "@keyport/test-support/siwe";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { type RpcStandIn, startRpcStandIn } from "./support/rpc-stand-in.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** `POST /auth/nonce` as the client `from` (an X-Forwarded-For entry the loopback peer vouches for). */
async function nonceFor(baseUrl: string, from: string): Promise<string> {
  const { status, body } = await request(baseUrl, "POST", "/auth/nonce", {
    headers: { "x-forwarded-for": from },
  });
  if (status !== 200 || typeof body !== "object" || body === null || !("nonce" in body))
    throw new Error(`nonce request failed with ${status}`);
  return String(body.nonce);
}

/**
 * `POST /auth/verify` from `from` with a message for `account` over `nonce`, signed by `signer`
 * (another wallet makes the signature wrong: no EOA check passes, so a contract wallet is tried).
 */
async function verifyAs(
  baseUrl: string,
  from: string,
  account: PrivateKeyAccount,
  nonce: string,
  signer: PrivateKeyAccount = account,
) {
  const message = buildSiweMessage(account, nonce);
  const signature = await signer.signMessage({ message });
  return request(baseUrl, "POST", "/auth/verify", {
    body: { message, signature },
    headers: { "x-forwarded-for": from },
  });
}

/** A nonce the server never issued (EIP-4361: alphanumeric, 8 characters or more). */
const inventedNonce = () => randomBytes(12).toString("hex");

describeDatabases("sign-in: the nonce before any signature work", (target) => {
  let rpc: RpcStandIn;
  let server: TestServer;
  const account = newAccount();
  const stranger = newAccount();

  beforeAll(async () => {
    rpc = await startRpcStandIn(1);
    server = await startTestServer(target, { RPC_URL: rpc.url, SIWE_CHAIN_IDS: "1" });
  });
  afterAll(async () => {
    await server?.close();
    await rpc?.close();
  });
  beforeEach(() => rpc.reset());

  it("makes no RPC call for an invented nonce, however many", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        verifyAs(server.baseUrl, "203.0.113.10", account, inventedNonce(), stranger),
      ),
    );
    expect(statuses.map((response) => response.status)).toEqual(Array(50).fill(401));
    expect(rpc.calls()).toBe(0);
  });

  it("makes no RPC call for a nonce already used", async () => {
    const nonce = await nonceFor(server.baseUrl, "203.0.113.11");
    expect((await verifyAs(server.baseUrl, "203.0.113.11", account, nonce)).status).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await verifyAs(server.baseUrl, "203.0.113.11", account, nonce, stranger)).status).toBe(401);
    expect(rpc.calls()).toBe(0);
  });

  it("asks the node about a wrong signature over a valid nonce, once, and spends the nonce", async () => {
    const nonce = await nonceFor(server.baseUrl, "203.0.113.12");
    expect((await verifyAs(server.baseUrl, "203.0.113.12", account, nonce, stranger)).status).toBe(401);
    const asked = rpc.calls();
    expect(asked).toBeGreaterThan(0);
    // The nonce is spent: the right signature over it comes too late, and costs the node nothing.
    expect((await verifyAs(server.baseUrl, "203.0.113.12", account, nonce)).status).toBe(401);
    expect(rpc.calls()).toBe(asked);
  });
});

describeDatabases("sign-in: refused sign-ins per client", (target) => {
  let server: TestServer;
  const account = newAccount();
  const stranger = newAccount();

  beforeAll(async () => {
    server = await startTestServer(target, { NONCE_RATE_LIMIT: "10/60" });
  });
  afterAll(() => server.close());

  // Windows are aligned to the minute: start each test just after a boundary, so none straddles one.
  beforeEach(() => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: now - (now % 60_000) + 60_000 + 50 });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it("answers 429 with Retry-After after 10 refused sign-ins a minute from one client", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await verifyAs(server.baseUrl, "203.0.113.20", account, inventedNonce())).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const refused = await verifyAs(server.baseUrl, "203.0.113.20", account, inventedNonce());
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^Too many refused sign-ins from this address: try again in \d+ s$/),
    });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another client is not held back.
    expect((await verifyAs(server.baseUrl, "203.0.113.21", account, inventedNonce())).status).toBe(401);
  });

  it("never refuses a valid unused nonce: past the limit it still signs in, or says 401", async () => {
    for (let i = 0; i < 11; i++) await verifyAs(server.baseUrl, "203.0.113.22", account, inventedNonce());
    const wrong = await verifyAs(
      server.baseUrl,
      "203.0.113.22",
      account,
      await nonceFor(server.baseUrl, "203.0.113.22"),
      stranger,
    );
    expect(wrong.status).toBe(401);
    // Refused for its domain before the nonce was claimed: the nonce was still valid, so 401.
    const elsewhere = buildSiweMessage(account, await nonceFor(server.baseUrl, "203.0.113.22"), {
      domain: "app.example",
    });
    const wrongDomain = await request(server.baseUrl, "POST", "/auth/verify", {
      body: { message: elsewhere, signature: await account.signMessage({ message: elsewhere }) },
      headers: { "x-forwarded-for": "203.0.113.22" },
    });
    expect(wrongDomain.status).toBe(401);
    const right = await verifyAs(
      server.baseUrl,
      "203.0.113.22",
      account,
      await nonceFor(server.baseUrl, "203.0.113.22"),
    );
    expect(right.status).toBe(200);
  });

  it("counts an IPv6 client by its /64", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++)
      statuses.push((await verifyAs(server.baseUrl, `2001:db8:5:6::${i}`, account, inventedNonce())).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect((await verifyAs(server.baseUrl, "2001:db8:5:7::1", account, inventedNonce())).status).toBe(401);
  });

  it("counts no successful sign-in", async () => {
    for (let i = 0; i < 12; i++) {
      const response = await verifyAs(
        server.baseUrl,
        "203.0.113.23",
        account,
        await nonceFor(server.baseUrl, `198.51.100.${i}`),
      );
      expect(response.status).toBe(200);
    }
    expect((await verifyAs(server.baseUrl, "203.0.113.23", account, inventedNonce())).status).toBe(401);
  });
});

describeDatabases("sign-in refusal limit settings", (target) => {
  it("refuses nothing with 429 when NONCE_RATE_LIMIT=off", async () => {
    const server = await startTestServer(target, { NONCE_RATE_LIMIT: "off" });
    const account = newAccount();
    try {
      for (let i = 0; i < 15; i++)
        expect((await verifyAs(server.baseUrl, "203.0.113.30", account, inventedNonce())).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it.skipIf(!TEST_REDIS_URL)("shares one count across instances through Redis", async () => {
    const shared = sharedRedisEnv(TEST_REDIS_URL ?? "");
    const env = { ...shared, NONCE_RATE_LIMIT: "4/3600" };
    const [a, b] = [await startTestServer(target, env), await startTestServer(target, env)];
    const account = newAccount();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await verifyAs(i % 2 === 0 ? a.baseUrl : b.baseUrl, "203.0.113.31", account, inventedNonce()))
            .status,
        );
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await removeRedisKeys(shared);
    }
  });
});
