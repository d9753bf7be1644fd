import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDatabases } from "./support/databases.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

// Two instances of one deployment: a plan edit and a wallet's plan change made on one reach the other's
// key cache within 1 s (docs/plans.md#at-verification), over the invalidation channel.

describeDatabases("a plan change on a second instance", (target) => {
  const operator = newAccount();
  const env = process.env.TEST_REDIS_URL ? sharedRedisEnv(process.env.TEST_REDIS_URL) : {};
  let a: TestServer;
  let b: TestServer;
  let session: string;
  const op = (method: "POST" | "PATCH", path: string, body: unknown) =>
    request(a.baseUrl, method, path, { token: session, body });
  const verifyOnB = async (key: string) =>
    (await request(b.baseUrl, "POST", "/api-keys/verify", { body: { key, permissions: ["chat:send"] } }))
      .body as { code: string; plan: { id: string } };
  /** Milliseconds until `done` holds for B's answer, polling every 20 ms for at most 3 s. */
  const msUntil = async (key: string, done: (answer: { code: string; plan: { id: string } }) => boolean) => {
    const start = performance.now();
    while (performance.now() - start < 3000) {
      if (done(await verifyOnB(key))) return performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Number.POSITIVE_INFINITY;
  };

  beforeAll(async () => {
    const settings = { ...env, OPERATOR_WALLETS: operator.address };
    a = await startTestServer(target, settings);
    b = await startTestServer(target, settings);
    session = (await signIn(a.baseUrl, operator)).token;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await removeRedisKeys(env);
  });

  it("narrows a cached key's permissions within 1 s of a plan edit, and moves it within 1 s of a plan change", async () => {
    expect((await op("POST", "/operator/plans", { id: "team", name: "Team" })).status).toBe(201);
    expect(
      (await op("POST", "/operator/plans", { id: "narrow", name: "Narrow", permissions: ["prices:*"] }))
        .status,
    ).toBe(201);
    const owner = await signIn(a.baseUrl);
    const created = await request(a.baseUrl, "POST", "/api-keys", {
      token: owner.token,
      body: { name: "k", permissions: ["*"] },
    });
    const key = (created.body as { key: string }).key;
    await op("POST", `/operator/wallets/${owner.wallet}/plan`, { planId: "team", reason: "test" });
    expect(await msUntil(key, (answer) => answer.plan.id === "team" && answer.code === "VALID")).toBeLessThan(
      1000,
    );

    // B has the key cached under "team": the edit reaches it over the channel.
    expect((await op("PATCH", "/operator/plans/team", { permissions: ["prices:*"] })).status).toBe(200);
    expect(await msUntil(key, (answer) => answer.code === "INSUFFICIENT_PERMISSIONS")).toBeLessThan(1000);

    expect((await op("PATCH", "/operator/plans/team", { permissions: ["*"] })).status).toBe(200);
    expect(await msUntil(key, (answer) => answer.code === "VALID")).toBeLessThan(1000);
    await op("POST", `/operator/wallets/${owner.wallet}/plan`, { planId: "narrow", reason: "down" });
    expect(
      await msUntil(
        key,
        (answer) => answer.plan.id === "narrow" && answer.code === "INSUFFICIENT_PERMISSIONS",
      ),
    ).toBeLessThan(1000);
  });
});
