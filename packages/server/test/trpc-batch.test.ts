import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MAX_BATCH_SIZE } from "../src/http/handler.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

/** A batched GET of `count` auth.session calls, as httpBatchLink writes it. */
function batchPath(count: number): string {
  const paths = Array.from({ length: count }, () => "auth.session").join(",");
  const input = Object.fromEntries(Array.from({ length: count }, (_, index) => [index, {}]));
  return `/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
}

describeDatabases("tRPC batches", (target) => {
  let server: TestServer;
  let token: string;
  let wallet: string;
  beforeAll(async () => {
    server = await startTestServer(target);
    ({ token, wallet } = await signIn(server.baseUrl));
  });
  afterAll(() => server.close());

  it("answers a batch of 10 calls, one result each", async () => {
    expect(MAX_BATCH_SIZE).toBe(10);
    const { status, body } = await request(server.baseUrl, "GET", batchPath(10), { token });
    expect(status).toBe(200);
    expect(body).toHaveLength(10);
  });

  it("refuses 11 calls in one batch with 400 in tRPC's error format", async () => {
    const { status, body } = await request(server.baseUrl, "GET", batchPath(11), { token });
    expect(status).toBe(400);
    // One error for the whole request (not one per call), as tRPC answers a batch it cannot start.
    expect(body).toMatchObject({
      error: {
        json: {
          code: -32600,
          message: "Batch call exceeds maximum size",
          data: { code: "BAD_REQUEST", httpStatus: 400 },
        },
      },
    });
  });

  it("runs none of the calls of a refused batch", async () => {
    const creates = Array.from({ length: 11 }, () => "keys.create").join(",");
    const body = Object.fromEntries(
      Array.from({ length: 11 }, (_, index) => [index, { json: { name: "batched" } }]),
    );
    const refused = await request(server.baseUrl, "POST", `/trpc/${creates}?batch=1`, { token, body });
    expect(refused.status).toBe(400);
    const list = await request(server.baseUrl, "GET", `/api-keys/${wallet}`, { token });
    expect(list.body).toMatchObject({ keys: [] });
  });
});
