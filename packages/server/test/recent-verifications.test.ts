import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyVerifications } from "../src/db/schema/index.js";
import { hashKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { createKeyOver, trpcClient, verifyOver } from "./support/keys.js";
import { startTestServer, type TestServer } from "./support/server.js";

interface RecentBody {
  verifications: Array<{
    at: string;
    outcome: string;
    permissions: string[];
    cost: number;
    ip: string | null;
    refusedBy: { name: string; scope: string } | null;
  }>;
}

type Session = { token: string; wallet: string };

describeDatabases("recent verifications", (target) => {
  let server: TestServer;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    // Only the test's flushes write (no timer racing a busy machine), so "not yet" is checkable.
    server = await startTestServer(target, { USAGE_FLUSH_INTERVAL_MS: "3600000" });
    [owner, stranger] = await Promise.all([signIn(server.baseUrl), signIn(server.baseUrl)]);
  });
  afterAll(() => server.close());

  // The app's own usage buffer writes them: its flush is the only writer.
  const flush = () => server.app.services.verification.usage.flush();
  const recent = (id: string, session: Session = owner) =>
    request(server.baseUrl, "GET", `/api-keys/${id}/verifications`, { token: session.token });
  const recentOf = async (id: string) => {
    const { status, body } = await recent(id);
    expect(status).toBe(200);
    return (body as RecentBody).verifications;
  };
  const storedRows = (id: string) =>
    target.database.db.select().from(keyVerifications).where(eq(keyVerifications.keyId, id));

  it("lists each outcome, newest first, with the permissions and cost asked and the client ip when given", async () => {
    const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, {
      name: "outcomes",
      permissions: ["prices:read"],
      rateLimit: { limit: 3, windowSeconds: 3_600 },
      credits: { remaining: 5 },
    });
    const asks = [
      { ask: { ip: "203.0.113.7", permissions: ["prices:read"], cost: 2 }, code: "VALID" },
      { ask: { permissions: ["admin:write"] }, code: "INSUFFICIENT_PERMISSIONS" },
      { ask: { ip: "2001:db8::1", cost: 4 }, code: "USAGE_EXCEEDED" },
      { ask: {}, code: "VALID" },
      { ask: { ip: "198.51.100.2" }, code: "VALID" },
      { ask: {}, code: "RATE_LIMITED" },
    ];
    for (const { ask, code } of asks) expect((await verifyOver(server.baseUrl, key, ask)).code).toBe(code);
    // Nothing is written on the verification's path: only the flush writes.
    expect(await recentOf(apiKey.id)).toEqual([]);

    await flush();
    const listed = await recentOf(apiKey.id);
    expect(listed.map(({ at: _at, ...rest }) => rest)).toEqual([
      {
        outcome: "RATE_LIMITED",
        permissions: [],
        cost: 1,
        ip: null,
        refusedBy: { name: "default", scope: "key" },
      },
      { outcome: "VALID", permissions: [], cost: 1, ip: "198.51.100.2", refusedBy: null },
      { outcome: "VALID", permissions: [], cost: 1, ip: null, refusedBy: null },
      { outcome: "USAGE_EXCEEDED", permissions: [], cost: 4, ip: "2001:db8::1", refusedBy: null },
      {
        outcome: "INSUFFICIENT_PERMISSIONS",
        permissions: ["admin:write"],
        cost: 1,
        ip: null,
        refusedBy: null,
      },
      { outcome: "VALID", permissions: ["prices:read"], cost: 2, ip: "203.0.113.7", refusedBy: null },
    ]);
    const times = listed.map((row) => Date.parse(row.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Date.now() - (times[0] ?? 0)).toBeLessThan(60_000);

    // tRPC answers the same rows, with Dates.
    const overTrpc = await trpcClient(server.baseUrl, owner.token).keys.verifications.query({
      id: apiKey.id,
    });
    expect(overTrpc.verifications.map((row) => row.at.toISOString())).toEqual(listed.map((row) => row.at));
  });

  it("leaves Last used alone for refused attempts, which are still listed, and sets it on a valid one", async () => {
    const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, {
      name: "leaked?",
      permissions: ["prices:read"],
    });
    const lastUsedAt = async () => {
      const { status, body } = await request(server.baseUrl, "GET", `/api-keys/${apiKey.id}`, {
        token: owner.token,
      });
      expect(status).toBe(200);
      return (body as { apiKey: { lastUsedAt: string | null } }).apiKey.lastUsedAt;
    };
    expect((await verifyOver(server.baseUrl, key, { permissions: ["admin:write"] })).code).toBe(
      "INSUFFICIENT_PERMISSIONS",
    );
    await flush();
    expect((await recentOf(apiKey.id)).map((row) => row.outcome)).toEqual(["INSUFFICIENT_PERMISSIONS"]);
    expect(await lastUsedAt()).toBeNull();

    expect((await verifyOver(server.baseUrl, key, {})).code).toBe("VALID");
    await flush();
    const [valid] = await recentOf(apiKey.id);
    expect(await lastUsedAt()).toBe(valid?.at);
  });

  it("keeps only the newest 50 after 120 verifications, across flushes", async () => {
    const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "busy" });
    // Each verification's cost tells it apart (a key without credits records the cost asked, spending nothing).
    for (let i = 0; i < 120; i++) {
      await verifyOver(server.baseUrl, key, { cost: i });
      if (i === 59) await flush();
    }
    await flush();
    const listed = await recentOf(apiKey.id);
    expect(listed.map((row) => row.cost)).toEqual(Array.from({ length: 50 }, (_, i) => 119 - i));
    expect(listed.every((row) => row.outcome === "VALID")).toBe(true);
    const [stored] = await target.database.db
      .select({ rows: count() })
      .from(keyVerifications)
      .where(eq(keyVerifications.keyId, apiKey.id));
    expect(stored?.rows).toBe(50);
  });

  it("stores no key material: no column holds the secret or its hash", async () => {
    const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "secretive" });
    await verifyOver(server.baseUrl, key, { ip: "192.0.2.1", permissions: ["a:b"] });
    await flush();
    const rows = await storedRows(apiKey.id);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(hashKey(key));
    const answer = JSON.stringify((await recent(apiKey.id)).body);
    expect(answer).not.toContain(key);
    expect(answer).not.toContain(hashKey(key));
  });

  it("records nothing for an unknown key", async () => {
    const before = await target.database.db.select({ rows: count() }).from(keyVerifications);
    const { key } = await createKeyOver(server.baseUrl, owner.token, { name: "kept" });
    const unknown = `${key.slice(0, -4)}${key.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect((await verifyOver(server.baseUrl, unknown)).code).toBe("NOT_FOUND");
    await flush();
    const after = await target.database.db.select({ rows: count() }).from(keyVerifications);
    expect(after).toEqual(before);
  });

  it("answers 404 for another wallet's key or an unknown id, and 401 without a session", async () => {
    const { key, apiKey } = await createKeyOver(server.baseUrl, owner.token, { name: "mine" });
    await verifyOver(server.baseUrl, key);
    await flush();
    const theirs = await recent(apiKey.id, stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: "NOT_FOUND", message: "No such key" });
    expect(JSON.stringify(theirs.body)).not.toContain("VALID");
    expect((await recent("key_0000000000000000unknown")).status).toBe(404);
    expect((await request(server.baseUrl, "GET", `/api-keys/${apiKey.id}/verifications`)).status).toBe(401);
    await expect(
      trpcClient(server.baseUrl, stranger.token).keys.verifications.query({ id: apiKey.id }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    expect((await recent("not-a-key-id")).status).toBe(400);
  });

  it("records none with USAGE_RECORDING=off", async () => {
    const off = await startTestServer(target, { USAGE_RECORDING: "off" });
    try {
      const { key, apiKey } = await createKeyOver(off.baseUrl, owner.token, { name: "unrecorded" });
      for (let i = 0; i < 3; i++) expect((await verifyOver(off.baseUrl, key)).code).toBe("VALID");
      await off.app.services.verification.usage.flush();
      const { status, body } = await request(off.baseUrl, "GET", `/api-keys/${apiKey.id}/verifications`, {
        token: owner.token,
      });
      expect(status).toBe(200);
      expect((body as RecentBody).verifications).toEqual([]);
      expect(await storedRows(apiKey.id)).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
