import { randomBytes } from "node:crypto";
import { request } from "@keyport/test-support/http";
import { newAccount, signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { payments } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";

// The operator's revenue (docs/operator.md#payments): settled payments listed, summed per day and
// (network, asset), and exported as CSV. Payments are recorded rows here (the top-up's own tests pay on
// a chain); only settled and credited ones count.

const BASE = "eip155:8453";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

interface Payment {
  id: string;
  settledAt: string;
  status: string;
  wallet: string;
  amount: string;
  baseUnits: string;
  credits: number;
  transaction: string | null;
}

describeDatabases("operator payments", (target) => {
  const operator = newAccount();
  let server: TestServer;
  let operatorSession: string;
  const wallets = [newAccount().address, newAccount().address];
  const day = (n: number, hour = 12) => new Date(Date.UTC(2026, 10, n, hour));

  const record = async (values: {
    wallet: string;
    at: Date;
    amount: string;
    status?: "pending" | "settled" | "credited" | "failed";
    network?: string;
    transaction?: string;
    plan?: { id: string; days: number };
  }) => {
    const units = BigInt(Math.round(Number(values.amount) * 1e6));
    await target.database.db.insert(payments).values({
      network: values.network ?? BASE,
      asset: USDC,
      payer: newAccount().address.toLowerCase(),
      nonce: `0x${randomBytes(32).toString("hex")}`,
      signatureHash: randomBytes(32).toString("hex"),
      ...(values.plan === undefined
        ? { keyId: `key_${randomBytes(12).toString("hex")}` }
        : { kind: "plan" as const, keyId: null, planId: values.plan.id, days: values.plan.days }),
      creditsId: `key_${randomBytes(12).toString("hex")}`,
      wallet: values.wallet,
      amount: values.amount,
      baseUnits: units.toString(),
      credits: Number(units / 1000n),
      validBefore: new Date(values.at.getTime() + 3_600_000),
      status: values.status ?? "credited",
      transaction: values.transaction ?? `0x${randomBytes(32).toString("hex")}`,
      lockedUntil: values.at,
      createdAt: values.at,
      updatedAt: values.at,
    });
  };

  beforeAll(async () => {
    server = await startTestServer(target, { OPERATOR_WALLETS: operator.address });
    operatorSession = (await signIn(server.baseUrl, operator)).token;
    const [a, b] = wallets as [string, string];
    await record({ wallet: a, at: day(3, 9), amount: "1.5" });
    await record({ wallet: a, at: day(3, 18), amount: "2" });
    await record({ wallet: b, at: day(4), amount: "0.000001", status: "settled" });
    await record({ wallet: b, at: day(4), amount: "10", network: "eip155:84532" });
    // Neither counts: not settled.
    await record({ wallet: a, at: day(4), amount: "99", status: "pending" });
    await record({ wallet: b, at: day(4), amount: "77", status: "failed" });
    // A plan purchase: no key; its plan id is one a spreadsheet would run, so the CSV defuses it.
    await record({ wallet: a, at: day(6), amount: "5", plan: { id: "=pro", days: 30 } });
  });
  afterAll(() => server.close());

  const range = `from=${day(1, 0).toISOString()}&to=${day(10, 0).toISOString()}`;
  const get = (path: string, token: string = operatorSession) =>
    request(server.baseUrl, "GET", path, { token });

  it("lists settled and credited payments in the range, newest first, in cursor pages", async () => {
    const seen: Payment[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor === null ? "" : `&cursor=${cursor}`;
      const answer = await get(`/operator/payments?${range}&limit=3${suffix}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const page = answer.body as { payments: Payment[]; nextCursor: string | null };
      seen.push(...page.payments);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen.map((p) => p.amount).sort()).toEqual(["0.000001", "1.5", "10", "2", "5"]);
    const times = seen.map((p) => p.settledAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(seen.find((p) => p.amount === "1.5")).toMatchObject({
      status: "credited",
      kind: "top_up",
      wallet: wallets[0],
      baseUnits: "1500000",
      credits: 1500,
      planId: null,
      days: null,
    });
    expect(seen.find((p) => p.amount === "5")).toMatchObject({
      kind: "plan",
      keyId: null,
      planId: "=pro",
      days: 30,
    });
    const plans = await get(`/operator/payments?${range}&kind=plan`);
    expect((plans.body as { payments: Payment[] }).payments.map((p) => p.amount)).toEqual(["5"]);
    const one = await get(`/operator/payments?${range}&wallet=${wallets[0]?.toLowerCase()}`);
    expect((one.body as { payments: Payment[] }).payments.map((p) => p.amount)).toEqual(["5", "2", "1.5"]);
    const outside = await get(
      `/operator/payments?from=${day(7, 0).toISOString()}&to=${day(10, 0).toISOString()}`,
    );
    expect((outside.body as { payments: Payment[] }).payments).toEqual([]);
  });

  it("sums exactly per (network, asset), over the range and per UTC day", async () => {
    const answer = await get(`/operator/payments/totals?${range}&kind=top_up`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      totals: [
        { network: BASE, asset: USDC, baseUnits: "3500001", payments: 3, credits: 3500 },
        { network: "eip155:84532", asset: USDC, baseUnits: "10000000", payments: 1, credits: 10000 },
      ],
      days: [
        { day: "2026-11-03", network: BASE, baseUnits: "3500000", payments: 2 },
        { day: "2026-11-04", network: BASE, baseUnits: "1", payments: 1 },
        { day: "2026-11-04", network: "eip155:84532", baseUnits: "10000000", payments: 1 },
      ],
    });
    const all = await get(`/operator/payments/totals?${range}`);
    expect(all.body).toMatchObject({
      totals: [{ network: BASE, baseUnits: "8500001", payments: 4 }, { network: "eip155:84532" }],
    });
    const plans = await get(`/operator/payments/totals?${range}&kind=plan`);
    expect(plans.body).toMatchObject({
      totals: [{ network: BASE, baseUnits: "5000000", payments: 1 }],
      days: [{ day: "2026-11-06", payments: 1 }],
    });
  });

  it("keeps a top-up's key: only a plan payment may have none", async () => {
    await expect(
      target.database.db.insert(payments).values({
        network: BASE,
        asset: USDC,
        payer: newAccount().address.toLowerCase(),
        nonce: `0x${randomBytes(32).toString("hex")}`,
        signatureHash: randomBytes(32).toString("hex"),
        keyId: null,
        creditsId: "c",
        wallet: wallets[0] ?? "",
        amount: "1",
        baseUnits: "1000000",
        credits: 1000,
        validBefore: day(9),
        status: "pending",
        lockedUntil: day(9),
      }),
    ).rejects.toThrow();
  });

  it("exports the same rows as CSV, oldest first, with the documented columns", async () => {
    const answer = await get(`/operator/payments.csv?${range}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toBe(
      'attachment; filename="keyport-payments-2026-11-01-2026-11-10.csv"',
    );
    expect(typeof answer.body).toBe("string");
    const lines = String(answer.body).split("\r\n");
    expect(lines[0]).toBe(
      "settled_at,kind,wallet,key_id,payer,amount,asset,network,credits,plan_id,days,transaction",
    );
    expect(lines.at(-1)).toBe("");
    const rows = lines.slice(1, -1).map((line) => line.split(","));
    expect(rows).toHaveLength(5);
    expect(rows[0]?.slice(0, 3)).toEqual([day(3, 9).toISOString(), "top_up", wallets[0]]);
    expect(rows[0]?.[3]).toMatch(/^key_/);
    expect(rows[0]?.slice(9, 11)).toEqual(["", ""]);
    expect(rows.map((row) => row[5])).toEqual(["1.5", "2", "0.000001", "10", "5"]);
    // The plan purchase: no key, its plan and days, and the formula-like plan id prefixed with '.
    expect(rows[4]?.slice(1, 4)).toEqual(["plan", wallets[0], ""]);
    expect(rows[4]?.slice(9, 11)).toEqual(["'=pro", "30"]);
    const plans = String((await get(`/operator/payments.csv?${range}&kind=plan`)).body).split("\r\n");
    expect(plans).toHaveLength(3);
  });

  it("refuses a bad range with 400, and needs payments:read", async () => {
    for (const query of [
      `from=${day(5).toISOString()}&to=${day(4).toISOString()}`,
      `from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      "from=yesterday",
      "kind=gift",
    ]) {
      for (const path of ["/operator/payments", "/operator/payments/totals", "/operator/payments.csv"]) {
        const refused = await get(`${path}?${query}`);
        expect(refused.status, `${path}?${query}`).toBe(400);
        expect(refused.body).toMatchObject({ code: "BAD_REQUEST" });
      }
    }
    const created = await request(server.baseUrl, "POST", "/operator/tokens", {
      token: operatorSession,
      body: { name: "wallets", scopes: ["wallets:read"] },
    });
    const reader = (created.body as { secret: string }).secret;
    for (const path of ["/operator/payments", "/operator/payments/totals", "/operator/payments.csv"]) {
      const refused = await get(path, reader);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        reason: "INSUFFICIENT_SCOPE",
        details: { scope: "payments:read" },
      });
      expect((await get(path, (await signIn(server.baseUrl)).token)).status).toBe(403);
      expect((await request(server.baseUrl, "GET", path)).status).toBe(401);
    }
  });
});
