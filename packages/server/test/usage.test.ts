import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { usageHourly } from "../src/db/schema/index.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";
import type { CountsBody } from "./support/tally.js";

interface UsageBody {
  wallet: string;
  from: string;
  to: string;
  granularity: string;
  totals: CountsBody;
  keys: Array<{ keyId: string; name: string } & CountsBody>;
  series: Array<{ start: string } & CountsBody>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.UTC(2026, 0, 10); // a fixed past day: the rows below are all this test's

const counts = (valid: number, rateLimited = 0, expired = 0, revoked = 0): CountsBody => ({
  requests: valid + rateLimited + expired + revoked,
  valid,
  rateLimited,
  expired,
  revoked,
  insufficientPermissions: 0,
  usageExceeded: 0,
  ipNotAllowed: 0,
  walletSuspended: 0,
});

describeDatabases("usage statistics", (target) => {
  let server: TestServer;
  let owner: { token: string; wallet: string };
  let stranger: { token: string; wallet: string };
  let alpha: string;
  let beta: string;
  let strangersKey: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    [owner, stranger] = await Promise.all([signIn(server.baseUrl), signIn(server.baseUrl)]);
    alpha = (await createKeyOver(server.baseUrl, owner.token, { name: "alpha" })).apiKey.id;
    beta = (await createKeyOver(server.baseUrl, owner.token, { name: "beta" })).apiKey.id;
    strangersKey = (await createKeyOver(server.baseUrl, stranger.token, { name: "theirs" })).apiKey.id;
    const row = (keyId: string, wallet: string, hourMs: number, outcome: string, count: number) => ({
      keyId,
      wallet,
      hour: new Date(hourMs),
      outcome,
      count,
    });
    await target.database.db.insert(usageHourly).values([
      row(alpha, owner.wallet, BASE + 1 * HOUR, "VALID", 5),
      row(alpha, owner.wallet, BASE + 1 * HOUR, "RATE_LIMITED", 2),
      row(alpha, owner.wallet, BASE + 23 * HOUR, "VALID", 1),
      row(beta, owner.wallet, BASE + DAY + 3 * HOUR, "EXPIRED", 4),
      row(beta, owner.wallet, BASE + 2 * DAY + 5 * HOUR, "REVOKED", 3),
      row(alpha, owner.wallet, BASE - HOUR, "VALID", 100), // before the range
      row(strangersKey, stranger.wallet, BASE + HOUR, "VALID", 7),
    ]);
  });
  afterAll(() => server.close());

  const get = (query: string, session = owner, wallet = owner.wallet) =>
    request(server.baseUrl, "GET", `/api-keys/${wallet}/usage?${query}`, { token: session.token });
  const iso = (ms: number) => new Date(ms).toISOString();

  it("answers daily totals, per-key rows and a zero-filled series over REST", async () => {
    const { status, body } = await get(`from=${iso(BASE)}&to=${iso(BASE + 4 * DAY)}&granularity=day`);
    expect(status).toBe(200);
    const usage = body as UsageBody;
    expect(usage).toMatchObject({
      wallet: owner.wallet,
      from: iso(BASE),
      to: iso(BASE + 4 * DAY),
      granularity: "day",
    });
    expect(usage.totals).toEqual(counts(6, 2, 4, 3));
    // Most requests first.
    expect(usage.keys).toEqual([
      { keyId: alpha, name: "alpha", ...counts(6, 2) },
      { keyId: beta, name: "beta", ...counts(0, 0, 4, 3) },
    ]);
    expect(usage.series).toEqual([
      { start: iso(BASE), ...counts(6, 2) },
      { start: iso(BASE + DAY), ...counts(0, 0, 4) },
      { start: iso(BASE + 2 * DAY), ...counts(0, 0, 0, 3) },
      { start: iso(BASE + 3 * DAY), ...counts(0) },
    ]);
  });

