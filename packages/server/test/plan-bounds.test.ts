import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppRouter } from "../src/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// A plan's bounds are enforced, not advised (docs/plans.md#bounds): a key create, PATCH or roll (the
// owner's and an operator's issue) outside the plan is 403 PLAN_LIMIT naming field, plan and bound;
// a stricter key is always allowed; the plan's key cap is the wallet's.

const STARTER = { id: "starter", name: "Starter", maxActiveKeys: 2, permissions: ["prices:*", "chat:send"] };

describeDatabases("plan bounds on keys", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let operatorSession: string;
  const op = (method: "POST" | "PATCH", path: string, body: unknown) =>
    request(server.baseUrl, method, path, { token: operatorSession, body });
  const putOn = async (wallet: string, planId: string) => {
    const set = await op("POST", `/operator/wallets/${wallet}/plan`, { planId, reason: "test" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  };
  const create = (token: string, body: Record<string, unknown>) =>
    request(server.baseUrl, "POST", "/api-keys", { token, body: { name: "k", ...body } });

  beforeAll(async () => {
    server = await startTestServer(target, { OPERATOR_WALLETS: operator.address });
    operatorSession = (await signIn(server.baseUrl, operator)).token;
    expect((await op("POST", "/operator/plans", STARTER)).status).toBe(201);
  });
  afterAll(() => server.close());

  it("refuses a create holding a permission outside the plan, naming field, plan and bound", async () => {
    const owner = await signIn(server.baseUrl);
    await putOn(owner.wallet, "starter");
    const refused = await create(owner.token, { permissions: ["prices:read", "admin"] });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "FORBIDDEN",
      reason: "PLAN_LIMIT",
      details: { field: "permissions", plan: "starter", bound: ["prices:*", "chat:send"] },
    });
    const message = (refused.body as { message: string }).message;
    expect(message).toContain("permissions");
    expect(message).toContain("admin");
    expect(message).toContain("starter");
    expect(message).toContain("prices:*, chat:send");
    expect((await create(owner.token, { permissions: ["*"] })).status).toBe(403);
    expect((await create(owner.token, { permissions: ["prices*"] })).status).toBe(403);
    // Nothing was created by a refusal.
    const listed = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    expect((listed.body as { keys: unknown[] }).keys).toHaveLength(0);
  });

  it("allows a key stricter than the plan, and none at all", async () => {
    const owner = await signIn(server.baseUrl);
    await putOn(owner.wallet, "starter");
    expect((await create(owner.token, { permissions: ["prices:read", "prices:*"] })).status).toBe(201);
    expect((await create(owner.token, {})).status).toBe(201);
  });

  it("caps active keys at the plan's maxActiveKeys: 409, and the list names the cap", async () => {
    const owner = await signIn(server.baseUrl);
    await putOn(owner.wallet, "starter");
    expect((await create(owner.token, {})).status).toBe(201);
    expect((await create(owner.token, {})).status).toBe(201);
    const third = await create(owner.token, {});
    expect(third.status).toBe(409);
    expect((third.body as { message: string }).message).toContain("maximum of 2 active keys");
    const listed = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    expect(listed.body).toMatchObject({ activeKeyCap: 2 });
    const searched = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}?q=k`, {
      token: owner.token,
    });
    expect(searched.body).toMatchObject({ activeKeyCap: 2 });
  });

  it("a plan change down keeps every key; over the new cap, create is 409 until under it", async () => {
    const owner = await signIn(server.baseUrl);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await create(owner.token, { permissions: ["admin"] });
      expect(created.status).toBe(201);
      made.push((created.body as { apiKey: { id: string } }).apiKey.id);
    }
    await putOn(owner.wallet, "starter");
    const listed = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}?status=active`, {
      token: owner.token,
    });
    expect((listed.body as { keys: { id: string }[] }).keys.map((k) => k.id).sort()).toEqual(
      [...made].sort(),
    );
    expect((await create(owner.token, {})).status).toBe(409);
    await request(server.baseUrl, "DELETE", `/api-keys/${made[0]}`, { token: owner.token });
    expect((await create(owner.token, {})).status).toBe(409);
    await request(server.baseUrl, "DELETE", `/api-keys/${made[1]}`, { token: owner.token });
    expect((await create(owner.token, {})).status).toBe(201);
  });

  it("judges a PATCH's permissions against the plan, and lets a kept key's other fields change", async () => {
    const owner = await signIn(server.baseUrl);
    const kept = await create(owner.token, { permissions: ["admin"] });
    const keptId = (kept.body as { apiKey: { id: string } }).apiKey.id;
    await putOn(owner.wallet, "starter");
    const patch = (id: string, body: unknown) =>
      request(server.baseUrl, "PATCH", `/api-keys/${id}`, { token: owner.token, body });
    const widened = await patch(keptId, { permissions: ["chat:*"] });
    expect(widened.status).toBe(403);
    expect(widened.body).toMatchObject({
      reason: "PLAN_LIMIT",
      details: { field: "permissions", plan: "starter" },
    });
    expect((await patch(keptId, { name: "renamed" })).status).toBe(200);
    expect((await patch(keptId, { permissions: ["chat:send"] })).status).toBe(200);
  });

  it("refuses to roll a key whose permissions the plan no longer allows, and rolls one that fits", async () => {
    const owner = await signIn(server.baseUrl);
    const outside = await create(owner.token, { permissions: ["admin"] });
    const inside = await create(owner.token, { permissions: ["prices:read"] });
    await putOn(owner.wallet, "starter");
    const roll = (created: typeof outside) =>
      request(
        server.baseUrl,
        "POST",
        `/api-keys/${(created.body as { apiKey: { id: string } }).apiKey.id}/roll`,
        {
          token: owner.token,
          body: {},
        },
      );
    const refused = await roll(outside);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      reason: "PLAN_LIMIT",
      details: { field: "permissions", plan: "starter" },
    });
    expect((await roll(inside)).status).toBe(201);
  });

  it("holds an operator's issue to the wallet's plan too", async () => {
    const owner = await signIn(server.baseUrl);
    await putOn(owner.wallet, "starter");
    const issue = (permissions: string[]) =>
      op("POST", `/operator/wallets/${owner.wallet}/keys`, {
        name: "issued",
        permissions,
        reason: "support",
      });
    const refused = await issue(["admin"]);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      reason: "PLAN_LIMIT",
      details: { field: "permissions", plan: "starter" },
    });
    expect((await issue(["chat:send"])).status).toBe(201);
  });

  it("says the same over tRPC: error.data.reason and details", async () => {
    const owner = await signIn(server.baseUrl);
    await putOn(owner.wallet, "starter");
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${server.baseUrl}/trpc`,
          transformer: superjson,
          headers: () => ({ authorization: `Bearer ${owner.token}` }),
        }),
      ],
    });
    const error = await client.keys.create.mutate({ name: "k", permissions: ["admin"] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    const data = (error as TRPCClientError<AppRouter>).data as
      | { reason?: string; details?: unknown }
      | undefined;
    expect(data).toMatchObject({ reason: "PLAN_LIMIT", details: { field: "permissions", plan: "starter" } });
  });

  it("leaves a wallet on the default plan as free as before: any permission, the server's cap", async () => {
    const owner = await signIn(server.baseUrl);
    expect((await create(owner.token, { permissions: ["*", "admin"] })).status).toBe(201);
    const listed = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    expect(listed.body).toMatchObject({ activeKeyCap: 50 });
  });
});
