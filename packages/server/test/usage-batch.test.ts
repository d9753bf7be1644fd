import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

const FROM = "2026-01-01T00:00:00Z";
// 2,000 hourly buckets: the most one query may ask for.
const TO = new Date(Date.parse(FROM) + 2_000 * 3_600_000).toISOString();

describeDatabases("batched usage queries", (target) => {
  let server: TestServer;
  let token: string;
  let wallet: string;
  let keyId: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    ({ token, wallet } = await signIn(server.baseUrl));
    for (let i = 0; i < 5; i++)
      keyId = (await createKeyOver(server.baseUrl, token, { name: `k${i}` })).apiKey.id;
  });
  afterAll(() => server.close());

  /** One GET carrying `inputs.length` usage.get calls. */
  async function batch(inputs: Record<string, unknown>[]) {
    const paths = inputs.map(() => "usage.get").join(",");
    const input = Object.fromEntries(inputs.map((json, index) => [index, { json }]));
    const path = `/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
    const answer = await request(server.baseUrl, "GET", path, { token });
    return { status: answer.status, calls: answer.body as Array<{ error?: { json: { message: string } } }> };
  }

  const hourly = { from: FROM, to: TO, granularity: "hour" };

  it("answer a batch asking for 40,000 buckets × keys (4 × 2,000 hours × 5 keys)", async () => {
    const answer = await batch(Array.from({ length: 4 }, () => ({ wallet, ...hourly })));
    expect(answer.status).toBe(200);
    expect(answer.calls.every((call) => call.error === undefined)).toBe(true);
  });

  it("refuse a whole batch asking for 60,000 buckets × keys (6 × 2,000 hours × 5 keys) with 400", async () => {
    const answer = await batch(Array.from({ length: 6 }, () => ({ wallet, ...hourly })));
    expect(answer.status).toBe(400);
    expect(answer.calls.map((call) => call.error?.json.message)).toEqual(
      Array.from(
        { length: 6 },
        () => "The usage queries of one batch may ask for at most 50000 buckets × keys together",
      ),
    );
  });

  it("count a query filtered by keyId as one key", async () => {
    const answer = await batch(Array.from({ length: 10 }, () => ({ wallet, keyId, ...hourly })));
    expect(answer.status).toBe(200);
  });

  it("leave a single query and REST to the per-query bound", async () => {
    const rest = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${wallet}/usage?from=${FROM}&to=${encodeURIComponent(TO)}&granularity=hour`,
      { token },
    );
    expect(rest.status).toBe(200);
    expect((await batch([{ wallet, ...hourly }])).status).toBe(200);
  });
});
