import { signIn } from "@keyport/test-support/siwe";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite } from "./support/databases.js";
import { createKeyOver, trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { topUpOver } from "./support/top-up.js";

describe("a top-up while payments are off", () => {
  let database: Awaited<ReturnType<typeof openTestPglite>>;
  let server: TestServer;
  beforeAll(async () => {
    database = await openTestPglite();
    server = await startTestServer({ database, url: "memory:" });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it("answers 501 with the reason in the envelope, over REST and tRPC, never 'Internal server error'", async () => {
    const owner = await signIn(server.baseUrl);
    const { apiKey } = await createKeyOver(server.baseUrl, owner.token, {
      name: "m",
      credits: { remaining: 1 },
    });
    const answer = await topUpOver(server.baseUrl, apiKey.id, "5", { token: owner.token });
    expect(answer.status).toBe(501);
    expect(answer.body).toEqual({
      code: "NOT_IMPLEMENTED",
      message: "Payments are off on this server",
      requestId: answer.headers.get("x-request-id"),
    });
    const error = await trpcClient(server.baseUrl, owner.token)
      .keys.topUpQuote.query({ id: apiKey.id, amount: "5" })
      .catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error instanceof TRPCClientError ? error.message : "").toBe("Payments are off on this server");
  });
});
