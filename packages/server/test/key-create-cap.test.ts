import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { createDatabase } from "../src/db/database.js";
import { apiKeys, keyCredits, keyEvents } from "../src/db/schema/index.js";
import { parseEnv } from "../src/env.js";
import { type DatabaseTarget, describeDatabases } from "./support/databases.js";
import { startTestServer, type TestServer } from "./support/server.js";
import { forTier } from "./support/tier.js";
import { TEST_WEBHOOKS_KEY } from "./support/webhooks-key.js";

const CAP = 7;
// Creates racing for the cap: 20 in `pnpm test`, 40 in the slow tier.
const CREATES = forTier({ fast: 20, slow: 40 });
const FREED = 3;

interface Created {
  apiKey: { id: string };
}

/** `CREATES` concurrent creates for one wallet, every other one with credits, spread over `baseUrls`. */
async function createConcurrently(baseUrls: string[], token: string) {
  const answers = await Promise.all(
    Array.from({ length: CREATES }, (_, i) =>
      request(baseUrls[i % baseUrls.length] ?? "", "POST", "/api-keys", {
        token,
        body: i % 2 === 0 ? { name: `k${i}` } : { name: `k${i}`, credits: { remaining: 5 } },
      }),
    ),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  const ids = answers.flatMap((answer) =>
    answer.status === 201 ? [(answer.body as Created).apiKey.id] : [],
  );
  return { statuses, ids };
}

/** Revokes the first `count` of `ids`. */
async function revokeSome(baseUrl: string, token: string, ids: string[], count: number): Promise<void> {
  for (const id of ids.slice(0, count)) {
    expect((await request(baseUrl, "DELETE", `/api-keys/${id}`, { token })).status).toBe(200);
  }
}

/** What the database holds for the wallet: its keys, their key.created events, the balances of `ids`. */
async function stored(target: DatabaseTarget, wallet: string, ids: string[]) {
  const { db } = target.database;
  const keys = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.wallet, wallet));
  const events = await db
    .select({ keyId: keyEvents.keyId })
    .from(keyEvents)
    .where(and(eq(keyEvents.wallet, wallet), eq(keyEvents.action, "key.created")));
  const balances =
    ids.length === 0 ? [] : await db.select().from(keyCredits).where(inArray(keyCredits.id, ids));
  return {
    keys: keys.map((key) => key.id).sort(),
    events: events.map((event) => event.keyId).sort(),
    balances: balances.map((balance) => balance.id).sort(),
  };
}

describeDatabases("key creation at the cap", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, { MAX_ACTIVE_KEYS_PER_WALLET: String(CAP) });
  });
  afterAll(() => server.close());

  it(`lets exactly ${CAP} of ${CREATES} concurrent creates in, each with its event and balance, and stores nothing for the refused`, async () => {
    const owner = await signIn(server.baseUrl);
    const { statuses, ids } = await createConcurrently([server.baseUrl], owner.token);
    expect(statuses.filter((status) => status === 201)).toHaveLength(CAP);
    expect(statuses.filter((status) => status === 409)).toHaveLength(CREATES - CAP);
    const held = await stored(target, owner.wallet, ids);
    expect(held.keys).toEqual([...ids].sort());
    expect(held.events).toEqual([...ids].sort());
    // Every balance belongs to a key that went in; none was left behind by a refused create.
    const all = await target.database.db.select({ id: keyCredits.id }).from(keyCredits);
    const created = await target.database.db
      .select({ id: apiKeys.id, creditsId: apiKeys.creditsId })
      .from(apiKeys);
    const referenced = new Set(created.map((key) => key.creditsId));
    expect(all.filter((balance) => !referenced.has(balance.id))).toEqual([]);
    expect(held.balances.length).toBeGreaterThan(0);
  });

  it("lets exactly the freed room in when revocations left the wallet's bound at the cap", async () => {
    const owner = await signIn(server.baseUrl);
    const first = await createConcurrently([server.baseUrl], owner.token);
    await revokeSome(server.baseUrl, owner.token, first.ids, FREED);
    const { statuses, ids } = await createConcurrently([server.baseUrl], owner.token);
    expect(statuses.filter((status) => status === 201)).toHaveLength(FREED);
    const held = await stored(target, owner.wallet, ids);
    expect(held.keys).toHaveLength(CAP + FREED);
    expect(held.events).toHaveLength(CAP + FREED);
  });

  it("answers a create with the key exactly as it is stored and listed", async () => {
    const owner = await signIn(server.baseUrl);
    const body = {
      name: "full",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      rateLimit: { limit: 10, windowSeconds: 60 },
      permissions: ["prices:read", "b:*", "a"],
      credits: { remaining: 12, refill: { interval: "daily", amount: 50 } },
      meta: { customer: "c_42", plan: { tier: "pro", seats: 3 }, tags: ["x", "y"], ok: true, n: null },
    };
    const created = await request(server.baseUrl, "POST", "/api-keys", { token: owner.token, body });
    expect(created.status).toBe(201);
    const listed = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    expect((listed.body as { keys: unknown[] }).keys).toEqual([(created.body as { apiKey: unknown }).apiKey]);
    const plain = await request(server.baseUrl, "POST", "/api-keys", {
      token: owner.token,
      body: { name: "plain" },
    });
    const after = await request(server.baseUrl, "GET", `/api-keys/${owner.wallet}`, { token: owner.token });
    expect((after.body as { keys: unknown[] }).keys[0]).toEqual((plain.body as { apiKey: unknown }).apiKey);
  });

  // Two pools need two connections to one server: PostgreSQL only (PGlite is one backend).
  if (target.kind === "postgres") {
    it("holds the cap across two instances with connection pools of their own", async () => {
      // A second process's view of the same database: its own pool, its own connections.
      const database = await createDatabase(target.url, "");
      const env = parseEnv({
        DATABASE_URL: target.url,
        WEBHOOKS_ENCRYPTION_KEY: TEST_WEBHOOKS_KEY,
        LOG_LEVEL: "silent",
        NONCE_RATE_LIMIT: "off",
        MAX_ACTIVE_KEYS_PER_WALLET: String(CAP),
      });
      const other = await createApp(env, { database });
      try {
        const port = await other.listen(0, "127.0.0.1");
        const owner = await signIn(server.baseUrl);
        const { statuses, ids } = await createConcurrently(
          [server.baseUrl, `http://127.0.0.1:${port}`],
          owner.token,
        );
        expect(statuses.filter((status) => status === 201)).toHaveLength(CAP);
        const held = await stored(target, owner.wallet, ids);
        expect(held.keys).toEqual([...ids].sort());
        expect(held.events).toEqual([...ids].sort());
        // Revocations leave the wallet's bound at the cap, so every create now counts exactly, under the
        // lock on the wallet's row: still exactly the room, over both instances.
        await revokeSome(server.baseUrl, owner.token, ids, FREED);
        const again = await createConcurrently([server.baseUrl, `http://127.0.0.1:${port}`], owner.token);
        expect(again.statuses.filter((status) => status === 201)).toHaveLength(FREED);
        expect((await stored(target, owner.wallet, [])).keys).toHaveLength(CAP + FREED);
      } finally {
        await other.close();
        await database.close();
      }
    });
  }
});
