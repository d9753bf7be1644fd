import { signIn } from "@keyport/test-support/siwe";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, keyEvents } from "../src/db/schema/index.js";
import { hashKey, newKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { verifyOver } from "./support/keys.js";
import { createKeysFor, postReport, reportBody, signedBy } from "./support/leak-reports.js";
import {
  type KeysEndpointStandIn,
  makeScannerKey,
  signReport,
  startKeysEndpoint,
} from "./support/scanner-stand-in.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const URL_OF_LEAK = "https://github.com/octocat/hello/blob/abc123/config.js";

describeDatabases("GitHub secret scanning reports", (target) => {
  const scanner = makeScannerKey();
  const redisEnv = TEST_REDIS_URL ? sharedRedisEnv(TEST_REDIS_URL) : {};
  let endpoint: KeysEndpointStandIn;
  let a: TestServer;
  let b: TestServer;
  let wallet: string;

  beforeAll(async () => {
    endpoint = await startKeysEndpoint([scanner]);
    const env = {
      ...redisEnv,
      GITHUB_SECRET_SCANNING_KEYS_URL: endpoint.url,
      MAX_ACTIVE_KEYS_PER_WALLET: "1000",
    };
    [a, b] = await Promise.all([startTestServer(target, env), startTestServer(target, env)]);
    wallet = (await signIn(a.baseUrl)).wallet;
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await endpoint?.close();
    await removeRedisKeys(redisEnv);
  });

  const createKeys = (count: number, name: string) => createKeysFor(a.app, wallet, count, name);

  const leakEvents = (ids: string[]) =>
    target.database.db
      .select()
      .from(keyEvents)
      .where(and(eq(keyEvents.action, "key.leaked"), inArray(keyEvents.keyId, ids)));

  it("revokes the live keys of a signed report at once on both instances, records each leak once, and labels every token", async () => {
    const live = await createKeys(3, "live");
    const revoked = await createKeys(2, "revoked");
    const revokedAt = new Date(Date.now() - 60_000);
    await target.database.db
      .update(apiKeys)
      .set({ revokedAt })
      .where(
        inArray(
          apiKeys.id,
          revoked.map((k) => k.id),
        ),
      );
    for (const server of [a, b])
      for (const k of live) expect((await verifyOver(server.baseUrl, k.key)).code).toBe("VALID");
    const tokens = [
      ...live.map((k) => k.key),
      ...revoked.map((k) => k.key),
      newKey("kp").key,
      "kp_malformed",
      "",
    ];
    const body = reportBody(tokens, URL_OF_LEAK);

    const answer = await postReport(a, body, signedBy(scanner, body));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(answer.body).toEqual(
      tokens.map((token, i) => ({
        token_hash: hashKey(token),
        token_type: "keyport_api_key",
        label: i < 5 ? "true_positive" : "false_positive",
      })),
    );
    for (const k of live) expect((await verifyOver(a.baseUrl, k.key)).code).toBe("REVOKED");
    await expect
      .poll(
        async () => (await Promise.all(live.map((k) => verifyOver(b.baseUrl, k.key)))).map((v) => v.code),
        {
          timeout: 1_000,
          interval: 50,
        },
      )
      .toEqual(["REVOKED", "REVOKED", "REVOKED"]);

    const rows = await target.database.db
      .select()
      .from(apiKeys)
      .where(
        inArray(
          apiKeys.id,
          [...live, ...revoked].map((k) => k.id),
        ),
      );
    for (const row of rows) {
      expect(row).toMatchObject({ leakUrl: URL_OF_LEAK, leakSource: "github:content" });
      // A key already revoked keeps its revocation time; a live one is revoked at the report.
      expect(row.revokedAt).toEqual(revoked.some((k) => k.id === row.id) ? revokedAt : row.leakReportedAt);
    }
    const events = await leakEvents([...live, ...revoked].map((k) => k.id));
    expect(events).toHaveLength(5);
    for (const event of events) {
      expect(event.changes).toEqual({
        url: URL_OF_LEAK,
        source: "github:content",
        revokedAt: expect.any(String),
      });
    }
    expect(JSON.stringify(events)).not.toContain("kp_");

    // The key as the API shows it: revoked, with its leak.
    const session = await signIn(a.baseUrl);
    const listed = await a.app.services.procedures.keys.list({
      wallet,
      status: "revoked",
      limit: 10,
      cursor: null,
      now: new Date(),
    });
    expect(session.wallet).not.toBe(wallet);
    expect(listed.keys.find((key) => key.id === live[0]?.id)).toMatchObject({
      status: "revoked",
      leak: { url: URL_OF_LEAK, source: "github:content", reportedAt: expect.any(Date) },
    });

    // The same body again: the same answer, nothing revoked or recorded twice.
    const replay = await postReport(a, body, signedBy(scanner, body));
    expect(replay.body).toEqual(answer.body);
    expect(await leakEvents([...live, ...revoked].map((k) => k.id))).toHaveLength(5);
  });

  it("refuses with 401, revoking nothing, a wrong signature, an unknown identifier, a body changed after signing, or no signature", async () => {
    const [victim] = await createKeys(1, "victim");
    if (victim === undefined) throw new Error("no key");
    const body = JSON.stringify([
      { token: victim.key, type: "keyport_api_key", url: URL_OF_LEAK, source: "content" },
    ]);
    const impostor = makeScannerKey();
    const attempts: Record<string, string>[] = [
      {
        "github-public-key-identifier": scanner.identifier,
        "github-public-key-signature": signReport(impostor, body),
      },
      signedBy(impostor, body),
      {
        "github-public-key-identifier": scanner.identifier,
        "github-public-key-signature": "bm90IGEgc2lnbmF0dXJl",
      },
      { "github-public-key-identifier": scanner.identifier },
      {},
    ];
    for (const headers of attempts) {
      const answer = await postReport(a, body, headers);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        code: "UNAUTHORIZED",
        message: "The report's signature does not verify",
      });
    }
    const original = JSON.stringify([
      { token: "kp_nothing", type: "keyport_api_key", url: URL_OF_LEAK, source: "content" },
    ]);
    expect((await postReport(a, body, signedBy(scanner, original))).status).toBe(401);
    expect((await verifyOver(a.baseUrl, victim.key)).code).toBe("VALID");
    expect(await leakEvents([victim.id])).toHaveLength(0);
  });

  it("keeps verifying with the cached keys while the keys endpoint is down", async () => {
    const [victim] = await createKeys(1, "cached");
    if (victim === undefined) throw new Error("no key");
    endpoint.setDown(true);
    try {
      const body = JSON.stringify([
        { token: victim.key, type: "keyport_api_key", url: URL_OF_LEAK, source: "commit" },
      ]);
      // `a` fetched the keys for an earlier report; `b` never has, and cannot now.
      const answer = await postReport(a, body, signedBy(scanner, body));
      expect(answer.status).toBe(200);
      await expect
        .poll(async () => (await verifyOver(b.baseUrl, victim.key)).code, { timeout: 1_000 })
        .toBe("REVOKED");
      expect((await postReport(b, body, signedBy(scanner, body))).status).toBe(503);
    } finally {
      endpoint.setDown(false);
    }
  });

  it("answers 400 for a body that is not a report or has more than 1,000 tokens, and 413 past 2 MiB", async () => {
    for (const body of [
      "not json",
      '{"token":"x"}',
      JSON.stringify(Array.from({ length: 1_001 }, () => ({ token: "x", type: "t" }))),
    ]) {
      const answer = await postReport(a, body, signedBy(scanner, body));
      expect(answer.status).toBe(400);
    }
    const big = JSON.stringify([{ token: "x".repeat(10), type: "t", url: "u".repeat(3 * 1024 * 1024) }]);
    expect((await postReport(a, big, signedBy(scanner, big))).status).toBe(413);
    // Past the server's usual 64 KiB and under 2 MiB: read and answered.
    const wide = JSON.stringify(
      Array.from({ length: 900 }, () => ({ token: "t".repeat(100), type: "t", url: URL_OF_LEAK })),
    );
    expect(wide.length).toBeGreaterThan(64 * 1024);
    expect((await postReport(a, wide, signedBy(scanner, wide))).status).toBe(200);
  });
});

describeDatabases("GitHub reports while the keys were never fetched", (target) => {
  const scanner = makeScannerKey();
  let endpoint: KeysEndpointStandIn;
  let server: TestServer;

  beforeAll(async () => {
    endpoint = await startKeysEndpoint([scanner]);
    endpoint.setDown(true);
    server = await startTestServer(target, { GITHUB_SECRET_SCANNING_KEYS_URL: endpoint.url });
  });
  afterAll(async () => {
    await server?.close();
    await endpoint?.close();
  });

  it("answers 503 (retry later) when the keys endpoint has never answered, and fetches at most once a minute", async () => {
    const body = JSON.stringify([
      { token: "kp_x", type: "keyport_api_key", url: URL_OF_LEAK, source: "content" },
    ]);
    const first = await postReport(server, body, signedBy(scanner, body));
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect((await postReport(server, body, signedBy(scanner, body))).status).toBe(503);
    expect(endpoint.fetches()).toBe(1);
  });
});
