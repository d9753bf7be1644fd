import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "@keyport/test-support/http";
import { signIn } from "@keyport/test-support/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase, TEST_DATABASE_URL } from "./support/databases.js";
import { createKeyOver, type VerificationBody } from "./support/keys.js";
import { createLoadClient } from "./support/load.js";
import { type ServerProcess, spawnServer } from "./support/process.js";

// SIGTERM while keep-alive clients hammer verify: whatever the server counted, the client heard,
// and the other way round. A socket reset or destroyed under an answered request would show here
// as a count the client never saw.

const KIND = TEST_DATABASE_URL ? "postgres" : "pglite";
const WORKERS = 40;

describe(`SIGTERM under keep-alive load [${KIND}]`, () => {
  // A 1 ms key cache: every verification reads the database, so requests are in flight (read,
  // not yet answered) at any moment, as under real traffic with cold keys.
  const env: Record<string, string> = { USAGE_FLUSH_INTERVAL_MS: "500", KEY_CACHE_TTL_MS: "1" };
  let dataDir: string | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (TEST_DATABASE_URL) {
      const created = await createPostgresTestDatabase(TEST_DATABASE_URL);
      env.DATABASE_URL = created.url;
      drop = created.drop;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), "keyport-shutdown-"));
      env.DATA_DIR = dataDir;
    }
  });

  afterAll(async () => {
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const validCount = async (server: ServerProcess, wallet: string, token: string) => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const res = await request(
      server.baseUrl,
      "GET",
      `/api-keys/${wallet}/usage?granularity=hour&from=${from}&to=${to}`,
      { token },
    );
    expect(res.status).toBe(200);
    return (res.body as { totals: { valid: number } }).totals.valid;
  };

  it("a keep-alive client receives every verification the server counted, and the process exits 0", async () => {
    let server = await spawnServer(env);
    const { token, wallet } = await signIn(server.baseUrl);
    const { key } = await createKeyOver(server.baseUrl, token, { name: "shutdown" });
    const client = createLoadClient(server.baseUrl, WORKERS);
    let heard = 0;
    let closeAnswers = 0;
    const failures: string[] = [];
    // Each worker loops until its first failed request: a refused connection, or one the server
    // closed before answering (never run, so never counted).
    const worker = async () => {
      for (;;) {
        try {
          const answer = await client.post("/api-keys/verify", { key });
          const body = answer.body as VerificationBody;
          if (answer.status !== 200 || body.code !== "VALID") {
            failures.push(`${answer.status} ${JSON.stringify(body)}`);
            return;
          }
          heard += 1;
          if (answer.headers.connection === "close") closeAnswers += 1;
        } catch {
          return;
        }
      }
    };
    const traffic = Promise.all(Array.from({ length: WORKERS }, worker));
    // Let every socket carry requests before the signal.
    await expect.poll(() => heard, { timeout: 60_000 }).toBeGreaterThanOrEqual(500);
    expect(await server.stop("SIGTERM")).toBe(0);
    await traffic;
    client.close();
    expect(failures).toEqual([]);

    server = await spawnServer(env);
    try {
      expect(await validCount(server, wallet, token)).toBe(heard);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    console.info(`shutdown [${KIND}]: ${heard} answers heard, ${closeAnswers} with Connection: close`);
  }, 120_000);
});