  it("answers hourly buckets, one per hour, zero-filled", async () => {
    const { body } = await get(`from=${iso(BASE)}&to=${iso(BASE + DAY)}&granularity=hour`);
    const usage = body as UsageBody;
    expect(usage.series).toHaveLength(24);
    expect(usage.series.map((b) => b.start)).toEqual(
      Array.from({ length: 24 }, (_, i) => iso(BASE + i * HOUR)),
    );
    expect(usage.series[1]).toEqual({ start: iso(BASE + HOUR), ...counts(5, 2) });
    expect(usage.series[23]).toEqual({ start: iso(BASE + 23 * HOUR), ...counts(1) });
    expect(usage.series.filter((b) => b.requests === 0)).toHaveLength(22);
  });

  it("widens an unaligned range to whole UTC buckets and says so", async () => {
    const { body } = await get(
      `from=${iso(BASE + 90 * 60_000)}&to=${iso(BASE + DAY + 60_000)}&granularity=day`,
    );
    const usage = body as UsageBody;
    expect([usage.from, usage.to, usage.series.length]).toEqual([iso(BASE), iso(BASE + 2 * DAY), 2]);
  });

  it("filters to one key, listing it even without usage", async () => {
    const filtered = (await get(`from=${iso(BASE)}&to=${iso(BASE + DAY)}&keyId=${beta}`)).body as UsageBody;
    expect(filtered.totals).toEqual(counts(0));
    expect(filtered.keys).toEqual([{ keyId: beta, name: "beta", ...counts(0) }]);
    const alphaOnly = (await get(`from=${iso(BASE)}&to=${iso(BASE + 3 * DAY)}&keyId=${alpha}`))
      .body as UsageBody;
    expect(alphaOnly.totals).toEqual(counts(6, 2));
  });

  it("defaults to the last 30 days by day", async () => {
    const { status, body } = await get("");
    expect(status).toBe(200);
    const usage = body as UsageBody;
    expect(usage.granularity).toBe("day");
    expect(usage.series).toHaveLength(31);
    expect(new Date(usage.to).getTime()).toBeGreaterThan(Date.now());
  });

  it("serves the same over tRPC with Dates", async () => {
    const usage = await trpcClient(server.baseUrl, owner.token).usage.get.query({
      wallet: owner.wallet.toLowerCase(),
      from: new Date(BASE),
      to: new Date(BASE + 4 * DAY),
      granularity: "day",
    });
    expect(usage.totals).toEqual(counts(6, 2, 4, 3));
    expect(usage.series[0]?.start).toEqual(new Date(BASE));
    expect(usage.from).toBeInstanceOf(Date);
  });

  it("refuses another wallet's usage (403) and another wallet's key (404, like a missing one)", async () => {
    const range = `from=${iso(BASE)}&to=${iso(BASE + DAY)}`;
    expect(await get(range, owner, stranger.wallet)).toMatchObject({
      status: 403,
      body: { code: "FORBIDDEN" },
    });
    expect(await get(`${range}&keyId=${strangersKey}`)).toMatchObject({
      status: 404,
      body: { code: "NOT_FOUND" },
    });
    expect(await get(`${range}&keyId=key_0000000000000000000000`)).toMatchObject({
      status: 404,
      body: { code: "NOT_FOUND" },
    });
    const anonymous = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}/usage`);
    expect(anonymous.status).toBe(401);
  });

  it("rejects bad and too-large ranges with 400", async () => {
    const cases = [
      `from=${iso(BASE + DAY)}&to=${iso(BASE)}`, // reversed
      `from=${iso(BASE)}&to=${iso(BASE)}`, // empty
      `from=${iso(BASE)}&to=${iso(BASE + 367 * DAY)}`, // over 366 days
      `from=${iso(BASE)}&to=${iso(BASE + 90 * DAY)}&granularity=hour`, // 2,160 buckets
      "from=yesterday",
      "to=2026-13-01T00:00:00Z",
      "granularity=week",
      "keyId=not-a-key",
      "from=9999-12-30T00:00:00.000Z&to=9999-12-31T23:59:58.994Z", // widens into year 10000
    ];
    for (const query of cases) {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ code: "BAD_REQUEST", message: expect.any(String) });
    }
    const { body } = await get(`from=${iso(BASE)}&to=${iso(BASE + 90 * DAY)}&granularity=hour`);
    expect((body as { message: string }).message).toMatch(/2000|2,000/);
  });
});
