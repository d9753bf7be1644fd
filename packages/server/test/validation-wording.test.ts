import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

describeDatabases("invalid input", (target) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    ({ token } = await signIn(server.baseUrl));
  });
  afterAll(() => server.close());

  it("is worded the same on tRPC and REST: 'Input validation failed' with the same issues", async () => {
    const input = { name: "", permissions: ["NOT OK"] };
    const rest = await request(server.baseUrl, "POST", "/api-keys", { token, body: input });
    const trpc = await request(server.baseUrl, "POST", "/trpc/keys.create", { token, body: { json: input } });
    expect(rest.status).toBe(400);
    expect(trpc.status).toBe(400);
    const restBody = rest.body as { message: string; issues: unknown[] };
    const trpcError = (trpc.body as { error: { json: { message: string; data: { issues: unknown[] } } } })
      .error.json;
    expect(restBody.message).toBe("Input validation failed");
    expect(trpcError.message).toBe("Input validation failed");
    expect(trpcError.data.issues).toEqual(restBody.issues);
    expect(trpcError.data.issues).toHaveLength(2);
  });
});
