import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { requiredOf, topUpOver } from "./support/top-up.js";

const SETTLER = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

// Payments on, over a node nobody runs: a 402 and an introspection name URLs without touching the chain.
const payments = {
  PAYMENTS_NETWORK: "eip155:31337",
  PAYMENTS_RPC_URL: "http://127.0.0.1:9/",
  PAYMENTS_ASSET: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  PAYMENTS_PAY_TO: privateKeyToAccount(SETTLER).address,
  PAYMENTS_SETTLER_PRIVATE_KEY: SETTLER,
};

describe("PUBLIC_URL names the server in the URLs it hands out", () => {
  let database: Awaited<ReturnType<typeof openTestPglite>>;
  let server: TestServer;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer(
      { database, url: "memory:" },
      { ...payments, PUBLIC_URL: "https://keyport.example.com/" },
    );
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it("puts PUBLIC_URL, not the request's Host, in a 402's resource and in topUpUrl", async () => {
    const owner = await signIn(server.baseUrl);
    const created = await createKeyOver(server.baseUrl, owner.token, {
      name: "m",
      credits: { remaining: 1 },
    });
    const unpaid = await topUpOver(server.baseUrl, created.apiKey.id, "5", { token: owner.token });
    expect(unpaid.status).toBe(402);
    expect(requiredOf(unpaid.headers).resource.url).toBe(
      `https://keyport.example.com/api-keys/${created.apiKey.id}/top-up`,
    );
    const introspected = await request(server.baseUrl, "POST", "/api-keys/introspect", {
      body: { key: created.key },
    });
    expect(introspected.status).toBe(200);
    expect(introspected.body).toMatchObject({
      topUpUrl: `https://keyport.example.com/api-keys/${created.apiKey.id}/top-up`,
    });
  });
});
