import { signIn } from "@keyport/test-support/siwe";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, keyEvents } from "../src/db/schema/index.js";
import { hashKey, newKey } from "../src/keys/secret.js";
import { describeDatabases } from "./support/databases.js";
import { verifyOver } from "./support/keys.js";
import { createKeysFor, type Feedback, postReport, reportBody, signedBy } from "./support/leak-reports.js";
import { type KeysEndpointStandIn, makeScannerKey, startKeysEndpoint } from "./support/scanner-stand-in.js";
import { removeRedisKeys, sharedRedisEnv, startTestServer, type TestServer } from "./support/server.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const URL_OF_LEAK = "https://github.com/octocat/hello/blob/abc123/config.js";

// The slow tier (vitest.config.ts): 200 keys made and 1,200 verifications before the report.
describeDatabases("a GitHub report of 1,000 tokens", (target) => {
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

  it("revokes exactly the live keys among live, revoked, unknown and malformed tokens, on both instances within 1 s", async () => {
    const live = await createKeysFor(a.app, wallet, 150, "live");
    const revoked = await createKeysFor(a.app, wallet, 50, "revoked");
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
    // Every live key is cached as VALID on both instances before the report.
    for (const server of [a, b]) {
      const answers = await Promise.all(live.map((k) => verifyOver(server.baseUrl, k.key)));
      expect(answers.every((answer) => answer.code === "VALID")).toBe(true);
    }
    const unknown = Array.from({ length: 300 }, () => newKey("kp").key);
    const malformed = Array.from({ length: 500 }, (_, i) => `kp_not-a-key-${i}`);
    const tokens = [...live.map((k) => k.key), ...revoked.map((k) => k.key), ...unknown, ...malformed];
    expect(tokens).toHaveLength(1_000);
    const body = reportBody(tokens, URL_OF_LEAK);

    const started = performance.now();
    const answer = await postReport(a, body, signedBy(scanner, body));
    const elapsedMs = performance.now() - started;
    expect(answer.status).toBe(200);
    // GitHub waits 30 s; the report is one lookup and one revocation, well within it even on a busy machine.
    expect(elapsedMs).toBeLessThan(10_000);
    const feedback = answer.body as Feedback[];
    expect(feedback.map((entry) => entry.label)).toEqual(
      tokens.map((_, i) => (i < 200 ? "true_positive" : "false_positive")),
    );
    expect(feedback.map((entry) => entry.token_hash)).toEqual(tokens.map(hashKey));

    const revokedEverywhere = async () => {
      const answers = await Promise.all(
        [a, b].flatMap((server) => live.map((k) => verifyOver(server.baseUrl, k.key))),
      );
      return answers.filter((v) => v.code !== "REVOKED").length;
    };
    await expect.poll(revokedEverywhere, { timeout: 1_000, interval: 100 }).toBe(0);
    // Nothing else changed: unknown tokens stay unknown.
    expect((await verifyOver(b.baseUrl, unknown[0] ?? "")).code).toBe("NOT_FOUND");

    const ids = [...live, ...revoked].map((k) => k.id);
    const rows = await target.database.db.select().from(apiKeys).where(inArray(apiKeys.id, ids));
    expect(
      rows
        .filter((row) => row.revokedAt?.getTime() === revokedAt.getTime())
        .map((row) => row.id)
        .sort(),
    ).toEqual(revoked.map((k) => k.id).sort());
    const leaked = () =>
      target.database.db
        .select()
        .from(keyEvents)
        .where(and(eq(keyEvents.action, "key.leaked"), inArray(keyEvents.keyId, ids)));
    expect(await leaked()).toHaveLength(200);

    const replay = await postReport(b, body, signedBy(scanner, body));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(feedback);
    expect(await leaked()).toHaveLength(200);
  });
});
