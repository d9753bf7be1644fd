import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clearOfWindowEdge } from "@keyport/test-support/clock";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { describe, expect, it } from "vitest";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { createKeyOver, type VerificationBody, verifyOver } from "./support/keys.js";
import { createLoadClient } from "./support/load.js";
import { spawnServer } from "./support/process.js";
import { removeRedisKeys } from "./support/server.js";
import { AnswerTally, type CountsBody, usageKeys } from "./support/tally.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

describe.runIf(TEST_DATABASE_URL)("two server processes on one PostgreSQL database", () => {
  it("revoke through A: B, whose cache would hold the key for an hour, answers REVOKED within 1 second", async () => {
    if (!TEST_DATABASE_URL) return;
    const database = await createPostgresTestDatabase(TEST_DATABASE_URL);
    const redis: Record<string, string> = TEST_REDIS_URL
      ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `keyport:test:${randomBytes(6).toString("hex")}:` }
      : {};
    const [a, b] = await Promise.all([
      spawnServer({ DATABASE_URL: database.url, ...redis }),
      spawnServer({ DATABASE_URL: database.url, KEY_CACHE_TTL_MS: "3600000", ...redis }),
    ]);
    try {
      const { token } = await signIn(a.baseUrl);
      const { key, apiKey } = await createKeyOver(a.baseUrl, token, { name: "shared" });
      expect((await verifyOver(b.baseUrl, key)).code).toBe("VALID"); // now cached in B
      expect((await verifyOver(b.baseUrl, key)).code).toBe("VALID");
      expect((await request(a.baseUrl, "DELETE", `/api-keys/${apiKey.id}`, { token })).status).toBe(200);
      // Only B's LISTEN can explain a change before its one-hour TTL. The contract is 1 second.
      await expect
        .poll(() => verifyOver(b.baseUrl, key), { timeout: 1_000, interval: 20 })
        .toMatchObject({ valid: false, code: "REVOKED", keyId: apiKey.id });

      if (TEST_REDIS_URL) {
        // With REDIS_URL both processes share each key's window: still exactly the limit.
        await clearOfWindowEdge(86_400);
        const limited = await createKeyOver(a.baseUrl, token, {
          name: "limited",
          rateLimit: { limit: 500, windowSeconds: 86_400 },
        });
        const viaA = createLoadClient(a.baseUrl, 50);
        const viaB = createLoadClient(b.baseUrl, 50);
        const answers = await Promise.all(
          Array.from({ length: 2_000 }, async (_, i) => {
            const { body } = await (i % 2 === 0 ? viaA : viaB).post("/api-keys/verify", { key: limited.key });
            return body as VerificationBody;
          }),
        );
        viaA.close();
        viaB.close();
        expect(answers.filter((v) => v.code === "VALID")).toHaveLength(500);
        expect(answers.filter((v) => v.code === "RATE_LIMITED")).toHaveLength(1_500);
      }
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    } finally {
      await Promise.all([a.stop("SIGKILL"), b.stop("SIGKILL")]);
      await database.drop();
      await removeRedisKeys(redis);
    }
  });
});

interface Backing {
  name: string;
  open(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}

const backings: Backing[] = [
  {
    name: "PGlite on disk",
    open: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "keyport-usage-"));
      return {
        env: { DATABASE_URL: "", DATA_DIR: dataDir },
        cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
];
if (TEST_DATABASE_URL) {
  const adminUrl = TEST_DATABASE_URL;
  backings.push({
    name: "PostgreSQL",
    open: async () => {
      const database = await createPostgresTestDatabase(adminUrl);
      return { env: { DATABASE_URL: database.url }, cleanup: () => database.drop() };
    },
  });
}

describe.each(backings)("usage across a SIGTERM and a restart ($name)", (backing) => {
  it("counts exactly the verifications that were answered before the process stopped", async () => {
    await clearOfWindowEdge(86_400);
    const { env, cleanup } = await backing.open();
    // A long flush interval: what reaches the database is written by the flush on SIGTERM.
    const first = await spawnServer({ ...env, USAGE_FLUSH_INTERVAL_MS: "600000" });
    let second: Awaited<ReturnType<typeof spawnServer>> | undefined;
    try {
      const { token, wallet } = await signIn(first.baseUrl);
      const keys: string[] = [];
      for (let i = 0; i < 10; i++) {
        const body: Record<string, unknown> = { name: `key ${i}` };
        if (i < 3) body.rateLimit = { limit: 100, windowSeconds: 86_400 };
        const created = await createKeyOver(first.baseUrl, token, body);
        if (i === 3) await request(first.baseUrl, "DELETE", `/api-keys/${created.apiKey.id}`, { token });
        keys.push(created.key);
      }

      const tally = new AnswerTally();
      const client = createLoadClient(first.baseUrl, 50);
      let answered = 0;
      let unanswered = 0;
      let stopping: Promise<number | null> | undefined;
      await Promise.all(
        Array.from({ length: 5_000 }, async (_, i) => {
          try {
            const { status, body } = await client.post("/api-keys/verify", { key: keys[i % keys.length] });
            expect(status).toBe(200);
            tally.add(body as VerificationBody);
            if (++answered === 1_500) stopping = first.stop("SIGTERM");
          } catch {
            unanswered++; // refused or cut off by the shutdown: never answered, so never counted
          }
        }),
      );
      client.close();
      expect(await stopping).toBe(0);
      expect(first.output()).not.toContain("usage flush failed");
      expect(answered).toBeGreaterThanOrEqual(1_500);
      expect(answered + unanswered).toBe(5_000);

      second = await spawnServer(env);
      const { status, body } = await request(
        second.baseUrl,
        "GET",
        `/api-keys/${wallet}/usage?granularity=hour`,
        {
          token,
        },
      );
      expect(status).toBe(200);
      const usage = body as { totals: CountsBody; keys: Array<{ keyId: string; name: string } & CountsBody> };
      expect(usage.totals).toEqual(tally.totals);
      expect(usageKeys(usage)).toEqual(tally.keys());
      expect(await second.stop()).toBe(0);
    } finally {
      await first.stop("SIGKILL");
      await second?.stop("SIGKILL");
      await cleanup();
    }
  });
});
