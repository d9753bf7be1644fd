import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

describeDatabases("GET /meta", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, { SIWE_CHAIN_IDS: "1,31337" });
  });
  afterAll(() => server.close());

  it("tells anyone, without a session, that payments are off and which chains sign in, cacheably", async () => {
    const response = await fetch(`${server.baseUrl}/meta`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await response.json()).toEqual({ payments: null, chainIds: [1, 31337] });
  });

  it("answers the same over tRPC as the public meta procedure", async () => {
    expect(await trpcClient(server.baseUrl).meta.query()).toEqual({ payments: null, chainIds: [1, 31337] });
  });

  it("is described in the OpenAPI document as a public GET", async () => {
    const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[] } }>;
    };
    const operation = document.paths["/meta"]?.get;
    expect(operation).toBeDefined();
    expect(operation?.security ?? []).toEqual([]);
  });
});
