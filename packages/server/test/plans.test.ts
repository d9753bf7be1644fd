import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { EnvError } from "../src/env.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// Plans (docs/plans.md): PLANS_FILE applied at each start, the default plan, the public list, the
// wallet's view, and the operator's plan routes with their scopes.

interface PlanView {
  id: string;
  archivedAt: string | null;
  default: boolean;
  maxActiveKeys: number | null;
}

async function plansFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "keyport-plans-"));
  const path = join(dir, "plans.json");
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const pro = { id: "pro", name: "Pro", price: { amount: "10", days: 30 }, maxActiveKeys: 20 };

describeDatabases("PLANS_FILE at start", (target) => {
  it("with nothing configured, the one plan is the implicit free plan: today's behaviour", async () => {
    const server = await startTestServer(target);
    try {
      const listed = await request(server.baseUrl, "GET", "/plans");
      expect(listed.status).toBe(200);
      expect(listed.body).toMatchObject({
        plans: [
          {
            id: "free",
            price: null,
            metered: false,
            maxActiveKeys: null,
            permissions: ["*"],
            rateLimits: [],
            keyRateLimit: null,
            public: true,
            default: true,
          },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it("creates and updates the file's plans by id and archives the others, never deleting one", async () => {
    const first = await plansFile({
      plans: [{ id: "free", name: "Free" }, pro, { id: "team", name: "Team", public: false }],
      defaultPlan: "free",
    });
    let server = await startTestServer(target, { PLANS_FILE: first });
    const answer = await request(server.baseUrl, "GET", "/plans");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    let listed = answer.body as { plans: PlanView[] };
    expect(listed.plans.map((p) => p.id)).toEqual(["free", "pro"]);
    await server.close();

    const second = await plansFile({
      plans: [
        { id: "basic", name: "Basic", maxActiveKeys: 3 },
        { ...pro, maxActiveKeys: 25 },
      ],
      defaultPlan: "basic",
    });
    server = await startTestServer(target, { PLANS_FILE: second });
    try {
      listed = (await request(server.baseUrl, "GET", "/plans")).body as { plans: PlanView[] };
      expect(listed.plans.map((p) => [p.id, p.default, p.maxActiveKeys])).toEqual([
        ["basic", true, 3],
        ["pro", false, 25],
      ]);
      const operator = newAccount();
      await server.close();
      server = await startTestServer(target, { PLANS_FILE: second, OPERATOR_WALLETS: operator.address });
      const session = (await signIn(server.baseUrl, operator)).token;
      const all = await request(server.baseUrl, "GET", "/operator/plans?archived=true", { token: session });
      const byId = new Map((all.body as { plans: PlanView[] }).plans.map((p) => [p.id, p]));
      expect([...byId.keys()].sort()).toEqual(["basic", "free", "pro", "team"]);
      expect(byId.get("free")?.archivedAt).not.toBeNull();
      expect(byId.get("team")?.archivedAt).not.toBeNull();
      expect(byId.get("pro")?.archivedAt).toBeNull();

      // While the file is set, plan edits through the API are 409 naming it.
      const edit = await request(server.baseUrl, "PATCH", "/operator/plans/pro", {
        token: session,
        body: { name: "Pro+" },
      });
      expect(edit.status).toBe(409);
      expect((edit.body as { message: string }).message).toContain(second);
    } finally {
      await server.close();
    }
  });

  it("refuses to start on a bad file, one line per problem, or a default plan that is paid or missing", async () => {
    const refusal = async (env: Record<string, string>) => {
      const error = await startTestServer(target, env).then(
        async (server) => {
          await server.close();
          return null;
        },
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EnvError);
      return (error as Error).message;
    };
    const bad = await plansFile({
      plans: [{ id: "x" }, { id: "y", name: "Y", price: { amount: "-1", days: 0 } }],
    });
    expect((await refusal({ PLANS_FILE: bad })).split("\n").slice(1)).toEqual([
      "  plans.0.name: Invalid input: expected string, received undefined",
      expect.stringMatching(/^ {2}plans\.1\.price\.amount: /),
      expect.stringMatching(/^ {2}plans\.1\.price\.days: /),
    ]);
    const paidDefault = await plansFile({ plans: [pro], defaultPlan: "pro" });
    expect(await refusal({ PLANS_FILE: paidDefault })).toMatch(
      /defaultPlan: pro has a price; the default plan must be free/,
    );
    const noDefault = await plansFile({ plans: [pro] });
    expect(await refusal({ PLANS_FILE: noDefault })).toMatch(
      /defaultPlan: names free, which is no plan in the file/,
    );
    const file = await plansFile({ plans: [{ id: "free", name: "Free" }, pro] });
    expect(await refusal({ PLANS_FILE: file, DEFAULT_PLAN: "pro" })).toMatch(/DEFAULT_PLAN: pro has a price/);
    expect(await refusal({ DEFAULT_PLAN: "nope" })).toMatch(/DEFAULT_PLAN: names nope, which is no plan/);
    expect(await refusal({ PLANS_FILE: join(tmpdir(), "no-such-dir", "plans.json") })).toMatch(
      /PLANS_FILE: cannot read/,
    );
  });
});

describeDatabases("operator plan routes", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let session: string;
  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown, token = session) =>
    request(server.baseUrl, method, path, { token, ...(body === undefined ? {} : { body }) });
  const tokenWith = async (scopes: string[]) =>
    (
      (await call("POST", "/operator/tokens", { name: `t ${scopes.join(" ")}`, scopes })).body as {
        secret: string;
      }
    ).secret;

  beforeAll(async () => {
    server = await startTestServer(target, { OPERATOR_WALLETS: operator.address });
    session = (await signIn(server.baseUrl, operator)).token;
  });
  afterAll(() => server.close());

  it("creates, updates and archives plans; the public list shows only public, live ones", async () => {
    const created = await call("POST", "/operator/plans", pro);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      plan: { id: "pro", price: { amount: "10", days: 30 }, default: false },
    });
    expect((await call("POST", "/operator/plans", pro)).status).toBe(409);
    expect(
      (await call("POST", "/operator/plans", { id: "hidden", name: "Hidden", public: false })).status,
    ).toBe(201);

    const patched = await call("PATCH", "/operator/plans/pro", {
      maxActiveKeys: 5,
      permissions: ["prices:*"],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      plan: { id: "pro", name: "Pro", maxActiveKeys: 5, permissions: ["prices:*"] },
    });
    expect((await call("PATCH", "/operator/plans/nope", { name: "x" })).status).toBe(404);
    expect((await call("PATCH", "/operator/plans/free", { price: { amount: "1", days: 1 } })).status).toBe(
      409,
    );

    const answer = await request(server.baseUrl, "GET", "/plans");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    let listed = answer.body as { plans: PlanView[] };
    expect(listed.plans.map((p) => p.id)).toEqual(["free", "pro"]);

    const archived = await call("DELETE", "/operator/plans/pro");
    expect(archived.status).toBe(200);
    expect((archived.body as { plan: PlanView }).plan.archivedAt).not.toBeNull();
    expect((await call("DELETE", "/operator/plans/pro")).status).toBe(200);
    expect((await call("DELETE", "/operator/plans/free")).status).toBe(409);
    listed = (await request(server.baseUrl, "GET", "/plans")).body as { plans: PlanView[] };
    expect(listed.plans.map((p) => p.id)).toEqual(["free"]);

    const audit = await call("GET", "/operator/events");
    const actions = (audit.body as { events: { action: string }[] }).events.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["plan.created", "plan.updated", "plan.archived"]));
  });

  it("puts a wallet on a plan: its view, its trail (actor operator) and the operator's audit", async () => {
    await call("POST", "/operator/plans", { id: "gold", name: "Gold", maxActiveKeys: 7 });
    const owner = await signIn(server.baseUrl);
    const before = await request(server.baseUrl, "GET", `/wallets/${owner.wallet}`, { token: owner.token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      wallet: owner.wallet,
      plan: { id: "free", paidUntil: null, bounds: { maxActiveKeys: 50, permissions: ["*"] } },
      balance: null,
      suspended: false,
    });
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const set = await call("POST", `/operator/wallets/${owner.wallet}/plan`, {
      planId: "gold",
      until,
      reason: "pilot customer",
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ plan: { id: "gold", paidUntil: until, bounds: { maxActiveKeys: 7 } } });
    const after = await request(server.baseUrl, "GET", `/wallets/${owner.wallet}`, { token: owner.token });
    expect(after.body).toMatchObject({ plan: { id: "gold", name: "Gold", paidUntil: until } });
    expect((await call("GET", `/operator/wallets/${owner.wallet}/plan`)).body).toEqual(after.body);

    const trail = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}/events`, {
      token: owner.token,
    });
    const changed = (trail.body as { events: { action: string; changes: unknown }[] }).events.find(
      (e) => e.action === "wallet.plan_changed",
    );
    expect(changed?.changes).toMatchObject({
      actor: "operator",
      planId: "gold",
      previousPlanId: "free",
      reason: "pilot customer",
    });
    expect(JSON.stringify(trail.body).toLowerCase()).not.toContain(operator.address.toLowerCase());

    expect(
      (await call("POST", `/operator/wallets/${owner.wallet}/plan`, { planId: "nope", reason: "x" })).status,
    ).toBe(404);
    expect(
      (
        await call("POST", `/operator/wallets/${owner.wallet}/plan`, {
          planId: "gold",
          until: "2001-01-01T00:00:00Z",
          reason: "x",
        })
      ).status,
    ).toBe(400);
    // Another wallet's view is the operator's to read, not another wallet's.
    const other = await signIn(server.baseUrl);
    expect(
      (await request(server.baseUrl, "GET", `/wallets/${owner.wallet}`, { token: other.token })).status,
    ).toBe(403);
  });

  it("reads with wallets:read, writes with plans:write, and nothing without an operator", async () => {
    const reader = await tokenWith(["wallets:read"]);
    const writer = await tokenWith(["plans:write"]);
    expect((await call("GET", "/operator/plans", undefined, reader)).status).toBe(200);
    const refused = await call("POST", "/operator/plans", { id: "r", name: "R" }, reader);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "FORBIDDEN",
      reason: "INSUFFICIENT_SCOPE",
      details: { scope: "plans:write" },
    });
    expect((await call("POST", "/operator/plans", { id: "w", name: "W" }, writer)).status).toBe(201);
    expect((await call("GET", "/operator/plans", undefined, writer)).status).toBe(403);
    const wallet = await signIn(server.baseUrl);
    expect((await call("GET", "/operator/plans", undefined, wallet.token)).status).toBe(403);
    expect((await call("POST", "/operator/plans", { id: "z", name: "Z" }, wallet.token)).status).toBe(403);
    expect((await request(server.baseUrl, "GET", "/operator/plans")).status).toBe(401);
  });
});
